/**
 * Webhook fan-out, the first job of every event: one delivery per receiver fixed at the change (account
 * webhooks, the API inbox's callback, agent bots), each a row of the delivery log and a queue message.
 */
import { type Database, now } from "../db/client";
import type { OutboxRow } from "../domain/kernel/outbox";
import { type DeliveryMessage, insertDeliveries, messageFor } from "../webhooks/deliveries";
import { buildWebhookPayload } from "../webhooks/payloads";
import { type Target, eventWithTargets, liveEventTargets } from "../webhooks/targets";

/**
 * Creates the deliveries of one outbox event, one per target, and answers one queue message per new
 * delivery. An event nobody receives costs one read: no payload is built and no row is written.
 */
export async function fanOut(db: Database, env: Env, eventId: number, at = now()): Promise<DeliveryMessage[]> {
  const found = await eventWithTargets(db, eventId);
  if (!found) return [];
  return createDeliveries(db, env, found.event, found.targets, at);
}

/** The fan-out of a live event (one with no outbox row, src/events/live.ts), which carries its whole row. */
export async function fanOutLiveEvent(db: Database, env: Env, event: OutboxRow, at = now()): Promise<DeliveryMessage[]> {
  return createDeliveries(db, env, event, await liveEventTargets(db, event), at);
}

async function createDeliveries(db: Database, env: Env, event: OutboxRow, targets: Target[], at: number): Promise<DeliveryMessage[]> {
  if (targets.length === 0) return [];
  const payload = await buildWebhookPayload(db, env, event);
  if (!payload) return []; // the subject is gone: nothing true to say about it
  const body = JSON.stringify(payload);
  const inserted = await insertDeliveries(
    db,
    targets.map((target) => ({
      accountId: event.accountId,
      targetType: target.type,
      targetId: target.id,
      eventId: event.id,
      eventName: event.eventName,
      subjectType: event.subjectType,
      subjectId: event.subjectId,
      body,
      dedupeKey: `event:${event.id}:${target.type}:${target.id}`,
    })),
    at,
  );
  return inserted.map((row) => messageFor(row));
}
