/**
 * Account webhooks: fan-out of one outbox event to the webhooks subscribed to it, and the delivery of
 * each copy with retries. Both steps are safe to repeat, because queues deliver at least once:
 * - fan-out inserts at most one delivery per (event, webhook) and re-enqueues the ones still pending;
 * - a delivery that is no longer pending is skipped.
 */
import { and, eq } from "drizzle-orm";
import { type Database, now, schema } from "../db/client";
import { buildWebhookPayload } from "../events/payloads";
import { type AttemptOutcome, postWebhook } from "./post";
import { isForbiddenTarget, targetPolicy } from "./target-url";

const { eventOutbox, webhooks, webhookDeliveries } = schema;

/** Attempts per delivery, and the wait before each retry (seconds): about 17 hours in all. */
export const RETRY_DELAYS_S = [10, 60, 5 * 60, 30 * 60, 2 * 60 * 60, 6 * 60 * 60, 8 * 60 * 60];
export const MAX_ATTEMPTS = RETRY_DELAYS_S.length + 1;

export type DeliveryMessage = { kind: "delivery"; deliveryId: number; accountId: number };

/** Creates the deliveries of one event and returns the messages to enqueue for those still pending. */
export async function fanOut(db: Database, env: Env, eventId: number): Promise<DeliveryMessage[]> {
  const [events] = await db.batch([db.select().from(eventOutbox).where(eq(eventOutbox.id, eventId))]);
  const event = events[0];
  if (!event) return [];
  const [accountWebhooks] = await db.batch([
    db
      .select({ id: webhooks.id, subscriptions: webhooks.subscriptions })
      .from(webhooks)
      .where(and(eq(webhooks.accountId, event.accountId), eq(webhooks.webhookType, 0))),
  ]);
  const targets = accountWebhooks.filter((w) => w.subscriptions.includes(event.eventName));
  if (targets.length === 0) return [];

  const payload = await buildWebhookPayload(db, env, event);
  if (!payload) return []; // the subject is gone: nothing true to say about it
  const body = JSON.stringify(payload);
  const at = now();
  const [, pending] = await db.batch([
    db
      .insert(webhookDeliveries)
      .values(
        targets.map((w) => ({
          accountId: event.accountId,
          webhookId: w.id,
          eventId: event.id,
          eventName: event.eventName,
          deliveryUuid: crypto.randomUUID(),
          body,
          createdAt: at,
          updatedAt: at,
        })),
      )
      .onConflictDoNothing(),
    db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.eventId, event.id), eq(webhookDeliveries.status, "pending"))),
  ]);
  return pending.map((d) => ({ kind: "delivery", deliveryId: d.id, accountId: event.accountId }));
}

export type DeliveryStep = { done: true } | { done: false; retryInSeconds: number };

/** One attempt at a pending delivery; records the outcome and says whether to try again. */
export async function attemptDelivery(db: Database, env: Env, deliveryId: number, fetcher?: typeof fetch): Promise<DeliveryStep> {
  const [deliveries] = await db.batch([db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId))]);
  const delivery = deliveries[0];
  if (!delivery || delivery.status !== "pending") return { done: true };
  const [hooks] = await db.batch([
    db
      .select({ url: webhooks.url, secret: webhooks.secret })
      .from(webhooks)
      .where(and(eq(webhooks.id, delivery.webhookId), eq(webhooks.accountId, delivery.accountId))),
  ]);
  const hook = hooks[0];
  if (!hook) {
    await record(db, delivery.id, delivery.attempts, "cancelled", { result: "rejected", status: null, error: "the webhook was deleted" });
    return { done: true };
  }
  // Checked again at delivery: the rule may have tightened since the URL was saved.
  const outcome: AttemptOutcome = isForbiddenTarget(hook.url, targetPolicy(env))
    ? { result: "rejected", status: null, error: "the URL points at a private or local address" }
    : await postWebhook({ url: hook.url, secret: hook.secret, deliveryUuid: delivery.deliveryUuid, body: delivery.body }, fetcher);

  const attempts = delivery.attempts + 1;
  if (outcome.result === "delivered") {
    await record(db, delivery.id, attempts, "delivered", outcome);
    return { done: true };
  }
  if (outcome.result === "rejected" || attempts >= MAX_ATTEMPTS) {
    await record(db, delivery.id, attempts, "failed", outcome);
    return { done: true };
  }
  await record(db, delivery.id, attempts, "pending", outcome);
  return { done: false, retryInSeconds: RETRY_DELAYS_S[attempts - 1] };
}

function record(db: Database, id: number, attempts: number, status: string, outcome: AttemptOutcome) {
  return db.batch([
    db
      .update(webhookDeliveries)
      .set({ status, attempts, lastStatusCode: outcome.status, lastError: outcome.error, updatedAt: now() })
      .where(eq(webhookDeliveries.id, id)),
  ]);
}

