/**
 * One delivery message of the events queue: the attempt it stands for (src/webhooks/deliveries.ts), then,
 * when that attempt was the last, what a final failure changes in the conversation (the domain's
 * onFinalFailure), whose events go to the queue at once: nothing else would dispatch them before the cron.
 */
import type { Database } from "../db/client";
import { onFinalFailure } from "../domain/conversations/delivery-failures";
import { dispatchPendingEvents } from "../events/dispatch";
import { jobScope } from "./scope";
import { type AttemptOptions, type DeliveryMessage, type DeliveryStep, makeAttempt } from "../webhooks/deliveries";

export async function attemptDelivery(db: Database, env: Env, message: DeliveryMessage, options: AttemptOptions = {}): Promise<DeliveryStep> {
  const { step, finalFailure } = await makeAttempt(db, env, message, options);
  if (finalFailure && (await onFinalFailure(jobScope(db, env), finalFailure.delivery, finalFailure.outcome, finalFailure.at))) {
    await dispatchPendingEvents(db, env.EVENTS);
  }
  return step;
}
