/**
 * The cron trigger's work, every minute: wake snoozed conversations whose time has come; dispatch the
 * outbox rows no request got round to (the wake-ups' events among them) and those whose dispatch was
 * lost; hand out the conversations that waited for an inbox whose business hours began; re-send
 * deliveries whose queue message was lost, and the next step of contact imports and exports that
 * stopped moving; delete contact exports older than 30 days; start the one-off campaigns whose time has come (and re-send runs that stopped
 * moving); prune consumed outbox rows, the delivery log
 * after 30 days, and old Idempotency-Key records.
 */
import { connect } from "../db/connect";
import { pruneIdempotencyKeys } from "../db/idempotency-keys";
import { wakeSnoozedConversations } from "../domain/conversations/snoozes";
import { resumeStalledImports } from "../domain/contacts/imports";
import { deleteExpiredExports, resumeStalledExports } from "../domain/contacts/exports";
import { startDueCampaigns } from "../domain/campaigns/runs";
import { pruneOutbox } from "../events/dispatch";
import { dispatchEvents } from "../feed/forward";
import { pruneDeliveryLog, resendOverdueDeliveries } from "../webhooks/sweep";
import { jobScope } from "./scope";
import { announceOpenedInboxes } from "./auto-assignment";

export async function runScheduledWork(env: Env) {
  const { db } = connect(env, { writes: true });
  await wakeSnoozedConversations(jobScope(db, env));
  await dispatchEvents(db, env, { includeStale: true });
  await announceOpenedInboxes(db, env);
  await resendOverdueDeliveries(db, env);
  await resumeStalledImports(jobScope(db, env));
  await resumeStalledExports(jobScope(db, env));
  await deleteExpiredExports(jobScope(db, env));
  await startDueCampaigns(jobScope(db, env));
  await pruneOutbox(db);
  await pruneDeliveryLog(db);
  await pruneIdempotencyKeys(db);
}
