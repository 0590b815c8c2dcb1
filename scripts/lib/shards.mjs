// The database bindings of a pool of N shards (docs/shards.md): DIRECTORY and SHARD_00 … SHARD_<N-1>.
// wrangler.toml declares the deployed pool; local servers and the tests run a pool of their own size
// from a copy of it with only the shard entries changed.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./wrangler.mjs";

export const MAX_SHARDS = 64;
export const LOCAL_SHARDS = 4;

export const shardBinding = (n) => `SHARD_${String(n).padStart(2, "0")}`;

/** The name of shard `n`'s D1 database on Cloudflare (what `npm run setup -- --remote` creates). */
export const shardDatabaseName = (n) => `edgedesk-shard-${String(n).padStart(2, "0")}`;

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

/** One `[[d1_databases]]` entry of the pool, as wrangler.toml writes them. */
const databaseEntry = ({ binding, name, id }) =>
  `[[d1_databases]]\nbinding = "${binding}"\ndatabase_name = "${name}"\ndatabase_id = "${id}"\nmigrations_dir = "migrations"\n\n`;

/**
 * The wrangler config `text` with its shard entries replaced by `shards` ({binding, name, id} each, in
 * order) and, when `directoryId` is given, the directory's database id replaced by it.
 */
export function withDatabases(text, shards, directoryId) {
  const firstShard = text.search(SHARD_ENTRY);
  const config = text.slice(0, firstShard) + shards.map(databaseEntry).join("") + text.slice(firstShard).replace(SHARD_ENTRY, "");
  return directoryId === undefined ? config : config.replace(/^(binding = "DIRECTORY"\ndatabase_name = "[^"]*"\ndatabase_id = )"[^"]*"$/m, `$1"${directoryId}"`);
}

/**
 * Writes wrangler.toml with a pool of `count` shards beside it (relative paths in it stay right) and
 * answers its path. Local shards are told apart by their database ids, which only the local state uses.
 */
export function shardedConfig(count) {
  if (!Number.isInteger(count) || count < 1 || count > MAX_SHARDS) throw new Error(`the shard count must be 1 to ${MAX_SHARDS}, got ${count}`);
  const shards = Array.from({ length: count }, (_, n) => ({
    binding: shardBinding(n),
    name: shardDatabaseName(n),
    id: `00000000-0000-0000-0000-0000000000${String(n).padStart(2, "0")}`,
  }));
  const config = withDatabases(readFileSync(join(root, "wrangler.toml"), "utf8"), shards);
  const path = join(root, `wrangler.shards-${count}.toml`);
  const text = `# Generated from wrangler.toml by scripts/lib/shards.mjs for a pool of ${count} shards; do not edit.\n${config}`;
  // written only when it changed: a running `wrangler dev` on this file reloads when it is written
  if (!existsSync(path) || readFileSync(path, "utf8") !== text) writeFileSync(path, text);
  return path;
}
