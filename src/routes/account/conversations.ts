import { Hono } from "hono";
import { conversationCounts, filterConversations, listConversations, type ListInput } from "../../domain/conversations/lists";
import {
  assignConversation,
  conversationLabels,
  createConversation,
  markUnread,
  replaceCustomAttributes,
  replaceLabels,
  setMuted,
  showConversation,
  togglePriority,
  toggleStatus,
  updateConversation,
  updateLastSeen,
} from "../../domain/conversations/conversations";
import { CONVERSATION_STATUSES } from "../../domain/kernel/enums";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { allowBots, requireAdministrator } from "../../http/auth";
import { linkNext, nextCursorMeta } from "../../http/paging";
import { deleteConversation } from "../../domain/conversations/deletion";
import { emailConversationTranscript } from "../../domain/conversations/transcript";
import { listConversationAttachments } from "../../domain/conversations/attachments";
import { conversationAttachmentsView } from "../../views/conversation-attachments";
import { validate } from "../../http/validate";
import {
  AttachmentListQuery,
  AssignmentBody,
  ConversationCreate,
  ConversationFilterBody,
  ConversationListQuery,
  ConversationParam,
  ConversationUpdate,
  CustomAttributesBody,
  FilterQuery,
  LabelsBody,
  TogglePriority,
  ToggleStatus,
  TranscriptBody,
  AssignmentAnswer,
  ConversationAttachments,
  ConversationCounts,
  ConversationFilterPage,
  ConversationList,
  CustomAttributesAnswer,
  StatusToggle,
} from "../../schemas/conversations";
import { conversationView, countsView, statusToggleView } from "../../views/conversations";
import { agentView } from "../../views/agents";
import { agentBotSlimView, teamRecordView } from "../../views/people";
import { z } from "zod";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Conversation, Empty, payloadOf } from "../../schemas/responses";
import { onlineInAccount } from "./online";

const ASSIGNEE_TYPES = new Set(["me", "unassigned", "assigned"]);

/** The list's query as the domain takes it (the MCP tool list_conversations too). */
export function listInput(query: Omit<z.infer<typeof ConversationListQuery>, "labels[]"> & { "labels[]"?: string[] }): ListInput {
  const status = query.status ?? "open";
  return {
    status: status === "all" ? null : CONVERSATION_STATUSES.indexOf(status),
    assigneeType: ASSIGNEE_TYPES.has(query.assignee_type ?? "") ? (query.assignee_type as ListInput["assigneeType"]) : "all",
    inboxId: query.inbox_id,
    teamId: query.team_id,
    labels: query.labels ?? query["labels[]"],
    q: query.q || undefined,
    page: query.page ?? 1,
    cursor: query.cursor,
    sort: query.sort_by,
  };
}

/** A paged scan's answer says whether the scan goes on: its counts cover what it examined so far. */
const scanMeta = (page: { scanned: boolean; hasMore: boolean }) => (page.scanned ? { has_more: page.hasMore } : {});

/** Unix seconds (Chatwoot's times) as the domain's milliseconds. */
export const ms = (seconds: number | null | undefined) => (seconds === null || seconds === undefined ? seconds : Math.round(seconds * 1000));

/** /api/v1/accounts/:account_id/conversations */
export const conversationsApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List conversations", response: ConversationList }), validate("query", ConversationListQuery), async (c) => {
    const page = await listConversations(accountScope(c), listInput(c.req.valid("query")));
    linkNext(c, page.nextCursor);
    const online = await onlineInAccount(c);
    return c.json({ data: { meta: { ...countsView(page.counts), ...scanMeta(page), ...nextCursorMeta(page.nextCursor) }, payload: page.records.map((record) => conversationView(record, online)) } });
  })
  .get("/meta", doc({ summary: "Count conversations by assignment", response: ConversationCounts }), validate("query", ConversationListQuery), async (c) => {
    const counts = await conversationCounts(accountScope(c), listInput(c.req.valid("query")));
    return c.json({ meta: { ...countsView(counts.counts), ...scanMeta(counts) } });
  })
  .post("/filter", doc({ summary: "Filter conversations", response: ConversationFilterPage }), validate("query", FilterQuery), validate("json", ConversationFilterBody), async (c) => {
    const body = c.req.valid("json");
    const query = c.req.valid("query");
    const page = await filterConversations(accountScope(c), body.payload, { page: body.page ?? query.page ?? 1, cursor: query.cursor });
    const { assigned_count: _, ...counts } = countsView(page.counts);
    linkNext(c, page.nextCursor);
    const online = await onlineInAccount(c);
    return c.json({ meta: { ...counts, has_more: page.hasMore, ...nextCursorMeta(page.nextCursor) }, payload: page.records.map((record) => conversationView(record, online)) });
  })
  .post("/", doc({ summary: "Create a conversation", response: Conversation }), allowBots(), idempotent(), validate("json", ConversationCreate), async (c) => {
    const body = c.req.valid("json");
    const record = await createConversation(accountScope(c), {
      sourceId: body.source_id,
      inboxId: body.inbox_id,
      contactId: body.contact_id,
      additionalAttributes: body.additional_attributes,
      customAttributes: body.custom_attributes,
      status: body.status,
      assigneeId: body.assignee_id,
      teamId: body.team_id,
      snoozedUntil: ms(body.snoozed_until),
      message: body.message,
    });
    return c.json(conversationView(record, await onlineInAccount(c)));
  })
  .get("/:conversation_id", doc({ summary: "Show a conversation", response: Conversation }), validate("param", ConversationParam), async (c) => {
    return c.json(conversationView(await showConversation(accountScope(c), c.req.valid("param").conversation_id), await onlineInAccount(c)));
  })
  .delete("/:conversation_id", doc({ summary: "Delete a conversation (administrators)", response: Empty }), requireAdministrator, validate("param", ConversationParam), async (c) => {
    await deleteConversation(accountScope(c), c.req.valid("param").conversation_id);
    return c.json({});
  })
  .get("/:conversation_id/attachments", doc({ summary: "List a conversation's attachments", response: ConversationAttachments }), validate("param", ConversationParam), validate("query", AttachmentListQuery), async (c) => {
    const list = await listConversationAttachments(accountScope(c), c.req.valid("param").conversation_id, c.req.valid("query").page ?? 1);
    return c.json(conversationAttachmentsView(list));
  })
  .on(["PATCH", "PUT"], "/:conversation_id", doc({ summary: "Update a conversation's priority or SLA", response: Conversation }), allowBots(), validate("param", ConversationParam), validate("json", ConversationUpdate), async (c) => {
    const body = c.req.valid("json");
    const record = await updateConversation(accountScope(c), c.req.valid("param").conversation_id, { priority: body.priority, slaPolicyId: body.sla_policy_id });
    return c.json(conversationView(record, await onlineInAccount(c)));
  })
  .post("/:conversation_id/toggle_status", doc({ summary: "Open, resolve, snooze or set pending", response: StatusToggle }), allowBots(), validate("param", ConversationParam), validate("json", ToggleStatus), async (c) => {
    const body = c.req.valid("json");
    const result = await toggleStatus(accountScope(c), c.req.valid("param").conversation_id, { status: body.status, snoozedUntil: ms(body.snoozed_until) });
    return c.json(statusToggleView(result));
  })
  .post("/:conversation_id/toggle_priority", doc({ summary: "Set a conversation's priority", description: "Answers an empty body." }), allowBots(), validate("param", ConversationParam), validate("json", TogglePriority), async (c) => {
    await togglePriority(accountScope(c), c.req.valid("param").conversation_id, c.req.valid("json").priority ?? null);
    return c.body(null, 200);
  })
  .post("/:conversation_id/assignments", doc({ summary: "Assign a conversation to an agent or a team", response: AssignmentAnswer }), allowBots(), validate("param", ConversationParam), validate("json", AssignmentBody), async (c) => {
    const body = c.req.valid("json");
    const result = await assignConversation(accountScope(c), c.req.valid("param").conversation_id, {
      assigneeId: body.assignee_id,
      assigneeType: body.assignee_type,
      teamId: body.team_id,
    });
    if (result.kind === "agent") return c.json(agentView(result.agent, c.var.account.id, await onlineInAccount(c)));
    if (result.kind === "agent_bot") return c.json(agentBotSlimView(result.bot));
    if (result.kind === "team" && result.team) return c.json(teamRecordView(result.team));
    return c.json(null);
  })
  .get("/:conversation_id/labels", doc({ summary: "List a conversation's labels", response: payloadOf(z.array(z.string())) }), validate("param", ConversationParam), async (c) => {
    return c.json({ payload: await conversationLabels(accountScope(c), c.req.valid("param").conversation_id) });
  })
  .post("/:conversation_id/labels", doc({ summary: "Replace a conversation's labels", response: payloadOf(z.array(z.string())) }), validate("param", ConversationParam), validate("json", LabelsBody), async (c) => {
    return c.json({ payload: await replaceLabels(accountScope(c), c.req.valid("param").conversation_id, c.req.valid("json").labels) });
  })
  .post("/:conversation_id/custom_attributes", doc({ summary: "Set a conversation's custom attributes", response: CustomAttributesAnswer }), allowBots(), validate("param", ConversationParam), validate("json", CustomAttributesBody), async (c) => {
    const values = await replaceCustomAttributes(accountScope(c), c.req.valid("param").conversation_id, c.req.valid("json").custom_attributes);
    return c.json({ custom_attributes: values });
  })
  .post("/:conversation_id/mute", doc({ summary: "Mute a conversation (blocks its contact)", description: "Answers an empty body." }), validate("param", ConversationParam), async (c) => {
    await setMuted(accountScope(c), c.req.valid("param").conversation_id, true);
    return c.body(null, 200);
  })
  .post("/:conversation_id/unmute", doc({ summary: "Unmute a conversation", description: "Answers an empty body." }), validate("param", ConversationParam), async (c) => {
    await setMuted(accountScope(c), c.req.valid("param").conversation_id, false);
    return c.body(null, 200);
  })
  .post("/:conversation_id/transcript", doc({ summary: "E-mail the conversation's transcript (its public messages) to an address", description: "Answers an empty body. The mail is recorded and sent from the queue." }), validate("param", ConversationParam), validate("json", TranscriptBody), async (c) => {
    await emailConversationTranscript(accountScope(c), c.req.valid("param").conversation_id, c.req.valid("json").email);
    return c.body(null, 200);
  })
  .post("/:conversation_id/unread", doc({ summary: "Mark a conversation unread", response: Conversation }), validate("param", ConversationParam), async (c) => {
    return c.json(conversationView(await markUnread(accountScope(c), c.req.valid("param").conversation_id)));
  })
  .post("/:conversation_id/update_last_seen", doc({ summary: "Mark a conversation seen by the agent", response: Conversation }), validate("param", ConversationParam), async (c) => {
    return c.json(conversationView(await updateLastSeen(accountScope(c), c.req.valid("param").conversation_id)));
  });
