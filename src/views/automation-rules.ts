import type { AutomationRuleRow } from "../domain/automation/rows";
import type { RuleFileRow } from "../domain/attachments/rows";
import { fileUrl } from "./attachments";

/**
 * The specification's Automation rule record (`created_on` in Unix seconds) with Chatwoot's `files`
 * (empty: a rule's files are named by id in its send_attachment actions). Only administrators see rules, so the secret that signs
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

/** POST /automation_rules/attach_file: Chatwoot's `{blob_key, blob_id}`, plus the file's signed URL. */
export function ruleFileView(file: RuleFileRow) {
  return {
    blob_id: file.id,
    blob_key: `rule_file_${file.id}`,
    filename: file.fileName,
    file_type: file.fileType,
    file_url: fileUrl({ collection: "rule_files", accountId: file.accountId, fileId: file.id }, file.fileName),
  };
}
