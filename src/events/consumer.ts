/**
 * The events queue carries two kinds of message:
 * - `event`: an outbox row to fan out to the account's subscribed webhooks;
 * - `delivery`: one webhook's copy of an event, attempted until delivered, refused or out of attempts.
 * A message is acked once its step is recorded; a failure of our own (database, queue) retries it.
 */
import { createDb } from "../db/client";
import { wakeSnoozedConversations } from "../domain/conversations/snoozes";
import { type DeliveryMessage, attemptDelivery, fanOut } from "../webhooks/deliveries";
import { type EventMessage, dispatchPendingEvents } from "./dispatch";

export type QueueMessage = EventMessage | DeliveryMessage;

const backoffAfterFailure = (attempts: number) => Math.min(30 * 2 ** attempts, 60 * 60);

export async function consumeQueue(batch: MessageBatch<QueueMessage>, env: Env) {
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    const body = message.body;
    try {
      if (body.kind === "event") {
        const deliveries = await fanOut(db, env, body.eventId);
        if (deliveries.length > 0) await env.EVENTS.sendBatch(deliveries.map((d) => ({ body: d })));
        message.ack();
      } else if (body.kind === "delivery") {
        const step = await attemptDelivery(db, env, body.deliveryId);
        if (step.done) message.ack();
        else message.retry({ delaySeconds: step.retryInSeconds });
      } else {
        message.ack(); // unknown kind: nothing can ever handle it
      }
    } catch (error) {
      console.error(JSON.stringify({ level: "error", queue: batch.queue, message: body, error: String(error) }));
      message.retry({ delaySeconds: backoffAfterFailure(message.attempts) });
    }
  }
}

/**
 * The cron trigger's work: wake snoozed conversations whose time has come, then dispatch the outbox
 * rows that no request got round to (the wake-ups' events among them).
 */
export async function runScheduledWork(env: Env) {
  const db = createDb(env.DB);
  await wakeSnoozedConversations(db, env);
  await dispatchPendingEvents(db, env.EVENTS);
}
