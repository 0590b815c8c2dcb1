// The database bindings of a pool of N shards (docs/shards.md): DIRECTORY and SHARD_00 … SHARD_<N-1>.
// wrangler.toml declares the deployed pool; local servers and the tests run a pool of their own size
// from a copy of it with only the shard entries changed.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./wrangler.mjs";

export const MAX_SHARDS = 64;
export const LOCAL_SHARDS = 4;

export const shardBinding = (n) => `SHARD_${String(n).padStart(2, "0")}`;

/** Every D1 binding of a pool of `count` shards, the directory first. */
export const databaseBindings = (count) => ["DIRECTORY", ...Array.from({ length: count }, (_, n) => shardBinding(n))];

const SHARD_ENTRY = /\[\[d1_databases\]\]\nbinding = "SHARD_\d{2}"\n(?:[^\n]+\n)*\n?/g;

/** The D1 databases a wrangler config declares (wrangler.toml: the deployed pool), with their ids. */
export function declaredDatabases(configPath = join(root, "wrangler.toml")) {
  return [...readFileSync(configPath, "utf8").matchAll(/^binding = "(DIRECTORY|SHARD_\d{2})"\ndatabase_name = "[^"]*"\ndatabase_id = "([^"]+)"$/gm)].map((match) => ({
    binding: match[1],
    id: match[2],
  }));
}

/** The D1 bindings a wrangler config declares. */
export const declaredBindings = (configPath) => declaredDatabases(configPath).map(({ binding }) => binding);

/**
 * Writes wrangler.toml with a pool of `count` shards beside it (relative paths in it stay right) and
 * answers its path. Local shards are told apart by their database ids, which only the local state uses.
 */
export function shardedConfig(count) {
  if (!Number.isInteger(count) || count < 1 || count > MAX_SHARDS) throw new Error(`the shard count must be 1 to ${MAX_SHARDS}, got ${count}`);
  const declared = readFileSync(join(root, "wrangler.toml"), "utf8");
  const firstShard = declared.search(SHARD_ENTRY);
  const entries = Array.from(
    { length: count },
    (_, n) =>
      `[[d1_databases]]\nbinding = "${shardBinding(n)}"\ndatabase_name = "edgedesk-shard-${String(n).padStart(2, "0")}"\ndatabase_id = "00000000-0000-0000-0000-0000000000${String(n).padStart(2, "0")}"\nmigrations_dir = "migrations"\n\n`,
  ).join("");
  const config = declared.slice(0, firstShard) + entries + declared.slice(firstShard).replace(SHARD_ENTRY, "");
  const path = join(root, `wrangler.shards-${count}.toml`);
  const text = `# Generated from wrangler.toml by scripts/lib/shards.mjs for a pool of ${count} shards; do not edit.\n${config}`;
  // written only when it changed: a running `wrangler dev` on this file reloads when it is written
  if (!existsSync(path) || readFileSync(path, "utf8") !== text) writeFileSync(path, text);
  return path;
}
