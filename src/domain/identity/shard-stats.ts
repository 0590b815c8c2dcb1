/**
 * How big each shard is, for placing new accounts (docs/shards.md, Placement). D1 reports the database's
 * size with every answer (`meta.size_after`), so the cron's look at a shard is one tiny query; the size
 * goes into the directory's `shard_stats`, which `createAccount` orders by. libSQL (one database, the
 * directory and the only shard) reports no size: there is nothing to choose between, and nothing is written.
 */
import { sql } from "drizzle-orm";
import { type Database, now, schema } from "../../db/client";
import { batch } from "../kernel/batch";
import type { TransportScope } from "../kernel/scope";

const { shardStats } = schema;

/** The size of database `db` as D1 reports it with an answer (one tiny query), or null where the driver reports none. */
export async function databaseSize(db: Database): Promise<number | null> {
  const result = (await db.run(sql`SELECT 1`)) as { meta?: { size_after?: unknown } };
  const bytes = result.meta?.size_after;
  return typeof bytes === "number" ? bytes : null;
}

/** Records the size of `shard` (the database `scope.db`) in the directory; answers it, or null where the driver reports none. */
export async function recordShardSize(scope: TransportScope, shard: number): Promise<number | null> {
  const bytes = await databaseSize(scope.db);
  if (bytes === null) return null;
  const at = now();
  await batch(scope.directory, [
    scope.directory
      .insert(shardStats)
      .values({ shard, accounts: 0, bytes, updatedAt: at })
      .onConflictDoUpdate({ target: shardStats.shard, set: { bytes, updatedAt: at } }),
  ]);
  return bytes;
}
