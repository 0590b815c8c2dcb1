import { ASSIGNMENT_ORDERS, type AssignmentPolicyRecord, CONVERSATION_PRIORITY_ORDERS, type InboxAssignmentPolicyRow } from "../domain/assignment/rows";
import { enumName } from "../domain/kernel/enums";
import { unixSeconds } from "./time";

/** Chatwoot's assignment policy, with the inboxes that follow it (id and name). */
export function assignmentPolicyView({ policy, inboxes }: AssignmentPolicyRecord) {
  return {
    id: policy.id,
    name: policy.name,
    description: policy.description,
    assignment_order: enumName(ASSIGNMENT_ORDERS, policy.assignmentOrder) ?? "round_robin",
    conversation_priority: enumName(CONVERSATION_PRIORITY_ORDERS, policy.conversationPriority) ?? "earliest_created",
    fair_distribution_limit: policy.fairDistributionLimit,
    fair_distribution_window: policy.fairDistributionWindow,
    enabled: policy.enabled,
    assigned_inbox_count: inboxes.length,
    inboxes,
    created_at: unixSeconds(policy.createdAt),
    updated_at: unixSeconds(policy.updatedAt),
  };
}

export function inboxAssignmentPolicyView(link: InboxAssignmentPolicyRow) {
  return {
    id: link.id,
    inbox_id: link.inboxId,
    assignment_policy_id: link.assignmentPolicyId,
    created_at: unixSeconds(link.createdAt),
    updated_at: unixSeconds(link.updatedAt),
  };
}
