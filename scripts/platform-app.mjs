#!/usr/bin/env node
// npm run platform-app -- --name "Billing sync" [--remote] [--persist-to DIR]
//
// Creates a platform app and prints its key, which is shown only here: the database keeps its digest.
// Platform apps live in the directory (docs/shards.md). Without --remote it writes to the local
// directory that `npm start` serves; with --remote to the deployed one that wrangler.deploy.toml names
// (written by `npm run setup -- --remote`; wrangler must be logged in).
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createAppSql, generateKey, sha256Hex } from "./lib/platform-keys.mjs";
import { executeSql, root, wranglerSync } from "./lib/wrangler.mjs";
import { requireDeployConfig } from "./setup/deploy-config.mjs";

const { values: options } = parseArgs({
  options: {
    name: { type: "string" },
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string", default: join(root, ".wrangler", "state") },
  },
});
if (!options.name?.trim()) {
  console.error('Usage: npm run platform-app -- --name "App name" [--remote]');
  process.exit(2);
}
if (!options.remote) {
  console.log("Applying migrations to the local directory first...");
  wranglerSync(["d1", "migrations", "apply", "DIRECTORY", "--local", "--persist-to", options["persist-to"]], { quiet: true });
}
const key = generateKey();
executeSql(createAppSql(options.name.trim(), sha256Hex(key)), {
  remote: options.remote,
  persistTo: options["persist-to"],
  ...(options.remote ? { config: requireDeployConfig(root) } : {}),
});
console.log(`Created platform app "${options.name.trim()}" (${options.remote ? "deployed" : "local"} directory).`);
console.log(`Platform key: ${key}`);
