/**
 * Each shard gives out ids from a range of its own (docs/shards.md): shard n's rows get ids from
 * n × 2^40 + 1, so an id names one row across the whole pool. Queries still carry the account (ids alone
 * never decide tenancy); what the ranges buy is that an account moves to another shard with its ids
 * unchanged (clients keep them) and without clashing with the rows there, and that a log line's id is
 * unambiguous. Shard 0 starts at 1, so a database that held everything before shards keeps its ids.
 * 2^40 ids a shard and at most 64 shards stay within JavaScript's safe integers.
 *
 * SQLite's AUTOINCREMENT hands out one past the largest of the table's sequence and its rows, so raising
 * a table's `sqlite_sequence` entry to the range's start is all it takes; tables a later migration adds
 * get theirs when the next account is placed on the shard, or at the cron's next minute.
 */
import { sql } from "drizzle-orm";
import { type Database, type Statement, rawSql } from "./client";

export const IDS_PER_SHARD = 2 ** 40;

/** The first id shard `shard` gives out, less one. */
export const idRangeStart = (shard: number) => shard * IDS_PER_SHARD;

/** The statements that raise every AUTOINCREMENT table of `db` (shard `shard`) to its range; repeating them changes nothing. */
export function idRangeStatements(db: Database, shard: number): Statement[] {
  const start = idRangeStart(shard);
  if (start === 0) return [];
  return [
    rawSql(
      db,
      sql`INSERT INTO sqlite_sequence (name, seq) SELECT name, ${start} FROM sqlite_master
          WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%' AND name NOT IN (SELECT name FROM sqlite_sequence)`,
    ),
    rawSql(db, sql`UPDATE sqlite_sequence SET seq = ${start} WHERE seq < ${start}`),
  ];
}
