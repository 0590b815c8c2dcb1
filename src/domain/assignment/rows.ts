import type { schema } from "../../db/client";

/** Chatwoot's enumerations of an assignment policy, stored as the index. */
export const ASSIGNMENT_ORDERS = ["round_robin", "balanced"] as const;
export const CONVERSATION_PRIORITY_ORDERS = ["earliest_created", "longest_waiting"] as const;

export type AssignmentPolicyRow = typeof schema.assignmentPolicies.$inferSelect;
export type InboxAssignmentPolicyRow = typeof schema.inboxAssignmentPolicies.$inferSelect;

/** A policy with the inboxes that follow it (id and name), as Chatwoot shows one. */
export type AssignmentPolicyRecord = { policy: AssignmentPolicyRow; inboxes: Array<{ id: number; name: string }> };
