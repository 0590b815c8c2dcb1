/**
 * send_webhook_event, adapted to the webhook delivery path that exists in src/webhooks (signing, the
 * target-URL policy, the retry schedule). One module, so that the delivery can be repointed at a fuller
 * delivery log in one place.
 *
 * The action writes an outbox event `automation_event.<event_name>` on the conversation (in the rule's own
 * batch, so the request is never lost); the queue brings it back to the automation consumer, which posts
 * Chatwoot's conversation payload with that event name, signed with the rule's webhook secret (Chatwoot
 * posts it unsigned, once). A passing failure is retried on the queue after the same waits as account
 * webhooks.
 */
import { and, eq } from "drizzle-orm";
import { type Database, schema } from "../../db/client";
import { eventStatement } from "../../events/outbox";
import { type OutboxRow, buildWebhookPayload } from "../../events/payloads";
import { MAX_ATTEMPTS, RETRY_DELAYS_S } from "../../webhooks/deliveries";
import { postWebhook } from "../../webhooks/post";
import { isForbiddenTarget } from "../../webhooks/target-url";
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

export type DeliveryStep = { retryInSeconds: number | null };

/** One attempt (the queue message's `attempt`, from 1) at delivering a rule's webhook event. */
export async function deliverRuleWebhook(db: Database, env: Env, event: OutboxRow, attempt: number, fetcher?: typeof fetch): Promise<DeliveryStep> {
  const { url, automation_rule_id: ruleId, delivery_uuid: deliveryUuid } = event.data as { url: string; automation_rule_id: number; delivery_uuid: string };
  const { rules } = await batchNamed(db, {
    rules: db
      .select({ secret: schema.automationRules.webhookSecret })
      .from(schema.automationRules)
      .where(and(eq(schema.automationRules.id, ruleId), eq(schema.automationRules.accountId, event.accountId))),
  });
  const log = (outcome: Record<string, unknown>) =>
    console.log(JSON.stringify({ level: "info", what: "automation_webhook", event_id: event.id, rule_id: ruleId, url, delivery: deliveryUuid, attempt, ...outcome }));
  if (!rules[0]) {
    log({ result: "cancelled", error: "the rule was deleted" });
    return { retryInSeconds: null };
  }
  // checked again at delivery, as for account webhooks
  if (isForbiddenTarget(url)) {
    log({ result: "rejected", error: "the URL points at a private or local address" });
    return { retryInSeconds: null };
  }
  const payload = await buildWebhookPayload(db, env, event);
  if (!payload) {
    log({ result: "cancelled", error: "the conversation no longer exists" });
    return { retryInSeconds: null };
  }
  const outcome = await postWebhook({ url, secret: rules[0].secret, deliveryUuid, body: JSON.stringify(payload) }, fetcher);
  log(outcome);
  if (outcome.result === "retry" && attempt < MAX_ATTEMPTS) return { retryInSeconds: RETRY_DELAYS_S[attempt - 1] };
  return { retryInSeconds: null };
}
