/**
 * The delivery side of an automation rule's send_webhook_event (the action writes the outbox event,
 * src/domain/automation/webhook-adapter.ts; the queue brings it back here).
 */
import { and, eq } from "drizzle-orm";
import { type Database, schema } from "../db/client";
import type { OutboxRow } from "../domain/kernel/outbox";
import { batchNamed } from "../domain/kernel/batch";
import { buildWebhookPayload } from "../webhooks/payloads";
import { enqueueWebhookDelivery } from "../webhooks/deliveries";

/**
 * Hands a rule's webhook event to the webhook delivery path: signed with the rule's secret, retried for
 * days, logged. The event id keys the delivery, so a redelivered queue message makes no second one.
 */
export async function deliverRuleWebhook(db: Database, env: Env, event: OutboxRow): Promise<void> {
  const { url, automation_rule_id: ruleId } = event.data as { url: string; automation_rule_id: number };
  const { rules } = await batchNamed(db, {
    rules: db
      .select({ secret: schema.automationRules.webhookSecret })
      .from(schema.automationRules)
      .where(and(eq(schema.automationRules.id, ruleId), eq(schema.automationRules.accountId, event.accountId))),
  });
  if (!rules[0]) return; // the rule was deleted since
  const payload = await buildWebhookPayload(db, env, event);
  if (!payload) return; // the conversation no longer exists
  await enqueueWebhookDelivery(db, env, {
    accountId: event.accountId,
    url,
    payload,
    eventName: event.eventName,
    secret: rules[0].secret,
    dedupeKey: `automation-event:${event.id}`,
    eventId: event.id,
  });
}
