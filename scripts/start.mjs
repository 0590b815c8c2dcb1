#!/usr/bin/env node
// npm start [-- --port N] [--persist-to DIR] [--shards N]
//
// Serves edgedesk locally with embedded D1 databases, the directory and a pool of shards (4 unless
// --shards says otherwise, up to 64; docs/shards.md): applies the migrations to each, makes sure the
// local platform app exists, prints its key, and runs `wrangler dev`. The key is DESK_PLATFORM_TOKEN when that
// is set; otherwise one is generated once, kept beside the local data, and printed at every start.
//
// A few things differ from a deployed Worker, on purpose:
// - WEBHOOK_TARGET_POLICY is "allow-private", so webhooks, API-inbox callbacks and agent bots may call a
//   receiver on this machine or the local network (a deployed Worker refuses those addresses);
// - ATTACHMENT_URL_SECRET and WIDGET_TOKEN_SECRET (secrets when deployed) are generated once and kept
//   beside the local data;
// - the rate limits are generous (LOCAL_RATE_LIMITS below), for scripts and test runs against this server;
// - FRONTEND_URL (on another port than wrangler.toml's) and FILES_BASE_URL name this server's port, so the
//   widget snippet and the links it hands out reach it, unless the environment sets them;
// - the minute cron (outbox sweep, due webhook retries, snooze wake-ups, log pruning) is fired by this
//   script, because `wrangler dev` never fires scheduled handlers by itself.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { LOCAL_APP_NAME, ensureAppKeySql, generateKey, sha256Hex } from "./lib/platform-keys.mjs";
import { executeSql, migrateLocal, root, wranglerSpawn } from "./lib/wrangler.mjs";
import { LOCAL_SHARDS, MAX_SHARDS, shardedConfig } from "./lib/shards.mjs";
import { buildWidget, copyVendorFiles } from "./page-assets.mjs";

const { values: options } = parseArgs({
  options: {
    port: { type: "string", default: "8787" },
    "persist-to": { type: "string", default: join(root, ".wrangler", "state") },
    shards: { type: "string", default: String(LOCAL_SHARDS) },
  },
});
const shards = Number(options.shards);
if (!Number.isInteger(shards) || shards < 1 || shards > MAX_SHARDS) {
  console.error(`--shards must be 1 to ${MAX_SHARDS}, got ${options.shards}`);
  process.exit(2);
}
// wrangler.toml with this pool of shards; the directory and each shard keep their local data between runs
const config = shardedConfig(shards);
const port = Number(options.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`--port must be a port number, got ${options.port}`);
  process.exit(2);
}
const persistTo = resolve(options["persist-to"]);
mkdirSync(persistTo, { recursive: true });

function platformKey() {
  const fromEnv = process.env.DESK_PLATFORM_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  const file = join(persistTo, "edgedesk-platform-key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const key = generateKey();
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

/**
 * The key that signs attachment URLs (a secret when deployed): ATTACHMENT_URL_SECRET when set, otherwise
 * generated once and kept beside the local data, so URLs stay valid across restarts.
 */
function attachmentUrlSecret() {
  return localSecret("ATTACHMENT_URL_SECRET", "edgedesk-attachment-url-secret");
}

/** A secret from the environment, or generated once and kept in `file` beside the local data. */
function localSecret(variable, file) {
  const fromEnv = process.env[variable]?.trim();
  if (fromEnv) return fromEnv;
  const path = join(persistTo, file);
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  const secret = generateKey();
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  return secret;
}

// the pages' browser files (public/vendor, public/packs), rebuilt so an edit of widget/ shows on the next
// start (and in the end-to-end tests, which start the server this way); about half a second
copyVendorFiles();
await buildWidget();

console.log(`Applying database migrations to the local directory and ${shards} shards...`);
migrateLocal(config, persistTo);

const key = platformKey();
executeSql(ensureAppKeySql(LOCAL_APP_NAME, sha256Hex(key)), { persistTo, config });

/** wrangler.toml names the default port (8787). */
const CONFIGURED_PORT = 8787;

/**
 * FRONTEND_URL (the widget snippet's base, CSAT survey and login links) and FILES_BASE_URL (file URLs,
 * mailed links) as `--var`s: what the environment sets, otherwise this server's address. FRONTEND_URL is
 * left to wrangler.toml on its own port, where it already names this server (or the address put there);
 * FILES_BASE_URL has always followed the port.
 */
function localAddressVars() {
  const local = `http://localhost:${port}`;
  const frontend = process.env.FRONTEND_URL?.trim() || (port === CONFIGURED_PORT ? null : local);
  const files = process.env.FILES_BASE_URL?.trim() || local;
  return [...(frontend ? [`FRONTEND_URL:${frontend}`] : []), `FILES_BASE_URL:${files}`];
}

/** Local receivers are the point of local development: see the header comment. */
const WEBHOOK_TARGET_POLICY = "allow-private";
const CRON_EVERY_MS = 60_000;
/**
 * Generous limits for local work (scripts, seeding, a test run against this server); a deployed Worker
 * uses wrangler.toml's. Set RATE_LIMIT_<NAME>=<requests>/<seconds> in the environment to try others.
 */
const LOCAL_RATE_LIMITS = ["ACCOUNT_API", "PLATFORM_API", "PUBLIC_API", "PUBLIC_CREATE", "PUBLIC_UPDATE", "WIDGET_PAGE", "SIGN_IN_FAILURES", "TRANSCRIPT_MAIL", "SECRET_FAILURES"].map(
  (name) => `RATE_LIMIT_${name}:${process.env[`RATE_LIMIT_${name}`] ?? "100000/60"}`,
);

const banner = [
  "",
  `edgedesk is serving on http://localhost:${port}`,
  `Databases: the directory and ${shards} shards (docs/shards.md; --shards N for another pool).`,
  `Platform key (api_access_token for /platform/api/v1): ${key}`,
  `Webhooks may target localhost and private networks here (WEBHOOK_TARGET_POLICY=${WEBHOOK_TARGET_POLICY}); a deployed Worker refuses them.`,
  "The minute cron (event outbox sweep, webhook retries, snooze wake-ups) is triggered by this script every minute.",
  `Rate limits: ${LOCAL_RATE_LIMITS.join(", ")} (docs/limits.md).`,
  "",
].join("\n");
// The banner waits for the server (below): printed now, wrangler's own output would push it away.
console.log(`Starting wrangler dev on port ${port}...`);

const dev = wranglerSpawn([
  "dev",
  "-c",
  config,
  "--port",
  String(port),
  "--persist-to",
  persistTo,
  "--show-interactive-dev-session=false",
  "--var",
  `WEBHOOK_TARGET_POLICY:${WEBHOOK_TARGET_POLICY}`,
  ...LOCAL_RATE_LIMITS.flatMap((limit) => ["--var", limit]),
  // files are kept in the local R2 under --persist-to; their URLs are signed with this key
  "--var",
  `ATTACHMENT_URL_SECRET:${attachmentUrlSecret()}`,
  // the website widget's visitor tokens stay valid across restarts (docs/widget.md)
  "--var",
  `WIDGET_TOKEN_SECRET:${localSecret("WIDGET_TOKEN_SECRET", "edgedesk-widget-token-secret")}`,
  // this server's own address for the links it hands out (the widget snippet, CSAT and login links, file
  // URLs), unless the environment names them
  ...localAddressVars().flatMap((v) => ["--var", v]),
  // exposes /__scheduled, which the cron below calls
  "--test-scheduled",
]);

/** Fires the Worker's scheduled handler, as Cloudflare's cron trigger does every minute when deployed. */
async function runCron() {
  try {
    const res = await fetch(`http://localhost:${port}/__scheduled?cron=${encodeURIComponent("* * * * *")}`);
    await res.body?.cancel();
    if (!res.ok) console.error(`The minute cron answered ${res.status}`);
  } catch {
    // the server is restarting; the next minute will do
  }
}
let cron;

// Print the banner once the server answers. Probes overlap when one takes longer than the interval, so
// `served` (not clearInterval alone) makes sure only the first answer prints it and starts the cron.
let served = false;
const ready = setInterval(async () => {
  try {
    const res = await fetch(`http://localhost:${port}/api`);
    await res.body?.cancel();
    if (res.ok && !served) {
      served = true;
      clearInterval(ready);
      console.log(banner);
      void runCron(); // at once: a previous run may have left events in the outbox
      cron = setInterval(runCron, CRON_EVERY_MS);
    }
  } catch {
    // not up yet
  }
}, 500);

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    clearInterval(ready);
    clearInterval(cron);
    dev.kill(signal);
  });
}
dev.on("exit", (code, signal) => {
  clearInterval(ready);
  clearInterval(cron);
  process.exit(code ?? (signal ? 1 : 0));
});
