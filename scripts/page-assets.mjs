// Fills public/vendor/ with the browser builds that the Worker's pages use, from the installed packages,
// so that every page loads its scripts from the Worker's own origin (static assets, wrangler.toml
// [assets]) and works without the internet. Runs after every `npm install` (postinstall); the files
// are generated, not committed.
import { copyFileSync, mkdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Served at /vendor/<name>: the file of an installed package it is copied from. */
export const VENDOR_FILES = {
  // the API reference page (/docs): Scalar's single-file build, which needs no further chunks
  "scalar-api-reference.js": "node_modules/@scalar/api-reference/dist/browser/standalone.js",
  // the agent demo (/agent-demo): the ActionCable client Chatwoot's own apps use
  "actioncable.js": "node_modules/@rails/actioncable/app/assets/javascripts/actioncable.js",
};

const unchanged = (from, to) => {
  try {
    const a = statSync(from);
    const b = statSync(to);
    return a.size === b.size && a.mtimeMs <= b.mtimeMs;
  } catch {
    return false;
  }
};

for (const [name, source] of Object.entries(VENDOR_FILES)) {
  const from = join(root, source);
  const to = join(root, "public", "vendor", name);
  if (unchanged(from, to)) continue;
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
}
