/**
 * Moves outbox rows to the events queue. Runs after each response that wrote events (in `waitUntil`,
 * so the client does not wait) and every minute from the cron trigger. Delivery is at least once:
 * - a dispatch claims its rows (one UPDATE ... RETURNING, so two dispatches never send the same row)
 *   and then sends them; if the send fails, the claim is released;
 * - the consumer marks a row consumed once every consumer is done with it, so a row dispatched long ago
 *   and still not consumed was lost on the way (a Worker killed between claim and send): the cron
 *   sends it again. Consumed rows are deleted by the cron after a short while (`pruneOutbox`).
 * Consumers tolerate seeing an event twice.
 */
import { type SQL, and, asc, eq, inArray, isNotNull, isNull, lt } from "drizzle-orm";
import { type Database, now, schema } from "../db/client";
import { batch } from "../domain/kernel/batch";
import type { OutboxEventRef } from "../domain/kernel/outbox";

const { eventOutbox } = schema;

/**
 * How many outbox rows one dispatch moves: the queue takes 100 messages per sendBatch, and the update
 * binds few parameters.
 */
const DISPATCH_LIMIT = 90;
/** A dispatched row not consumed after this long is sent again by the cron. */
export const REDISPATCH_AFTER_MS = 5 * 60 * 1000;

/**
 * An outbox row on the queue; its name and subject let a job that wants a few events act on them, and skip
 * the others, without reading the row (messages queued before they were added carry only the id).
 */
export type EventMessage = { kind: "event"; eventId: number; accountId: number; eventName?: string; subjectType?: string; subjectId?: number };

/**
 * Claims the due rows and sends them to the queue; answers how many were sent. Rows never dispatched and
 * (with `includeStale`, the cron's) rows lost on the way are two claims of one batch, the new ones first.
 * The live feeds were shown each row when its batch committed (src/feed/commit.ts): a dispatch shows
 * nothing, so none repeats on a feed.
 */
export async function dispatchPendingEvents(db: Database, queue: Queue, options: { includeStale?: boolean; at?: number } = {}): Promise<number> {
  const at = options.at ?? now();
  const claim = (due: SQL | undefined) =>
    db
      .update(eventOutbox)
      .set({ dispatchedAt: at })
      .where(inArray(eventOutbox.id, db.select({ id: eventOutbox.id }).from(eventOutbox).where(due).orderBy(asc(eventOutbox.id)).limit(DISPATCH_LIMIT)))
      .returning();
  const stale = and(lt(eventOutbox.dispatchedAt, at - REDISPATCH_AFTER_MS), isNull(eventOutbox.consumedAt));
  const [fresh, resent = []] = await batch(db, options.includeStale ? [claim(isNull(eventOutbox.dispatchedAt)), claim(stale)] : [claim(isNull(eventOutbox.dispatchedAt))]);
  const claimed = [...fresh, ...resent];
  if (claimed.length === 0) return 0;
  try {
    for (let i = 0; i < claimed.length; i += DISPATCH_LIMIT) {
      const rows = claimed.slice(i, i + DISPATCH_LIMIT);
      await queue.sendBatch(rows.map((row) => ({ body: { kind: "event", eventId: row.id, accountId: row.accountId, eventName: row.eventName, subjectType: row.subjectType, subjectId: row.subjectId } satisfies EventMessage })));
    }
  } catch (error) {
    await batch(db, [db.update(eventOutbox).set({ dispatchedAt: null }).where(inArray(eventOutbox.id, claimed.map((row) => row.id)))]);
    throw error;
  }
  return claimed.length;
}

/** Marks outbox rows every consumer is done with. */
export async function markConsumed(db: Database, events: OutboxEventRef[], at = now()): Promise<void> {
  if (events.length === 0) return;
  // one statement per account: an id alone may name another account's row once ids are unique per shard only
  const byAccount = new Map<number, number[]>();
  for (const { accountId, eventId } of events) byAccount.set(accountId, [...(byAccount.get(accountId) ?? []), eventId]);
  await batch(
    db,
    [...byAccount].map(([accountId, ids]) => db.update(eventOutbox).set({ consumedAt: at }).where(and(eq(eventOutbox.accountId, accountId), inArray(eventOutbox.id, ids)))),
  );
}

/** How long a consumed row stays (a late duplicate message still finds it, and so does a person looking). */
export const OUTBOX_RETENTION_MS = 10 * 60 * 1000;
const PRUNE_LIMIT = 1000;

/** Deletes rows consumed a while ago: the outbox holds only what is on its way, plus a few minutes. */
export async function pruneOutbox(db: Database, at = now()): Promise<number> {
  const [deleted] = await batch(db, [
    db
      .delete(eventOutbox)
      .where(
        inArray(
          eventOutbox.id,
          db
            .select({ id: eventOutbox.id })
            .from(eventOutbox)
            .where(and(isNotNull(eventOutbox.consumedAt), lt(eventOutbox.consumedAt, at - OUTBOX_RETENTION_MS)))
            .limit(PRUNE_LIMIT),
        ),
      )
      .returning({ id: eventOutbox.id }),
  ]);
  return deleted.length;
}
