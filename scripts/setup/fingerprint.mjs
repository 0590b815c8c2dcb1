// What a deploy uploads, in one short hash: the Worker's sources, its static assets, the installed
// packages (by the lock file) and the deploy configuration. The setup tags each deploy with it
// (`wrangler deploy --tag`) and deploys only when the serving version carries another, so a rerun on
// the same checkout deploys nothing.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";

/** Folders and files of the project whose content reaches the deployed Worker. */
const DEPLOYED = ["src", "public", "migrations", "package-lock.json"];

function files(path) {
  if (!existsSync(path)) return [];
  const entries = readdirSync(path, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** The tag of a deploy of `configText` from the project in `root` (a version tag holds 25 characters at most). */
export function deployFingerprint(root, configText) {
  const hash = createHash("sha256").update(configText);
  const paths = DEPLOYED.flatMap((name) => {
    const path = join(root, name);
    return existsSync(path) && !path.endsWith(".json") ? files(path) : [path];
  })
    .filter((path) => existsSync(path))
    .map((path) => relative(root, path))
    .sort();
  for (const path of paths) hash.update(`\0${path}\0`).update(readFileSync(join(root, path)));
  return `setup-${hash.digest("hex").slice(0, 16)}`;
}
