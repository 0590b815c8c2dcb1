/** The delivery side of the minute cron: nothing lost, and a log that does not grow without bound. */
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import { type Database, now, schema } from "../db/client";
import { batch } from "../domain/kernel/batch";
import { type DeliveryMessage, sendDeliveryMessages } from "./deliveries";
import { DAY } from "./schedule";

const { webhookDeliveries, webhookDeliveryAttempts } = schema;

/** A pending delivery this late has lost its queue message (its Worker died mid-attempt, or the send failed). */
export const OVERDUE_AFTER_MS = 2 * 60 * 1000;
export const LOG_RETENTION_MS = 30 * DAY;
const SWEEP_LIMIT = 100;
const PRUNE_LIMIT = 500;

/** Sends a message for each overdue delivery; a copy that meets a live message makes one attempt. */
export async function resendOverdueDeliveries(db: Database, env: Env, at = now(), overdueAfterMs = OVERDUE_AFTER_MS): Promise<number> {
  const [overdue] = await batch(db, [
    db
      .select({ id: webhookDeliveries.id, accountId: webhookDeliveries.accountId, attempts: webhookDeliveries.attempts })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.status, "pending"), lt(webhookDeliveries.nextAttemptAt, at - overdueAfterMs + 1)))
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(SWEEP_LIMIT),
  ]);
  await sendDeliveryMessages(
    env.EVENTS,
    overdue.map((row): DeliveryMessage => ({ kind: "delivery", deliveryId: row.id, accountId: row.accountId, attempt: row.attempts })),
  );
  return overdue.length;
}

/** Deletes deliveries (and their attempts) untouched for 30 days; pending ones are touched at every attempt. */
export async function pruneDeliveryLog(db: Database, at = now()): Promise<number> {
  const old = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(lt(webhookDeliveries.updatedAt, at - LOG_RETENTION_MS), sql`${webhookDeliveries.status} <> 'pending'`))
    .orderBy(asc(webhookDeliveries.updatedAt))
    .limit(PRUNE_LIMIT);
  const [, deleted] = await batch(db, [
    db.delete(webhookDeliveryAttempts).where(inArray(webhookDeliveryAttempts.deliveryId, old)),
    db.delete(webhookDeliveries).where(inArray(webhookDeliveries.id, old)).returning({ id: webhookDeliveries.id }),
  ]);
  return deleted.length;
}
