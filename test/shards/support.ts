/** What the shard tests share: reading the shard a response names, and accounts on different shards. */
import { shardNumberOf } from "../support/databases";
import { createWorld } from "../support/world";

export type World = Awaited<ReturnType<typeof createWorld>>;

/** A `Server-Timing` metric's `desc` as a number (the shard, the round trips), or null when absent. */
export function timing(headers: Headers, metric: "db-shard" | "db-round-trips"): number | null {
  const match = new RegExp(`${metric};desc="(\\d+)"`).exec(headers.get("server-timing") ?? "");
  return match ? Number(match[1]) : null;
}

/**
 * Two accounts (each with an administrator and an agent) that the directory placed on different shards.
 * Accounts go to the least full shard, so a few new ones always span two, whatever other files create.
 */
export async function worldsOnTwoShards(name: string): Promise<[World & { shard: number }, World & { shard: number }]> {
  const first = await createWorld(`${name} A`);
  const firstShard = await shardNumberOf(first.accountId);
  for (let attempt = 0; attempt < 12; attempt++) {
    const other = await createWorld(`${name} B${attempt}`);
    const shard = await shardNumberOf(other.accountId);
    if (shard !== firstShard) return [{ ...first, shard: firstShard }, { ...other, shard }];
  }
  throw new Error("twelve new accounts all landed on one shard");
}
