/**
 * Webhook fan-out, the first job of every event: one delivery per receiver fixed at the change (account
 * webhooks, the API inbox's callback, agent bots), each a row of the delivery log and a queue message.
 * A new notification is also pushed: one delivery per device of its user to the push relay, made,
 * signed, retried and logged by the same machinery.
 */
import { type Database, now } from "../db/client";
import type { OutboxEventRef, OutboxRow } from "../domain/kernel/outbox";
import { systemScope } from "../domain/kernel/scope";
import { pushRecipients } from "../domain/notifications/push";
import { type DeliveryMessage, type NewDelivery, insertDeliveries, messageFor } from "../webhooks/deliveries";
import { buildWebhookPayload } from "../webhooks/payloads";
import { pushBody } from "../webhooks/push";
import { type Target, eventWithTargets, liveEventTargets } from "../webhooks/targets";
import { jobScope } from "./scope";

/**
 * Creates the deliveries of one outbox event, one per target, and answers one queue message per new
 * delivery. An event nobody receives costs one read: no payload is built and no row is written.
 */
export async function fanOut(db: Database, env: Env, ref: OutboxEventRef, at = now()): Promise<DeliveryMessage[]> {
  const found = await eventWithTargets(db, ref);
  if (!found) return [];
  const webhookMessages = await createDeliveries(db, env, found.event, found.targets, at);
  const pushes = await pushDeliveries(db, env, found.event);
  const pushMessages = (await insertDeliveries(db, pushes, at)).map((row) => messageFor(row));
  return [...webhookMessages, ...pushMessages];
}

/**
 * The pushes of an event: for a `notification_created`, while a relay is configured, one delivery per
 * device its user registered (when the user's push flag for its type is on), each with its own body.
 * Nothing is read for any other event, or without a relay.
 */
export async function pushDeliveries(db: Database, env: Env, event: OutboxRow): Promise<NewDelivery[]> {
  if (event.eventName !== "notification_created" || !env.PUSH_RELAY_URL) return [];
  const recipients = await pushRecipients(systemScope(jobScope(db, env), event.accountId), event.subjectId);
  if (!recipients) return [];
  return recipients.subscriptions.map((subscription) => ({
    accountId: event.accountId,
    targetType: "push",
    targetId: subscription.id,
    eventId: event.id,
    eventName: event.eventName,
    subjectType: event.subjectType,
    subjectId: event.subjectId,
    body: JSON.stringify(pushBody(recipients, subscription, env.FRONTEND_URL)),
    dedupeKey: `event:${event.id}:push:${subscription.id}`,
  }));
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
