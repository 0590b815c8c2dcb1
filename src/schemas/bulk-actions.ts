/**
 * POST /bulk_actions, as Chatwoot's clients send it:
 * - `{type: "Conversation", ids: [display ids], fields: {status, assignee_id, team_id, priority, snoozed_until},
 *   labels: {add, remove}}` (`snoozed_until` may also stand beside `fields`, where Chatwoot permits it);
 * - `{type: "Contact", ids: [contact ids], action_name: "delete"}`, or `labels: {add, remove}` (with
 *   `action_name` absent or `assign_labels`).
 * As Chatwoot's job drops them, null fields change nothing; `assignee_id: 0` and `team_id: 0` clear (what
 * Chatwoot's dashboard sends), as does `priority: "none"`. A request that would change nothing is a 422.
 */
import { z } from "zod";
import { CONVERSATION_STATUSES, PRIORITIES } from "../domain/kernel/enums";
import { LABEL_TAG_MAX } from "../domain/kernel/label-tags";
import { EnumValue, Id } from "./common";
import { UnixSeconds } from "./conversations";

/**
 * The most ids one request takes. Up to 25 are changed in the request; a larger selection is changed on
 * the queue, 25 at a time (src/domain/conversations/bulk.ts).
 */
export const MAX_BULK_IDS = 1000;

/** Rails camelizes the type: "conversation" and "Conversation" are one. */
const BulkType = z.preprocess((v) => (typeof v === "string" ? v.charAt(0).toUpperCase() + v.slice(1) : v), z.enum(["Conversation", "Contact"]));

const LabelTag = z.string().max(LABEL_TAG_MAX).trim().min(1);
const LabelChanges = z.object({ add: z.array(LabelTag).max(100).optional(), remove: z.array(LabelTag).max(100).optional() });

/** 0 clears; null (dropped by Chatwoot's job) changes nothing. */
const ClearableId = z.preprocess((v) => (v === 0 || (typeof v === "string" && v.trim() === "0") ? "clear" : v), z.union([z.literal("clear"), Id]).nullish());
const Priority = z.preprocess((v) => (v === "" || v === "none" ? "clear" : v), z.union([z.literal("clear"), EnumValue(PRIORITIES)]).nullish());

const Fields = z.object({
  status: EnumValue(CONVERSATION_STATUSES).nullish(),
  assignee_id: ClearableId,
  team_id: ClearableId,
  priority: Priority,
  snoozed_until: UnixSeconds.nullish(),
});

export const BulkActionBody = z
  .object({
    type: BulkType,
    ids: z.array(Id).min(1).max(MAX_BULK_IDS),
    fields: Fields.optional(),
    labels: LabelChanges.optional(),
    snoozed_until: UnixSeconds.nullish(),
    action_name: z.enum(["delete", "assign_labels"]).optional(),
  })
  .superRefine((body, ctx) => {
    const required = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message, params: { code: "required" } });
    const labelled = Boolean(body.labels?.add?.length || body.labels?.remove?.length);
    if (body.type === "Contact") {
      if (body.fields) ctx.addIssue({ code: "custom", path: ["fields"], message: "applies to conversations only", params: { code: "not_allowed" } });
      if (body.action_name !== "delete" && !labelled) required("action_name", "or labels to add or remove are required");
      return;
    }
    if (body.action_name) ctx.addIssue({ code: "custom", path: ["action_name"], message: "applies to contacts only", params: { code: "not_allowed" } });
    const f = body.fields ?? {};
    const changes = [f.status, f.assignee_id, f.team_id, f.priority].some((v) => v !== undefined && v !== null);
    if (!changes && !labelled) required("fields", "or labels to add or remove are required");
  });
export type BulkActionBody = z.infer<typeof BulkActionBody>;

/** What a bulk action did (Chatwoot answers an empty 200; edgedesk tells what it skipped and why). */
export const BulkActionResult = z
  .object({
    type: z.enum(["Conversation", "Contact"]),
    ids: z.array(z.number().int()).meta({ description: "the ids acted on (display ids for conversations)" }),
    skipped: z.array(z.object({ id: z.number().int(), reason: z.enum(["not_found", "not_accessible"]) })),
    failures: z.array(z.object({ id: z.number().int(), field: z.string(), code: z.string(), message: z.string() })),
    queued: z.number().int().meta({ description: "ids of a selection too large for the request, changed on the queue after the answer" }),
  })
  .meta({ id: "BulkActionResult" });
