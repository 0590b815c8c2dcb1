/**
 * The test's way to the databases behind the Worker (docs/shards.md): the directory holds what spans
 * accounts (accounts and the shard each lives on, users, account users, keys, sign-ins, platform apps,
 * agent bots, identity mail); each shard holds its accounts' rows, with copies of their account row,
 * members, users and bots. A test reads or changes an account's rows on that account's shard.
 */
import { env } from "cloudflare:workers";

/** The directory database. */
export const directory = (): D1Database => env.DIRECTORY;

/** Every shard binding the Worker has, in shard order. */
export function allShards(): D1Database[] {
  const bindings = env as unknown as Record<string, unknown>;
  return Object.keys(bindings)
    .filter((name) => /^SHARD_\d{2}$/.test(name))
    .sort()
    .map((name) => bindings[name] as D1Database);
}

/** The number of the shard that holds `accountId`, as the directory records it. */
export async function shardNumberOf(accountId: number): Promise<number> {
  const row = await directory().prepare("SELECT shard FROM accounts WHERE id = ?").bind(accountId).first<{ shard: number }>();
  if (!row) throw new Error(`account ${accountId} is not in the directory`);
  return row.shard;
}

/** The shard database that holds `accountId`'s rows. */
export async function shardOf(accountId: number): Promise<D1Database> {
  return allShards()[await shardNumberOf(accountId)];
}
