// Runs the project's own wrangler on the project's own Node (the `node` devDependency, v22), whichever
// Node started this script: wrangler refuses Node 20, which is what the machines have.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const bin = join(root, "node_modules", ".bin");

function childEnv(extra = {}) {
  return {
    ...process.env,
    PATH: `${bin}:${process.env.PATH ?? ""}`,
    WRANGLER_SEND_METRICS: "false",
    ...extra,
  };
}

function wranglerCommand() {
  const wrangler = join(bin, "wrangler");
  if (!existsSync(wrangler)) throw new Error("wrangler is not installed: run `npm install` first");
  const node = join(bin, "node");
  return existsSync(node) ? [node, [join(root, "node_modules", "wrangler", "bin", "wrangler.js")]] : [wrangler, []];
}

/** Runs `wrangler <args>` to completion; throws with its output on failure. */
export function wranglerSync(args, { quiet = false } = {}) {
  const [command, prefix] = wranglerCommand();
  const result = spawnSync(command, [...prefix, ...args], {
    cwd: root,
    env: childEnv({ CI: "true" }), // no interactive confirmation prompts
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(`wrangler ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  }
  if (!quiet) process.stdout.write(result.stdout);
  return result.stdout;
}

/** Terminal colour codes: wrangler colours its errors even into a pipe. */
const COLOURS = /\x1b\[[0-9;]*m/g;

/**
 * Runs `wrangler <args>` and answers what it printed, without colours, and its exit code, failing or
 * not (the setup reads both). `input` is written to its stdin; `env` adds to its environment.
 */
export function wranglerRun(args, { input, env = {} } = {}) {
  const [command, prefix] = wranglerCommand();
  return new Promise((resolve, reject) => {
    // FORCE_COLOR=0: plain tables, which the setup parses
    const child = spawn(command, [...prefix, ...args], { cwd: root, env: childEnv({ CI: "true", FORCE_COLOR: "0", ...env }), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout: stdout.replace(COLOURS, ""), stderr: stderr.replace(COLOURS, "") }));
    child.stdin.end(input ?? "");
  });
}

/** Starts `wrangler <args>` as a long-running child that shares this terminal. */
export function wranglerSpawn(args) {
  const [command, prefix] = wranglerCommand();
  return spawn(command, [...prefix, ...args], { cwd: root, env: childEnv(), stdio: ["ignore", "inherit", "inherit"] });
}

/**
 * Runs SQL against the directory database (docs/shards.md): local (optionally in `persistTo`, with the
 * wrangler config `config`) or the deployed one.
 */
export function executeSql(sql, { remote = false, persistTo, config } = {}) {
  const target = remote ? ["--remote"] : ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
  return wranglerSync(["d1", "execute", "DIRECTORY", ...target, ...(config ? ["-c", config] : []), "--command", sql], { quiet: true });
}

/**
 * Applies the migrations to every local database of the wrangler config `config` in one process
 * (scripts/lib/migrate-local.mjs, on the project's Node); prints its summary, or its whole output on failure.
 */
export function migrateLocal(config, persistTo) {
  const [command, prefix] = wranglerCommand();
  const node = prefix.length > 0 ? command : process.execPath;
  const result = spawnSync(node, [join(root, "scripts", "lib", "migrate-local.mjs"), config, persistTo], {
    cwd: root,
    env: childEnv({ WRANGLER_SEND_METRICS: "false" }),
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`migrating the local databases failed:\n${result.stdout}\n${result.stderr}`);
  // the platform proxy's workerd warns about the Durable Objects it does not host: only the summary matters
  process.stdout.write(result.stdout.split("\n").filter((line) => line.startsWith("Migrations:")).join("\n") + "\n");
}

export const packageVersion = () => JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
