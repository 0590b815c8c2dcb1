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

/** Starts `wrangler <args>` as a long-running child that shares this terminal. */
export function wranglerSpawn(args) {
  const [command, prefix] = wranglerCommand();
  return spawn(command, [...prefix, ...args], { cwd: root, env: childEnv(), stdio: ["ignore", "inherit", "inherit"] });
}

/** Runs SQL against the D1 database `DB`: local (optionally in `persistTo`) or the deployed one. */
export function executeSql(sql, { remote = false, persistTo } = {}) {
  const target = remote ? ["--remote"] : ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
  return wranglerSync(["d1", "execute", "DB", ...target, "--command", sql], { quiet: true });
}

export const packageVersion = () => JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
