/**
 * The databases of a request or a background job (docs/shards.md): the directory, which holds what
 * spans accounts, and the shard that holds one account's rows. On D1 each is its own binding (DIRECTORY,
 * SHARD_00 … SHARD_nn); with the LIBSQL_URL secret set (and LIBSQL_AUTH_TOKEN), one libSQL server is the
 * directory and the only shard at once.
 *
 * On D1 every connection is a session (`withSession`), so reads may be served by a read replica near
 * the Worker. A shard session that starts from a bookmark (the `x-d1-bookmark` header of an earlier
 * answer, which names its shard) reads at least what that answer had written; without one, reads may go
 * to any replica, and changing requests start at the primary, whose reads are current (what a change
 * checks before it writes). The directory is always read at its primary: a key made a moment ago must
 * work on the next request, wherever it lands. Taking a session and its bookmark costs no round trip.
 */
import { createClient } from "@libsql/client/web";
import { type Database, createDb, createLibsqlDb } from "./client";
import { type CommittedEvent, FirstWriteRider, QueryMeter, meterD1, meterLibsql } from "./metering";

export type Connection = {
  db: Database;
  /** the D1 session's bookmark after the calls so far; null on libSQL (one primary, always current) */
  bookmark: () => string | null;
  /**
   * Statements that join the first batch that writes (the Idempotency-Key claim, src/http/idempotency.ts);
   * D1 only, null on libSQL, where requests go through without one.
   */
  rider: FirstWriteRider | null;
};

/** Hears of the outbox rows of each batch the connection `db` has committed (src/feed/commit.ts shows them live). */
export type OnCommit = (db: Database, events: CommittedEvent[]) => void;

export type ConnectOptions = { meter?: QueryMeter; bookmark?: string | null; writes?: boolean; rider?: FirstWriteRider; onCommit?: OnCommit };

/** The largest pool `npm start -- --shards N` and the deploy take (two digits in the binding's name). */
export const MAX_SHARDS = 64;

const SHARD_BINDING = /^SHARD_(\d{2})$/;

/** The binding name of shard `n`: SHARD_00, SHARD_01, … */
export const shardBinding = (n: number) => `SHARD_${String(n).padStart(2, "0")}`;

/**
 * How many shards this Worker has: the SHARD_nn bindings present, numbered from 00 without gaps (a gap
 * ends the pool, so a missing binding can never shift accounts onto the wrong database). libSQL is one.
 */
export function shardCount(env: Env): number {
  let count = counted.get(env);
  if (count === undefined) {
    count = env.LIBSQL_URL ? 1 : countShardBindings(env as unknown as Record<string, unknown>);
    counted.set(env, count);
  }
  return count;
}

/** Counted once per environment object: requests, queue messages and bookmarks all ask. */
const counted = new WeakMap<Env, number>();

function countShardBindings(bindings: Record<string, unknown>): number {
  const present = new Set(Object.keys(bindings).filter((name) => SHARD_BINDING.test(name) && bindings[name]));
  let count = 0;
  while (count < MAX_SHARDS && present.has(shardBinding(count))) count += 1;
  return count;
}

/** True when `shard` names a shard of this Worker; anything else (from a header, a queue message) is refused. */
export const isShard = (env: Env, shard: unknown): shard is number => Number.isInteger(shard) && (shard as number) >= 0 && (shard as number) < shardCount(env);

/** D1 bookmarks are short tokens of hex digits and dashes; anything else is ignored, not sent to D1. */
const BOOKMARK = /^[0-9a-f-]{1,128}$/i;

/** The listener of `onCommit` for the connection `db()` will answer (the database wraps the metered client). */
const listener = (onCommit: OnCommit | undefined, db: () => Database) => onCommit && ((events: CommittedEvent[]) => onCommit(db(), events));

function libsqlConnection(env: Env, meter: QueryMeter, onCommit?: OnCommit): Connection {
  const client = createClient({ url: env.LIBSQL_URL!, authToken: env.LIBSQL_AUTH_TOKEN });
  const db: Database = createLibsqlDb(meterLibsql(client, meter, listener(onCommit, () => db)));
  return { db, bookmark: () => null, rider: null };
}

function d1Connection(d1: D1Database, start: string, meter: QueryMeter, rider: FirstWriteRider, onCommit?: OnCommit): Connection {
  const session = meterD1(d1.withSession(start), meter, rider, listener(onCommit, () => db));
  const db = createDb(session);
  return { db, bookmark: () => session.getBookmark(), rider };
}

/** The directory, at its primary. */
export function connectDirectory(env: Env, options: ConnectOptions = {}): Connection {
  const meter = options.meter ?? new QueryMeter();
  if (env.LIBSQL_URL) return libsqlConnection(env, meter, options.onCommit);
  return d1Connection(env.DIRECTORY, "first-primary", meter, options.rider ?? new FirstWriteRider(), options.onCommit);
}

/** Shard `shard` (which the caller has checked with `isShard`), from `bookmark` when one is given. */
export function connectShard(env: Env, shard: number, options: ConnectOptions = {}): Connection {
  const meter = options.meter ?? new QueryMeter();
  if (env.LIBSQL_URL) return libsqlConnection(env, meter, options.onCommit);
  if (!isShard(env, shard)) throw new Error(`no shard ${shard} in this Worker (it has ${shardCount(env)})`);
  const d1 = (env as unknown as Record<string, D1Database>)[shardBinding(shard)];
  const given = options.bookmark && BOOKMARK.test(options.bookmark) ? options.bookmark : null;
  return d1Connection(d1, given ?? (options.writes ? "first-primary" : "first-unconstrained"), meter, options.rider ?? new FirstWriteRider(), options.onCommit);
}
