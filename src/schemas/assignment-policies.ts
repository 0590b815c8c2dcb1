/** Assignment policies (/assignment_policies) and the links between policies and inboxes. */
import { z } from "zod";
import { ASSIGNMENT_ORDERS, CONVERSATION_PRIORITY_ORDERS } from "../domain/assignment/rows";
import { Id, ShortText, wrapped } from "./common";
import { Inbox } from "./inboxes";
import { seconds } from "./responses";

const fields = {
  name: ShortText.trim().min(1),
  description: z.string().max(1000).nullable(),
  assignment_order: z.enum(ASSIGNMENT_ORDERS),
  conversation_priority: z.enum(CONVERSATION_PRIORITY_ORDERS),
  /** Chatwoot's bounds: at most 100 assignments per agent in a window of more than a minute and at most a day */
  fair_distribution_limit: z.number().int().min(1).max(100),
  fair_distribution_window: z.number().int().min(61).max(86_400).describe("seconds"),
  enabled: z.boolean(),
};

/** POST /assignment_policies: flat, or wrapped in `assignment_policy` as Chatwoot's controller requires it. */
export const AssignmentPolicyCreate = wrapped("assignment_policy", z.object(fields).partial().required({ name: true }));

/** PATCH/PUT /assignment_policies/:id: the given fields replace the stored ones. */
export const AssignmentPolicyUpdate = wrapped("assignment_policy", z.object(fields).partial());

/** POST /assignment_policies/:id/inboxes */
export const PolicyInboxLink = z.object({ inbox_id: Id });
/** POST /inboxes/:inbox_id/assignment_policy */
export const InboxPolicyLink = z.object({ assignment_policy_id: Id });

export const PolicyInboxParam = z.object({ id: Id, inbox_id: Id });
export const InboxIdParam = z.object({ inbox_id: Id });

/** An assignment policy (src/views/assignment-policies.ts), as Chatwoot's partial shows it, with its inboxes. */
export const AssignmentPolicy = z
  .looseObject({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    assignment_order: z.enum(ASSIGNMENT_ORDERS),
    conversation_priority: z.enum(CONVERSATION_PRIORITY_ORDERS),
    fair_distribution_limit: z.number().int(),
    fair_distribution_window: z.number().int(),
    enabled: z.boolean(),
    assigned_inbox_count: z.number().int(),
    inboxes: z.array(z.object({ id: z.number().int(), name: z.string() })),
    created_at: seconds,
    updated_at: seconds,
  })
  .meta({ id: "AssignmentPolicy" });

/** GET /assignment_policies/:id/inboxes */
export const PolicyInboxes = z.object({ inboxes: z.array(Inbox) });

/** The link an inbox has to its policy. */
export const InboxAssignmentPolicy = z
  .object({ id: z.number().int(), inbox_id: z.number().int(), assignment_policy_id: z.number().int(), created_at: seconds, updated_at: seconds })
  .meta({ id: "InboxAssignmentPolicy" });
