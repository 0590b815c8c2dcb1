/**
 * The cron trigger's work, every minute: wake snoozed conversations whose time has come; dispatch the
 * outbox rows no request got round to (the wake-ups' events among them) and those whose dispatch was
 * lost; hand out the conversations that waited for an inbox whose business hours began; re-send
 * deliveries whose queue message was lost, and the next step of contact imports and exports that
 * stopped moving; hand the mail waiting to be sent to the queue; delete contact exports older than 30 days; start the one-off campaigns whose time has come (and re-send runs that stopped
 * moving); prune consumed outbox rows, the delivery log
 * after 30 days, and old Idempotency-Key records; record each shard's size for placing new accounts;
 * roll back account moves whose mover stopped, and remove the rows moves left behind.
 */
import type { Database } from "../db/client";
import { connectDirectory, shardBinding } from "../db/connect";
import { CommitFrames } from "../feed/commit";
import { shardPool } from "../db/shards";
import { idRangeStatements } from "../db/id-ranges";
import { write } from "../domain/kernel/batch";
import { pruneIdempotencyKeys } from "../db/idempotency-keys";
import { wakeSnoozedConversations } from "../domain/conversations/snoozes";
import { resumeStalledImports } from "../domain/contacts/imports";
import { deleteExpiredExports, resumeStalledExports } from "../domain/contacts/exports";
import { startDueCampaigns } from "../domain/campaigns/runs";
import { dispatchPendingEvents, pruneOutbox } from "../events/dispatch";
import { pruneDeliveryLog, resendOverdueDeliveries } from "../webhooks/sweep";
import { jobScope } from "./scope";
import { finishPlacements, shardsInMoves } from "../domain/identity/accounts";
import { recordShardSize } from "../domain/identity/shard-stats";
import { announceOpenedInboxes } from "./auto-assignment";
import { recoverMoves } from "./account-move";
import { queuePendingEmails } from "./outgoing-email";

/** The minute's sweeps, in order: the wake-ups first, so that the dispatch after them sends their events. */
const SWEEPS: Array<[name: string, sweep: (db: Database, env: Env) => Promise<unknown>]> = [
  ["wake snoozed conversations", (db, env) => wakeSnoozedConversations(jobScope(db, env))],
  ["dispatch the outbox", (db, env) => dispatchPendingEvents(db, env.EVENTS, { includeStale: true })],
  ["announce opened inboxes", (db, env) => announceOpenedInboxes(db, env)],
  ["resend overdue deliveries", (db, env) => resendOverdueDeliveries(db, env)],
  ["resume stalled imports", (db, env) => resumeStalledImports(jobScope(db, env))],
  ["resume stalled exports", (db, env) => resumeStalledExports(jobScope(db, env))],
  ["delete expired exports", (db, env) => deleteExpiredExports(jobScope(db, env))],
  ["start due campaigns", (db, env) => startDueCampaigns(jobScope(db, env))],
  ["send pending mail", (db, env) => queuePendingEmails(db, env)],
  ["prune the outbox", (db) => pruneOutbox(db)],
  ["prune the delivery log", (db) => pruneDeliveryLog(db)],
  ["prune idempotency keys", (db) => pruneIdempotencyKeys(db)],
];

/** Per shard, before the sweeps: tables a migration added since the last account was placed get the shard's id range. */
const keepIdRange = (db: Database, shard: number) => write(db, idRangeStatements(db, shard));

/**
 * The directory's own sweeps: account creations and deletions cut short, and its Idempotency-Key records
 * (platform requests keep theirs there).
 */
const DIRECTORY_SWEEPS: Array<[name: string, sweep: (db: Database, env: Env) => Promise<unknown>]> = [
  ["finish account placements", (db, env) => finishPlacements(jobScope(db, env, db))],
  ["send pending mail", (db, env) => queuePendingEmails(db, env)],
  ["prune the directory's idempotency keys", (db) => pruneIdempotencyKeys(db)],
];

/** The shards' D1 bindings, as the mover takes them (moves exist only on D1: libSQL is one database). */
const movableShards = (env: Env, count: number) =>
  Array.from({ length: count }, (_, shard) => (env as unknown as Record<string, D1Database>)[shardBinding(shard)]);

/**
 * Runs every sweep on every shard (docs/shards.md), the shards side by side and each shard's sweeps in
 * order (a shard an account is moving from or to waits until the move ends), each whatever the others
 * did: one that fails (a database error) is logged, the rest still run, and the invocation fails at the
 * end so the failure shows in the Worker's metrics.
 */
export async function runScheduledWork(env: Env) {
  const directory = connectDirectory(env).db;
  const failures: unknown[] = [];
  const attempt = async (name: string, shard: number | null, sweep: () => Promise<unknown>) => {
    try {
      await sweep();
    } catch (error) {
      failures.push(error);
      console.error(JSON.stringify({ level: "error", cron: name, shard, error: String(error) }));
    }
  };
  // what the sweeps change (snoozed conversations waking up) is shown on the live feeds as it commits
  const frames = new CommitFrames(env);
  const shards = shardPool(env, directory, () => ({ writes: true, onCommit: frames.committed }));
  // first, so that an account whose mover died takes changes again, and its shards are swept, this minute
  if (!env.LIBSQL_URL) await attempt("recover account moves", null, () => recoverMoves({ directory: env.DIRECTORY, shards: movableShards(env, shards.count), log: (line) => console.log(JSON.stringify({ level: "info", cron: line })) }));
  const moving = await shardsInMoves(jobScope(directory, env, directory));
  await Promise.all([
    ...Array.from({ length: shards.count }, async (_, shard) => {
      if (moving.has(shard)) {
        console.log(JSON.stringify({ level: "info", cron: "an account is moving from or to this shard: its sweeps wait for the next minute", shard }));
        return;
      }
      const db = shards.open(shard);
      await attempt("keep the shard's id range", shard, () => keepIdRange(db, shard));
      // one tiny query: its answer carries the shard's size, which placement orders by
      await attempt("record the shard's size", shard, () => recordShardSize(jobScope(db, env, directory), shard));
      for (const [name, sweep] of SWEEPS) await attempt(name, shard, () => sweep(db, env));
    }),
    (async () => {
      for (const [name, sweep] of DIRECTORY_SWEEPS) await attempt(name, null, () => sweep(directory, env));
    })(),
  ]);
  await frames.settled();
  if (failures.length > 0) throw new AggregateError(failures, `${failures.length} of the cron's sweeps failed`);
}
