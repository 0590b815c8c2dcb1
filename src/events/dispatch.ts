/**
 * Moves outbox rows to the events queue. Runs after each response that may have written events (in
 * `waitUntil`, so the client does not wait) and every minute from the cron trigger, which picks up
 * anything a failed `waitUntil` left behind. Delivery is at least once: a row is marked dispatched only
 * after the queue has accepted it, and consumers tolerate seeing an event twice.
 */
import { asc, inArray, isNull } from "drizzle-orm";
import { type Database, now, schema } from "../db/client";

const { eventOutbox } = schema;

/**
 * How many outbox rows one dispatch moves: the queue takes 100 messages per sendBatch, and the update
 * binds one parameter per id plus the time, within D1's 100 parameters per statement.
 */
const DISPATCH_LIMIT = 90;

export type EventMessage = { kind: "event"; eventId: number; accountId: number };

export async function dispatchPendingEvents(db: Database, queue: Queue): Promise<number> {
  const [pending] = await db.batch([
    db
      .select({ id: eventOutbox.id, accountId: eventOutbox.accountId })
      .from(eventOutbox)
      .where(isNull(eventOutbox.dispatchedAt))
      .orderBy(asc(eventOutbox.id))
      .limit(DISPATCH_LIMIT),
  ]);
  if (pending.length === 0) return 0;
  await queue.sendBatch(pending.map((row) => ({ body: { kind: "event", eventId: row.id, accountId: row.accountId } })));
  await db.batch([
    db
      .update(eventOutbox)
      .set({ dispatchedAt: now() })
      .where(inArray(eventOutbox.id, pending.map((row) => row.id))),
  ]);
  return pending.length;
}
