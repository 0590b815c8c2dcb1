/**
 * send_webhook_event, adapted to the webhook delivery path that exists in src/webhooks (signing, the
 * target-URL policy, the retry schedule, the delivery log).
 *
 * The action writes an outbox event `automation_event.<event_name>` on the conversation (in the rule's own
 * batch, so the request is never lost); the queue brings it back to the automation consumer, which posts
 * Chatwoot's conversation payload with that event name through the same signed, retried and logged
 * delivery path as account webhooks, signed with the rule's webhook secret (Chatwoot posts it unsigned,
 * once).
 */
import { and, eq } from "drizzle-orm";
import { type Database, schema } from "../../db/client";
import { eventStatement } from "../kernel/outbox";
import type { OutboxRow } from "../kernel/outbox";
import { buildWebhookPayload } from "../../events/payloads";
import { enqueueWebhookDelivery } from "../../webhooks/deliveries";
import { batchNamed } from "../kernel/batch";
import { type AccountScope, performer } from "../kernel/scope";

const PREFIX = "automation_event.";

export const isRuleWebhookEvent = (eventName: string) => eventName.startsWith(PREFIX);

/** The outbox row that asks for one delivery of the conversation to `url`. */
export function ruleWebhookStatement(scope: AccountScope, ruleId: number, url: string, trigger: { eventName: string; conversationId: number }) {
  return eventStatement(scope.db, {
    accountId: scope.accountId,
    eventName: `${PREFIX}${trigger.eventName}`,
    subjectType: "Conversation",
    subjectId: trigger.conversationId,
    data: { performer: performer(scope), url, automation_rule_id: ruleId, delivery_uuid: crypto.randomUUID() },
  });
}

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
