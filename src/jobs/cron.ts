/**
 * The cron trigger's work, every minute: wake snoozed conversations whose time has come; dispatch the
 * outbox rows no request got round to (the wake-ups' events among them) and those whose dispatch was
 * lost; re-send deliveries whose queue message was lost; prune consumed outbox rows, the delivery log
 * after 30 days, and old Idempotency-Key records.
 */
import { connect } from "../db/connect";
import { pruneIdempotencyKeys } from "../db/idempotency-keys";
import { wakeSnoozedConversations } from "../domain/conversations/snoozes";
import { pruneOutbox } from "../events/dispatch";
import { dispatchEvents } from "../feed/forward";
import { pruneDeliveryLog, resendOverdueDeliveries } from "../webhooks/sweep";
import { jobScope } from "./scope";

export async function runScheduledWork(env: Env) {
  const { db } = connect(env, { writes: true });
  await wakeSnoozedConversations(jobScope(db, env));
  await dispatchEvents(db, env, { includeStale: true });
  await resendOverdueDeliveries(db, env);
  await pruneOutbox(db);
  await pruneDeliveryLog(db);
  await pruneIdempotencyKeys(db);
}
