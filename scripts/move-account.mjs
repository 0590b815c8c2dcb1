#!/usr/bin/env node
// npm run move-account -- --account ID --to N [--remote] [--shards K] [--persist-to DIR] [--drain-seconds S]
//
// Moves one account to another shard (docs/shards.md: "Moving an account"; src/jobs/account-move.ts
// does the work, the same code the Worker's cron runs to roll back a move whose mover died): a large
// customer to a shard of its own, say. Locally it works on the pool `npm start`
// serves (--shards must match the pool's size, 4 unless you chose another); with --remote on Cloudflare's
// databases, through wrangler's remote bindings (log in with `npx wrangler login` first). The server may
// keep running: the account's changes wait with 503 and Retry-After while its rows are copied (a few
// seconds to drain, then the copy). Interrupted, or failing before the switch, the move rolls back (here,
// or by the cron within two minutes); the account stays on its old shard.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LOCAL_SHARDS, MAX_SHARDS, declaredBindings, shardedConfig } from "./lib/shards.mjs";
import { root } from "./lib/wrangler.mjs";
import { requireDeployConfig } from "./setup/deploy-config.mjs";

// wrangler's platform proxy needs the Node 22 the project installs
const projectNode = join(root, "node_modules", ".bin", "node");
if (Number(process.versions.node.split(".")[0]) < 22 && existsSync(projectNode)) {
  const result = spawnSync(projectNode, process.argv.slice(1), { stdio: "inherit" });
  process.exit(result.status ?? 1);
}

const { values: options } = parseArgs({
  options: {
    account: { type: "string" },
    to: { type: "string" },
    remote: { type: "boolean", default: false },
    shards: { type: "string", default: String(LOCAL_SHARDS) },
    "persist-to": { type: "string", default: join(root, ".wrangler", "state") },
    "drain-seconds": { type: "string", default: "3" },
  },
});
const accountId = Number(options.account);
const to = Number(options.to);
const drainSeconds = Number(options["drain-seconds"]);
if (!Number.isInteger(accountId) || accountId < 1 || !Number.isInteger(to) || to < 0 || !(drainSeconds >= 0)) {
  console.error("usage: npm run move-account -- --account ID --to N [--remote] [--shards K] [--persist-to DIR] [--drain-seconds S]");
  process.exit(2);
}
const shardCount = Number(options.shards);
if (!options.remote && (!Number.isInteger(shardCount) || shardCount < 1 || shardCount > MAX_SHARDS)) {
  console.error(`--shards must be 1 to ${MAX_SHARDS}`);
  process.exit(2);
}

/**
 * The deployment's configuration (wrangler.deploy.toml, written by `npm run setup -- --remote`) with every
 * database marked remote, so the platform proxy reaches Cloudflare's.
 */
function remoteConfig() {
  const path = join(root, "wrangler.remote-databases.toml");
  writeFileSync(path, readFileSync(requireDeployConfig(root), "utf8").replace(/^(migrations_dir = "migrations")$/gm, "$1\nremote = true"));
  return path;
}

const configPath = options.remote ? remoteConfig() : shardedConfig(shardCount);
const { getPlatformProxy } = await import("wrangler");
// a TypeScript file that imports nothing: the project's Node 22 runs it as it is
const { moveAccount } = await import("../src/jobs/account-move.ts");
const { env, dispose } = await getPlatformProxy({ configPath, persist: options.remote ? false : { path: join(options["persist-to"], "v3") } });
try {
  const shards = declaredBindings(configPath)
    .filter((binding) => binding !== "DIRECTORY")
    .map((binding) => env[binding]);
  const copied = await moveAccount({ directory: env.DIRECTORY, shards, accountId, to, drainMs: drainSeconds * 1000, log: (line) => console.log(line) });
  console.log(`Moved account ${accountId} to shard ${to}: ${Object.entries(copied).filter(([, n]) => n > 0).map(([table, n]) => `${table} ${n}`).join(", ")}`);
} catch (error) {
  console.error(String(error?.message ?? error));
  process.exitCode = 1;
} finally {
  await dispose();
  if (options.remote) rmSync(configPath, { force: true });
}
