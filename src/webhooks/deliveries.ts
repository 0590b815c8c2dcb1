/**
 * Deliveries: one payload to one target, attempted until delivered, refused, or out of its 3-day window.
 * Queues deliver at least once, so every step is safe to repeat:
 * - a delivery is created once per dedupe key (the event and target for fan-out), so its id, sent as
 *   `X-Chatwoot-Delivery` and `webhook-id`, is the same on every attempt and every duplicate message;
 * - a queue message names the attempt it is for (`attempt` = attempts made before it); an attempt is
 *   claimed by a conditional update on that number, so a message that arrives twice makes one attempt;
 * - a wait longer than a queue's 12-hour delay limit is made of several hops of the same message;
 * - the minute sweep (sweep.ts) re-sends overdue deliveries whose message was lost.
 * Fan-out (one delivery per receiver of an event) and what a final failure changes are the queue's jobs
 * (src/jobs/fan-out.ts, src/jobs/deliveries.ts).
 */
import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import { type Database, now, schema } from "../db/client";
import { chunks } from "../db/chunks";
import { batch } from "../domain/kernel/batch";
import { type AttemptOutcome, postDelivery } from "./post";
import { isUsableSecret } from "./signing";
import { RETRY_WINDOW_MS, hopDelaySeconds, nextAttemptAt } from "./schedule";
import { FORBIDDEN_TARGET_MESSAGE, isForbiddenTarget, targetPolicy } from "../domain/kernel/target-url";
import { type TargetType, pushDeviceRegistered, targetQueries } from "./targets";
import { connectDirectory } from "../db/connect";

const { webhooks, webhookDeliveries, webhookDeliveryAttempts } = schema;

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptTrigger = "automatic" | "redelivery";
export type DeliveryMessage = { kind: "delivery"; deliveryId: number; accountId: number; attempt: number; trigger?: AttemptTrigger };

/** Queue messages per sendBatch (the queue's limit). */
const SEND_BATCH = 100;

export async function sendDeliveryMessages(queue: Queue, messages: DeliveryMessage[], delaySeconds = 0): Promise<void> {
  for (const part of chunks(messages, SEND_BATCH)) {
    await queue.sendBatch(part.map((body) => ({ body, ...(delaySeconds > 0 && { delaySeconds }) })));
  }
}

export const messageFor = (row: Pick<DeliveryRow, "id" | "accountId" | "attempts">, trigger?: AttemptTrigger): DeliveryMessage => ({
  kind: "delivery",
  deliveryId: row.id,
  accountId: row.accountId,
  attempt: row.attempts,
  ...(trigger && { trigger }),
});

export type NewDelivery = {
  accountId: number;
  targetType: TargetType;
  targetId: number;
  eventId: number;
  eventName: string;
  subjectType?: string | null;
  subjectId?: number | null;
  body: string;
  dedupeKey: string | null;
  url?: string | null;
  secret?: string | null;
};

/** Columns bound per inserted row: the rows of one insert stay within D1's 100 parameters. */
const ROWS_PER_INSERT = 6;

/** Inserts the deliveries (those whose dedupe key is new) and answers the inserted rows. */
export async function insertDeliveries(db: Database, rows: NewDelivery[], at: number): Promise<Array<Pick<DeliveryRow, "id" | "accountId" | "attempts">>> {
  if (rows.length === 0) return [];
  const statements = chunks(rows, ROWS_PER_INSERT).map((part) =>
    db
      .insert(webhookDeliveries)
      .values(
        part.map((row) => ({
          ...row,
          deliveryUuid: crypto.randomUUID(),
          nextAttemptAt: at,
          retryUntil: at + RETRY_WINDOW_MS,
          createdAt: at,
          updatedAt: at,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: webhookDeliveries.id, accountId: webhookDeliveries.accountId, attempts: webhookDeliveries.attempts }),
  );
  return (await batch(db, statements)).flat();
}

/**
 * Enqueues a signed, retried and logged delivery of `payload` to `url` for an account: what an
 * automation rule's `send_webhook_event` action calls. `dedupeKey` (e.g. rule, action and event) makes
 * a repeated call answer the first delivery instead of making a second one. Without a secret the
 * delivery carries its id but no signature.
 */
export async function enqueueWebhookDelivery(
  db: Database,
  env: Env,
  input: { accountId: number; url: string; payload: unknown; eventName: string; secret?: string | null; dedupeKey?: string; eventId?: number },
  at = now(),
): Promise<{ deliveryId: number; deliveryUuid: string } | null> {
  const dedupeKey = input.dedupeKey ? `url:${input.accountId}:${input.dedupeKey}` : null;
  const inserted = await insertDeliveries(
    db,
    [
      {
        accountId: input.accountId,
        targetType: "url",
        targetId: 0,
        eventId: input.eventId ?? 0,
        eventName: input.eventName,
        body: JSON.stringify(input.payload),
        dedupeKey,
        url: input.url,
        secret: input.secret ?? null,
      },
    ],
    at,
  );
  if (inserted.length > 0) await sendDeliveryMessages(env.EVENTS, inserted.map((row) => messageFor(row)));
  const [rows] = await batch(db, [
    db
      .select({ id: webhookDeliveries.id, uuid: webhookDeliveries.deliveryUuid })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.accountId, input.accountId), inserted.length > 0 ? eq(webhookDeliveries.id, inserted[0].id) : eq(webhookDeliveries.dedupeKey, dedupeKey ?? ""))),
  ]);
  return rows[0] ? { deliveryId: rows[0].id, deliveryUuid: rows[0].uuid } : null;
}

/** What the consumer does with a delivery message after its step. */
export type DeliveryStep = { done: true } | { done: false; next: DeliveryMessage; delaySeconds: number };

/** An attempt's step, and the delivery it failed for good (null unless this attempt was its last). */
export type AttemptResult = { step: DeliveryStep; finalFailure: { delivery: DeliveryRow; outcome: AttemptOutcome; at: number } | null };

export type AttemptOptions = { fetcher?: typeof fetch; at?: number; random?: () => number };

/**
 * Handles one delivery message: makes the attempt it stands for when it is due, or waits another hop
 * when it is not, or drops it when another copy has already made the attempt.
 */
export async function makeAttempt(db: Database, env: Env, message: DeliveryMessage, options: AttemptOptions = {}): Promise<AttemptResult> {
  const at = options.at ?? now();
  const claimable = and(
    eq(webhookDeliveries.accountId, message.accountId),
    eq(webhookDeliveries.id, message.deliveryId),
    eq(webhookDeliveries.status, "pending"),
    eq(webhookDeliveries.attempts, message.attempt),
    or(isNull(webhookDeliveries.nextAttemptAt), lte(webhookDeliveries.nextAttemptAt, at)),
  );
  // One round trip: claim the attempt, and read the delivery and its target.
  const [claimed, rows, hookRows, inboxRows, botRows] = await batch(db, [
    db
      .update(webhookDeliveries)
      .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, lastAttemptAt: at, updatedAt: at })
      .where(claimable)
      .returning({ id: webhookDeliveries.id }),
    db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.accountId, message.accountId), eq(webhookDeliveries.id, message.deliveryId))),
    ...targetQueries(db, message.accountId, message.deliveryId),
  ]);
  const delivery = rows[0];
  if (!delivery) return { step: { done: true }, finalFailure: null };
  if (claimed.length === 0) {
    // Not this message's turn: either another copy made (or is making) the attempt, or it is early.
    const early = delivery.status === "pending" && delivery.attempts === message.attempt && delivery.nextAttemptAt !== null && delivery.nextAttemptAt > at;
    const step: DeliveryStep = early ? { done: false, next: message, delaySeconds: hopDelaySeconds(delivery.nextAttemptAt!, at) } : { done: true };
    return { step, finalFailure: null };
  }
  const attempts = delivery.attempts; // already counts this attempt
  const hook = hookRows[0];
  const deviceRegistered = delivery.targetType === "push" && (await pushDeviceRegistered(connectDirectory(env).db, delivery));
  const target =
    delivery.targetType === "url"
      ? { url: delivery.url, secret: delivery.secret }
      : delivery.targetType === "webhook"
        ? hook
        : delivery.targetType === "api_inbox"
          ? inboxRows[0]
          : delivery.targetType === "push"
            ? deviceRegistered ? { url: env.PUSH_RELAY_URL || null, secret: env.PUSH_RELAY_SECRET || null } : undefined
            : botRows[0];

  let outcome: AttemptOutcome;
  const refused = (error: string): AttemptOutcome => ({ result: "rejected", status: null, error, durationMs: 0, responseBody: null, retryAfterSeconds: null });
  if (delivery.targetType === "push" && !target) outcome = refused("the device is no longer registered to the notification's user");
  else if (delivery.targetType === "push" && !target?.url) outcome = refused("no push relay is configured (PUSH_RELAY_URL)");
  else if (!target || !target.url) outcome = refused(`the ${delivery.targetType.replace("_", " ")} no longer exists or has no URL`);
  else if (hook?.disabledAt) outcome = refused(`the webhook is disabled: ${hook.disabledReason ?? "no reason recorded"}`);
  // Checked again at delivery: the rule may have tightened since the URL was saved.
  else if (isForbiddenTarget(target.url, targetPolicy(env))) outcome = refused(`the URL ${FORBIDDEN_TARGET_MESSAGE}`);
  else if (target.secret && !isUsableSecret(target.secret)) outcome = refused("the signing secret is not base64 (PUSH_RELAY_SECRET; an optional whsec_ prefix aside)");
  else outcome = await postDelivery({ url: target.url, secret: target.secret ?? null, deliveryUuid: delivery.deliveryUuid, body: delivery.body }, options.fetcher, at);

  const next = outcome.result === "retry" ? nextAttemptAt({ attempts, at, retryUntil: delivery.retryUntil, retryAfterSeconds: outcome.retryAfterSeconds }, options.random) : null;
  const status = outcome.result === "delivered" ? "delivered" : next !== null ? "pending" : !target ? "cancelled" : "failed";
  await batch(db, [
    db
      .update(webhookDeliveries)
      .set({ status, lastStatusCode: outcome.status, lastError: outcome.error, nextAttemptAt: next, updatedAt: at })
      .where(and(eq(webhookDeliveries.accountId, delivery.accountId), eq(webhookDeliveries.id, delivery.id))),
    db.insert(webhookDeliveryAttempts).values({
      accountId: delivery.accountId,
      deliveryId: delivery.id,
      attemptedAt: at,
      outcome: outcome.result === "delivered" ? "delivered" : next !== null ? "retry" : "failed",
      statusCode: outcome.status,
      durationMs: outcome.durationMs,
      responseBody: outcome.responseBody,
      error: outcome.error,
      trigger: message.trigger ?? "automatic",
    }),
    ...(delivery.targetType === "webhook" && hook && !hook.disabledAt && target?.url ? [webhookHealthStatement(db, delivery, outcome, at)] : []),
  ]);
  const step: DeliveryStep = next === null ? { done: true } : { done: false, next: messageFor({ ...delivery, attempts }), delaySeconds: hopDelaySeconds(next, at) };
  return { step, finalFailure: status === "failed" ? { delivery, outcome, at } : null };
}

/**
 * A webhook's health after an attempt: a success clears its failure streak; a failure starts one; 410
 * Gone disables it at once, and so does a streak as long as the retry window (every delivery failed
 * for 3 days). The reason is kept and shown.
 */
function webhookHealthStatement(db: Database, delivery: DeliveryRow, outcome: AttemptOutcome, at: number) {
  const where = and(eq(webhooks.id, delivery.targetId), eq(webhooks.accountId, delivery.accountId));
  if (outcome.result === "delivered") return db.update(webhooks).set({ failingSince: null }).where(where);
  const since = sql`coalesce(${webhooks.failingSince}, ${at})`;
  if (outcome.result === "gone") {
    const reason = `The receiver answered 410 Gone on ${new Date(at).toISOString()}`;
    return db.update(webhooks).set({ failingSince: since, disabledAt: at, disabledReason: reason }).where(where);
  }
  const tooLong = sql`${since} <= ${at - RETRY_WINDOW_MS}`;
  const reason = `Every delivery failed for 3 days (last: ${outcome.error ?? "no answer"} on ${new Date(at).toISOString()})`;
  return db
    .update(webhooks)
    .set({
      failingSince: since,
      disabledAt: sql`CASE WHEN ${tooLong} THEN ${at} ELSE NULL END`,
      disabledReason: sql`CASE WHEN ${tooLong} THEN ${reason} ELSE NULL END`,
    })
    .where(where);
}
