/**
 * send_webhook_event, adapted to the webhook delivery path that exists in src/webhooks (signing, the
 * target-URL policy, the retry schedule, the delivery log).
 *
 * The action writes an outbox event `automation_event.<event_name>` on the conversation (in the rule's own
 * batch, so the request is never lost); the queue brings it back to the automation consumer, which posts
 * Chatwoot's conversation payload with that event name through the same signed, retried and logged
 * delivery path as account webhooks, signed with the rule's webhook secret (Chatwoot posts it unsigned,
 * once): src/jobs/rule-webhooks.ts.
 */
import { eventStatement } from "../kernel/outbox";
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
