/**
 * Where an account's rows live (docs/shards.md). The directory's `accounts.shard` names the shard; this
 * isolate keeps what it read for a short while, so background jobs and public requests, which find the
 * account by something other than a key, do not ask the directory each time. Authenticated requests
 * never use the cache: their one directory batch reads the placement fresh along with the key.
 *
 * A move (src/jobs/account-move.ts) must take effect at once, not after a cache's lifetime: a change
 * trusts a cached placement PLACEMENT_WRITE_TTL_MS at most (the mover waits that long after marking the
 * account moving, before it copies), and a placement that says "moving" is never trusted from the cache,
 * so the end of a move, its version bumped, is seen by the next request or queue message.
 */
import { eq } from "drizzle-orm";
import { type Database, schema } from "./client";
import { type ConnectOptions, type Connection, connectShard, isShard, shardCount } from "./connect";
import { SHARD_STATUS } from "./shard-status";

export type Placement = { accountId: number; shard: number; status: number; version: number };

/** The shard databases, as a scope carries them: opened on first use, one connection per shard. */
export type Shards = {
  count: number;
  /** true when the directory is the only shard (one libSQL database): identity rows need no copies */
  sharedWithDirectory: boolean;
  /** the database of shard `shard` (a number `isShard` accepted) */
  open(shard: number): Database;
  /**
   * the account's placement, or null for an account the directory does not know; `writes` for a caller
   * that will change the account's rows (it trusts the cache for less time)
   */
  placementOf(accountId: number, options?: { writes?: boolean }): Promise<Placement | null>;
  /** the database of the account's shard, to change its rows; null for an account the directory does not know */
  ofAccount(accountId: number): Promise<Database | null>;
};

/** How long a placement read from the directory is trusted for reads; a move keeps the old shard's rows this long after its mark. */
export const PLACEMENT_TTL_MS = 30_000;
/** How long it is trusted by a caller that writes; a move waits a little more than this before it copies. */
export const PLACEMENT_WRITE_TTL_MS = 2_000;

const cached = new Map<number, Placement & { readAt: number }>();
/** At most this many placements are kept: an isolate's memory does not grow with the number of accounts. */
const PLACEMENTS_KEPT = 50_000;

/** Drops the cached placement of `accountId` (the account moved or went away). */
export const forgetPlacement = (accountId: number) => void cached.delete(accountId);

/** Reads (or recalls) where `accountId` lives; `writes` for a caller that will change the account's rows. */
export async function readPlacement(directory: Database, accountId: number, { writes = false } = {}): Promise<Placement | null> {
  const hit = cached.get(accountId);
  if (hit && hit.status === SHARD_STATUS.active && Date.now() - hit.readAt < (writes ? PLACEMENT_WRITE_TTL_MS : PLACEMENT_TTL_MS)) return hit;
  const { accounts } = schema;
  const [rows] = await directory.batch([
    directory
      .select({ accountId: accounts.id, shard: accounts.shard, status: accounts.shardStatus, version: accounts.shardVersion })
      .from(accounts)
      .where(eq(accounts.id, accountId)),
  ]);
  const placement = rows[0] ?? null;
  if (cached.size >= PLACEMENTS_KEPT) cached.clear();
  if (placement && placement.status !== SHARD_STATUS.provisioning) cached.set(accountId, { ...placement, readAt: Date.now() });
  else cached.delete(accountId);
  return placement;
}

/** One database that is the directory and the only shard at once (a libSQL database outside a Worker). */
export function singleDatabase(db: Database): Shards {
  return {
    count: 1,
    sharedWithDirectory: true,
    open: () => db,
    placementOf: (accountId, options) => readPlacement(db, accountId, options),
    ofAccount: async () => db,
  };
}

/**
 * A pool over this Worker's shards that opens each connection once, with `options` (the request's meter,
 * its bookmark for the shard the bookmark names).
 */
export function shardPool(env: Env, directory: Database, options: (shard: number) => ConnectOptions = () => ({})): Shards & { connections: Map<number, Connection> } {
  const connections = new Map<number, Connection>();
  const open = (shard: number) => {
    let connection = connections.get(shard);
    if (!connection) {
      connection = connectShard(env, shard, options(shard));
      connections.set(shard, connection);
    }
    return connection.db;
  };
  const placementOf = (accountId: number, options?: { writes?: boolean }) => readPlacement(directory, accountId, options);
  return {
    count: shardCount(env),
    sharedWithDirectory: Boolean(env.LIBSQL_URL),
    connections,
    open,
    placementOf,
    async ofAccount(accountId) {
      // its callers change the account's rows there
      const placement = await placementOf(accountId, { writes: true });
      return placement && isShard(env, placement.shard) ? open(placement.shard) : null;
    },
  };
}
