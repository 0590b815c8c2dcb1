#!/usr/bin/env node
// npm start [-- --port N] [--persist-to DIR]
//
// Serves edgedesk locally with an embedded D1 database: applies the migrations, makes sure the local
// platform app exists, prints its key, and runs `wrangler dev`. The key is DESK_PLATFORM_TOKEN when that
// is set; otherwise one is generated once, kept beside the local data, and printed at every start.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { LOCAL_APP_NAME, ensureAppKeySql, generateKey, sha256Hex } from "./lib/platform-keys.mjs";
import { executeSql, root, wranglerSpawn, wranglerSync } from "./lib/wrangler.mjs";

const { values: options } = parseArgs({
  options: {
    port: { type: "string", default: "8787" },
    "persist-to": { type: "string", default: join(root, ".wrangler", "state") },
  },
});
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

console.log("Applying database migrations to the local D1 database...");
wranglerSync(["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo], { quiet: true });

const key = platformKey();
executeSql(ensureAppKeySql(LOCAL_APP_NAME, sha256Hex(key)), { persistTo });

const banner = [
  "",
  `edgedesk is serving on http://localhost:${port}`,
  `Platform key (api_access_token for /platform/api/v1): ${key}`,
  "",
].join("\n");
console.log(banner);

const dev = wranglerSpawn([
  "dev",
  "--port",
  String(port),
  "--persist-to",
  persistTo,
  "--show-interactive-dev-session=false",
]);

// Say it again once the server answers, since wrangler's own output pushes the first banner away.
const ready = setInterval(async () => {
  try {
    const res = await fetch(`http://localhost:${port}/api`);
    if (res.ok) {
      clearInterval(ready);
      console.log(banner);
    }
  } catch {
    // not up yet
  }
}, 500);

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    clearInterval(ready);
    dev.kill(signal);
  });
}
dev.on("exit", (code, signal) => {
  clearInterval(ready);
  process.exit(code ?? (signal ? 1 : 0));
});
