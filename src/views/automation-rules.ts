import type { AutomationRuleRow } from "../domain/automation/rows";

/**
 * The specification's Automation rule record (`created_on` in Unix seconds) with Chatwoot's `files`
 * (always empty: attachments are not stored yet). Only administrators see rules, so the secret that signs
 * the rule's send_webhook_event deliveries is shown.
 */
export function automationRuleView(rule: AutomationRuleRow) {
  return {
    id: rule.id,
    account_id: rule.accountId,
    name: rule.name,
    description: rule.description,
    event_name: rule.eventName,
    active: rule.active,
    conditions: rule.conditions,
    actions: rule.actions,
    created_on: Math.floor(rule.createdAt / 1000),
    files: [],
    webhook_secret: rule.webhookSecret,
  };
}
