/**
 * The events queue carries two kinds of message:
 * - `event`: an outbox row, handed to every event consumer (webhook fan-out, which turns it into one
 *   `delivery` message per target, then automation rules); the row is marked consumed once all are done;
 * - `live_event`: an event with no outbox row (typing), carried whole, fanned out to webhooks like `event`;
 * - `delivery`: one target's copy of an event, one attempt per message (src/webhooks/deliveries.ts).
 * Messages of a batch are handled concurrently: one slow receiver does not hold up the others. A
 * message is acked once its step is recorded; a failure of our own (database, queue) retries it.
 */
import type { Database } from "../db/client";
import { connect } from "../db/connect";
import { configureFileLinks } from "../views/attachments";
import { runAutomationForEvent } from "../domain/automation/engine";
import { wakeSnoozedConversations } from "../domain/conversations/snoozes";
import { type DeliveryMessage, attemptDelivery, fanOut, fanOutLiveEvent, sendDeliveryMessages } from "../webhooks/deliveries";
import { pruneDeliveryLog, resendOverdueDeliveries } from "../webhooks/sweep";
import { type EventMessage, dispatchPendingEvents, markConsumed, pruneOutbox } from "./dispatch";
import { type LiveEventMessage, liveEventRow } from "./live";
import { pruneIdempotencyKeys } from "../db/idempotency-keys";

export type QueueMessage = EventMessage | DeliveryMessage | LiveEventMessage;

const backoffAfterFailure = (attempts: number) => Math.min(30 * 2 ** attempts, 60 * 60);

/** What each event goes through, in order; each must tolerate repeats. */
const EVENT_CONSUMERS: Array<(db: Database, env: Env, eventId: number) => Promise<void>> = [
  async (db, env, eventId) => sendDeliveryMessages(env.EVENTS, await fanOut(db, env, eventId)),
  runAutomationForEvent,
];

export async function consumeQueue(batch: MessageBatch<QueueMessage>, env: Env) {
  const { db } = connect(env, { writes: true });
  // payloads carry signed file URLs; outside a request they point at the configured address
  configureFileLinks(env.ATTACHMENT_URL_SECRET, env.FILES_BASE_URL);
  const handledEvents: number[] = [];
  await Promise.all(
    batch.messages.map(async (message) => {
      const body = message.body;
      try {
        if (body.kind === "event") {
          for (const consume of EVENT_CONSUMERS) await consume(db, env, body.eventId);
          handledEvents.push(body.eventId);
        } else if (body.kind === "live_event") {
          await sendDeliveryMessages(env.EVENTS, await fanOutLiveEvent(db, env, liveEventRow(body)));
        } else if (body.kind === "delivery") {
          const step = await attemptDelivery(db, env, body);
          // A new message, not message.retry(): the queue's retry count is for our own failures.
          if (!step.done) await env.EVENTS.send(step.next, { delaySeconds: step.delaySeconds });
        }
        message.ack(); // (an unknown kind is acked too: nothing can ever handle it)
      } catch (error) {
        console.error(JSON.stringify({ level: "error", queue: batch.queue, message: body, error: String(error) }));
        message.retry({ delaySeconds: backoffAfterFailure(message.attempts) });
      }
    }),
  );
  await markConsumed(db, handledEvents);
}

/**
 * The cron trigger's work, every minute: wake snoozed conversations whose time has come; dispatch the
 * outbox rows no request got round to (the wake-ups' events among them) and those whose dispatch was
 * lost; re-send deliveries whose queue message was lost; prune consumed outbox rows, and the delivery
 * log after 30 days.
 */
export async function runScheduledWork(env: Env) {
  const { db } = connect(env, { writes: true });
  await wakeSnoozedConversations(db, env);
  await dispatchPendingEvents(db, env.EVENTS, { includeStale: true });
  await resendOverdueDeliveries(db, env);
  await pruneOutbox(db);
  await pruneDeliveryLog(db);
  await pruneIdempotencyKeys(db);
}
