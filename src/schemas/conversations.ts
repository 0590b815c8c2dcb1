import { z } from "zod";
import { CONVERSATION_STATUSES, PRIORITIES } from "../domain/kernel/enums";
import { Cursor, Email, Id, Int, JsonObject, EnumValue, ShortText, wrapped } from "./common";
import { Agent } from "./agents";
import { SORTS } from "../domain/conversations/order";
import { LABEL_TAG_MAX } from "../domain/kernel/label-tags";
import { Attachment, Conversation, Sender, isoTime, seconds } from "./responses";

/** Path of every conversation member route: the per-account display id. */
export const ConversationParam = z.object({ conversation_id: Id });

/** POST /conversations/:id/transcript: the one address the transcript goes to. */
export const TranscriptBody = z.object({ email: Email });

/** Unix seconds (Chatwoot's `snoozed_until`), from JSON or a form string; a non-number is a 422 (Chatwoot 500). */
export const UnixSeconds = z.preprocess(
  (v) => (typeof v === "string" && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v),
  z.number({ error: "must be a Unix time in seconds" }).nonnegative().max(253_402_300_799),
);

/** A label name: a free-form tag (src/domain/kernel/label-tags.ts, which the automation label actions use too). */
const LabelTag = z.string().max(LABEL_TAG_MAX).trim().min(1);

const Status = EnumValue(CONVERSATION_STATUSES);
/** A priority name; blank or null clears it. */
const Priority = z.preprocess((v) => (v === "" || v === "none" ? null : v), EnumValue(PRIORITIES).nullable());

const ListStatus = z.enum([...CONVERSATION_STATUSES, "all"]);
const Page = Int.pipe(z.number().min(1).max(10_000));
/** `labels[]=a&labels[]=b`, `labels=a,b` or one label. */
const LabelList = z.preprocess(
  (v) => (typeof v === "string" ? v.split(",").map((s) => s.trim()).filter(Boolean) : v),
  z.array(LabelTag).max(10),
);

/** `sort_by` of the conversation list: Chatwoot's names, as the order they stand for; any other value is a 422 listing them. */
const SortBy = z
  .string()
  .trim()
  .max(40)
  .superRefine((name, ctx) => {
    if (Object.hasOwn(SORTS, name)) return;
    ctx.addIssue({ code: "custom", message: `must be one of: ${Object.keys(SORTS).join(", ")}`, params: { code: "invalid_value" } });
  })
  .transform((name) => SORTS[name]);

/** GET /conversations and /conversations/meta. */
export const ConversationListQuery = z.object({
  status: ListStatus.optional(),
  assignee_type: z.string().max(20).optional(),
  inbox_id: Id.optional(),
  team_id: Id.optional(),
  labels: LabelList.optional(),
  "labels[]": LabelList.optional(),
  q: z.string().trim().max(200).optional(),
  page: Page.optional(),
  cursor: Cursor,
  sort_by: SortBy.optional(),
});

const Condition = z.object({
  attribute_key: z.string().trim().min(1).max(100),
  filter_operator: z.string().trim().min(1).max(40),
  values: z.array(z.union([z.string().max(255), z.number(), z.boolean(), z.null()])).max(50).default([]),
  query_operator: z.string().max(10).nullish(),
  custom_attribute_type: z.enum(["conversation_attribute", "contact_attribute"]).nullish(),
});
export type FilterCondition = z.infer<typeof Condition>;

/** POST /conversations/filter */
export const ConversationFilterBody = z.object({
  payload: z.array(Condition).min(1).max(20),
  page: Page.optional(),
});
export const FilterQuery = z.object({ page: Page.optional(), cursor: Cursor });

/** POST /conversations */
export const ConversationCreate = wrapped(
  "conversation",
  z
    .object({
      source_id: ShortText.trim().min(1).optional(),
      inbox_id: Id.optional(),
      contact_id: Id.optional(),
      additional_attributes: JsonObject.optional(),
      custom_attributes: JsonObject.optional(),
      status: Status.optional(),
      assignee_id: Id.nullish(),
      team_id: Id.nullish(),
      snoozed_until: UnixSeconds.nullish(),
      message: z.object({ content: z.string().trim().min(1).max(150_000) }).optional(),
    })
    .superRefine((body, ctx) => {
      if (body.source_id === undefined && (body.inbox_id === undefined || body.contact_id === undefined)) {
        ctx.addIssue({ code: "custom", path: ["source_id"], message: "or inbox_id and contact_id are required", params: { code: "required" } });
      }
    }),
);

/** PATCH /conversations/:conversation_id */
export const ConversationUpdate = wrapped(
  "conversation",
  z.object({ priority: Priority.optional(), sla_policy_id: Id.nullish() }),
);

/** POST /conversations/:conversation_id/toggle_status */
export const ToggleStatus = z.object({
  status: z.preprocess((v) => (v === "" ? undefined : v), Status.optional()),
  snoozed_until: UnixSeconds.nullish(),
});

/** POST /conversations/:conversation_id/toggle_priority */
export const TogglePriority = z.object({ priority: Priority.optional() });

/**
 * `assignee_id: 0` unassigns, as `null` does: Chatwoot's agent apps send 0 for "nobody" (Chatwoot finds
 * no user 0 and clears the assignee). Negative or non-numeric ids stay a 422.
 */
const AssigneeId = z.preprocess((v) => (v === 0 || (typeof v === "string" && v.trim() === "0") ? null : v), Id.nullish());

/** POST /conversations/:conversation_id/assignments */
export const AssignmentBody = z.object({
  assignee_id: AssigneeId,
  assignee_type: z.enum(["User", "AgentBot"]).optional(),
  team_id: Id.nullish(),
});

/** POST /conversations/:conversation_id/labels: replaces the list. */
export const LabelsBody = z.object({ labels: z.array(LabelTag).max(100) });

/** POST /conversations/:conversation_id/custom_attributes: replaces the hash. */
export const CustomAttributesBody = z.object({ custom_attributes: JsonObject });

/** GET /conversations/:conversation_id/attachments */
export const AttachmentListQuery = z.object({ page: Page.optional() });

// ---------------------------------------------------------------- answers (src/views/conversations.ts)

const count = z.number().int().min(0);
const counts = {
  mine_count: count,
  assigned_count: count,
  unassigned_count: count,
  all_count: count,
};
const paging = {
  has_more: z.boolean().optional().describe("present when the list was scanned rather than counted"),
  next_cursor: z.string().optional().describe("pass as `cursor` for the next page; absent on the last page"),
};

/** GET /conversations: Chatwoot's `data` envelope with the counts by assignment. */
export const ConversationList = z.looseObject({
  data: z.looseObject({ meta: z.looseObject({ ...counts, ...paging }), payload: z.array(Conversation) }),
});

/** GET /conversations/meta */
export const ConversationCounts = z.looseObject({ meta: z.looseObject({ ...counts, has_more: paging.has_more }) });

/** POST /conversations/filter */
export const ConversationFilterPage = z.looseObject({
  meta: z.looseObject({ mine_count: count, unassigned_count: count, all_count: count, has_more: z.boolean(), next_cursor: paging.next_cursor }),
  payload: z.array(Conversation),
});

/** POST /conversations/:id/toggle_status (Chatwoot renders snoozed_until here as ISO). */
export const StatusToggle = z.looseObject({
  meta: z.looseObject({}),
  payload: z.looseObject({
    success: z.boolean().nullable(),
    conversation_id: z.number().int(),
    current_status: z.enum(CONVERSATION_STATUSES),
    snoozed_until: isoTime.nullable(),
  }),
});

/** POST /conversations/:id/assignments: the new assignee (agent, agent bot or team), or null when unassigned. */
export const AssignmentAnswer = z
  .union([
    Agent,
    z.looseObject({ id: z.number().int(), name: z.string(), description: z.string().nullable(), thumbnail: z.string(), bot_type: z.literal("webhook") }),
    z.looseObject({ id: z.number().int(), name: z.string(), created_at: isoTime.nullable(), updated_at: isoTime.nullable() }),
    z.null(),
  ])
  .describe("an agent, an agent bot, a team, or null when unassigned");

/** GET /conversations/:id/attachments: Chatwoot's `{meta: {total_count}, payload}`, newest first. */
export const ConversationAttachments = z.looseObject({
  meta: z.looseObject({ total_count: count }),
  payload: z.array(Attachment.extend({ created_at: seconds, sender: Sender.nullable(), private: z.boolean() })),
});

/** POST /conversations/:id/custom_attributes */
export const CustomAttributesAnswer = z.looseObject({ custom_attributes: z.record(z.string(), z.unknown()) });

/** POST /conversations/:id/toggle_typing_status */
export const TypingAnswer = z.looseObject({ conversation_id: z.number().int(), typing_status: z.enum(["on", "off"]) });

/** POST /conversations/:id/live_ticket */
export const LiveTicket = z.looseObject({
  ticket: z.string(),
  expires_at: seconds,
  url: z.string().describe("the WebSocket path to open with the ticket"),
});
