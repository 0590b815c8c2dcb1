#!/usr/bin/env node
// npm run db:migrate [-- --remote] [--config FILE] [--persist-to DIR]
//
// Applies the migrations to every database of the pool (docs/shards.md): the directory and each shard
// that the wrangler config declares, local by default (what `npx wrangler dev` then serves), Cloudflare's
// with --remote, whose databases wrangler.deploy.toml names (written by `npm run setup -- --remote`, which
// migrates as part of its run; docs/deploying.md). Every database gets the same migrations. Remotely it then checks that none of them has
// a migration left to apply, and fails naming the ones that do: a shard behind the others must never
// serve requests.
import { parseArgs } from "node:util";
import { declaredBindings } from "./lib/shards.mjs";
import { join } from "node:path";
import { migrateLocal, root, wranglerSync } from "./lib/wrangler.mjs";
import { requireDeployConfig } from "./setup/deploy-config.mjs";

const { values: options } = parseArgs({
  options: {
    remote: { type: "boolean", default: false },
    config: { type: "string" },
    "persist-to": { type: "string" },
  },
});

options.config ??= options.remote ? requireDeployConfig(root) : "wrangler.toml";
if (!options.remote) {
  // one process for every local database (scripts/lib/migrate-local.mjs), where wrangler takes one per database
  migrateLocal(options.config, options["persist-to"] ?? join(root, ".wrangler", "state"));
  process.exit(0);
}

const where = options.remote ? ["--remote"] : ["--local", ...(options["persist-to"] ? ["--persist-to", options["persist-to"]] : [])];
const bindings = declaredBindings(options.config);
console.log(`Applying migrations to ${bindings.length} databases (${options.remote ? "Cloudflare's" : "local"}): ${bindings.join(", ")}`);
bindings.forEach((binding, i) => {
  wranglerSync(["d1", "migrations", "apply", binding, ...where, "-c", options.config], { quiet: true });
  process.stdout.write(`  ${i + 1}/${bindings.length} ${binding}\n`);
});

const behind = bindings.filter((binding) => !/No migrations to apply/i.test(wranglerSync(["d1", "migrations", "list", binding, ...where, "-c", options.config], { quiet: true })));
if (behind.length > 0) {
  console.error(`These databases still have migrations to apply: ${behind.join(", ")}`);
  process.exit(1);
}
console.log("Every database is on the latest migration.");
