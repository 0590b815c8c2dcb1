/**
 * Messages of a conversation: create (with its effects on the conversation), list, status update, delete.
 * New messages are inserted through new-messages.ts, like every other message.
 */
import { and, asc, desc, eq, exists, gt, lt, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type Statement, lastInsertedId, now, schema, sameAccount } from "../../db/client";
import { usersAsAgentsQuery } from "../people/agents";
import { batch, batchGroups, batchNamed, writeCheckedByConstraints } from "../kernel/batch";
import { CONTENT_TYPE, CONTENT_TYPES, MESSAGE_STATUS, MESSAGE_STATUSES, MESSAGE_TYPE } from "../kernel/enums";
import { type AccountScope, actingUserId } from "../kernel/scope";
import { forbidden, invalidField, notFound } from "../kernel/errors";
import { decodeCursor, encodeCursor } from "../kernel/paging";
import { messageFactStatements, statusMoveStatements } from "../reports/facts";
import { conversationColumn, conversationQuery, ensureActionable, reachableCondition, readConversation } from "./access";
import { counterMoveInBatch } from "./counters";
import { changeEventStatementsInBatch, columnChanges, messageEventStatements } from "./events";
import { type People, senderOf, senderQueries, unreadCountsQuery } from "./loader";
import { type MessageDraft, messageAttachmentsStatement, messageChangeInBatch, messageInsertStatements, messageSender, personReplied } from "./new-messages";
import { messageNotifications } from "./notifications";
import { type ConversationRow, type MessageRow } from "./rows";
import { reindexMessages } from "./search-index";
import { attachmentInsertStatements, attachmentKeysQuery } from "../attachments/attachments";
import { type CheckedFile, removeObjects, storeFiles } from "../attachments/uploads";
import type { MessageList, MessageResult } from "./message-results";
export type { MessageList, MessageResult };

const { conversations, messages, inboxes, contacts, contactInboxes, taggings, attachments } = schema;

/** A message with what its view shows of the conversation. */
export type MessageInput = {
  /** may be left out when the message carries files */
  content?: string;
  /** files already checked (`checkUploads`); stored in R2 only once the message is known to be accepted */
  files?: CheckedFile[];
  messageType?: "incoming" | "outgoing";
  private?: boolean;
  contentType?: (typeof CONTENT_TYPES)[number];
  contentAttributes?: Record<string, unknown>;
  campaignId?: number;
  templateParams?: Record<string, unknown>;
  echoId?: string;
  sourceId?: string;
  /**
   * Who the client says sends it (`sender_type`, `sender_id`): only the caller itself, a user by its id
   * or an agent bot key by its bot's id. Nobody posts as someone else (a system bot included).
   */
  senderType?: "AgentBot";
  senderId?: number;
  /** content attributes a channel writes itself (an inbound mail's `email`, `cc_email`); never from a client */
  channelAttributes?: Record<string, unknown>;
};

/**
 * Content attributes the service itself writes: a delete's mark, the rule that sent a message, a failed
 * delivery's error, a contact's answers to an interactive message, a CSAT survey's display, and what
 * channels record of the provider's message (Chatwoot's reply-to external id, mail, story, translations).
 * A client's values for them are dropped: a message cannot be made to look deleted, answered or sent by
 * a rule.
 */
export const SERVER_CONTENT_ATTRIBUTES = new Set([
  "deleted",
  "automation_rule_id",
  "external_error",
  "submitted_values",
  "submitted_email",
  "display_type",
  "in_reply_to_external_id",
  "external_created_at",
  "is_unsupported",
  "translations",
  "email",
  "story_id",
  "story_sender",
]);

/** The client's content attributes without those the service owns; the rule's id when a rule sends. */
function contentAttributesFor(scope: AccountScope, given: Record<string, unknown> | undefined): Record<string, unknown> {
  const own = Object.fromEntries(Object.entries(given ?? {}).filter(([key]) => !SERVER_CONTENT_ATTRIBUTES.has(key)));
  return scope.actor.type === "automation_rule" ? { ...own, automation_rule_id: scope.actor.ruleId } : own;
}

/** 422 on `sender_id` unless it names the caller: the user itself, or the bot whose key calls. */
function checkNamedSender(scope: AccountScope, input: MessageInput) {
  if (input.senderId === undefined && input.senderType === undefined) return;
  const { actor } = scope;
  const caller = actor.type === "agent_bot" ? { type: "AgentBot", id: actor.bot.id } : actor.type === "user" ? { type: "User", id: actor.user.id } : null;
  const named = { type: input.senderType ?? caller?.type, id: input.senderId };
  if (!caller || named.type !== caller.type || (named.id !== undefined && named.id !== caller.id)) {
    throw invalidField("sender_id", "may only name the caller itself (the user, or the agent bot whose key sends)", "not_the_caller");
  }
}

/**
 * A new message, in one write batch after authentication: what it does to its conversation (reopening,
 * the wait, the first reply, their events, counters and facts) is decided in SQL over the conversation's
 * row inside that batch (`messageChangeInBatch`), and the answer is built from what the batch returns.
 * The checks ride in it too: the message's conversation id is a subquery that finds no row when the
 * conversation is unknown or out of the caller's reach, or takes no incoming message, so the NOT NULL
 * column refuses the batch and nothing is written; only then `checkMessageTarget` reads to name the error.
 */
export async function createMessage(scope: AccountScope, displayId: number, input: MessageInput): Promise<MessageResult> {
  checkNamedSender(scope, input);
  const files = input.files ?? [];
  // without content the message is refused, after the checks of its conversation that come first
  if (input.content === undefined && files.length === 0) await checkMessageTarget(scope, displayId, input);
  const write = () => writeNewMessage(scope, displayId, input, files);
  return writeCheckedByConstraints(write, async () => {
    await checkMessageTarget(scope, displayId, input);
    return write();
  });
}

const messageTypeOf = (input: MessageInput) => (input.messageType === "incoming" ? MESSAGE_TYPE.incoming : MESSAGE_TYPE.outgoing);

/** An incoming message needs an API inbox, unless a contact writes through the public widget API (API and website inboxes). */
const takesIncoming = (scope: AccountScope, messageType: number) => messageType !== MESSAGE_TYPE.incoming || scope.actor.type === "contact";

/** 404, 403 and 422 as a new message's checks name them, in their order; returns when none applies. */
async function checkMessageTarget(scope: AccountScope, displayId: number, input: MessageInput): Promise<void> {
  const inbox = scope.db
    .select({ channelType: inboxes.channelType })
    .from(inboxes)
    .where(and(eq(inboxes.accountId, scope.accountId), sql`${inboxes.id} = ${conversationColumn(scope, displayId, conversations.inboxId)}`));
  const { extra } = await readConversation(scope, displayId, [inbox]);
  if (!takesIncoming(scope, messageTypeOf(input)) && extra[0][0]?.channelType !== "Channel::Api") {
    throw invalidField("message_type", "incoming messages are only allowed in API inboxes", "incoming_not_allowed");
  }
  if (input.content === undefined && (input.files ?? []).length === 0) throw invalidField("content", "is required (unless the message carries attachments)", "required");
}

async function writeNewMessage(scope: AccountScope, displayId: number, input: MessageInput, files: CheckedFile[]): Promise<MessageResult> {
  const { db, accountId } = scope;
  const messageType = messageTypeOf(input);
  const row = and(eq(conversations.accountId, accountId), eq(conversations.displayId, displayId))!;
  // the conversation's columns as the batch finds them, for statements that do not read `conversations`
  const was = (column: SQLiteColumn) => conversationColumn(scope, displayId, column);
  const apiInbox = exists(
    db.select({ one: sql`1` }).from(inboxes).where(and(eq(inboxes.accountId, accountId), eq(inboxes.id, conversations.inboxId), eq(inboxes.channelType, "Channel::Api"))),
  );
  const target = sql<number>`(SELECT ${conversations.id} FROM ${conversations} WHERE ${row} AND ${reachableCondition(scope) ?? sql`1`} AND ${takesIncoming(scope, messageType) ? sql`1` : apiInbox})`;
  const at = now();
  const draft: MessageDraft = {
    messageType,
    sender: messageSender(scope, messageType, { contactId: was(conversations.contactId) }),
    content: input.content ?? "",
    private: input.private ?? false,
    contentType: input.contentType,
    contentAttributes: { ...contentAttributesFor(scope, input.contentAttributes), ...input.channelAttributes },
    // Chatwoot keeps template parameters among the additional attributes
    additionalAttributes: input.templateParams ? { template_params: input.templateParams } : {},
    campaignId: input.campaignId,
    echoId: input.echoId,
    sourceId: input.sourceId,
  };
  const kind = { messageType, private: draft.private ?? false, sender: draft.sender, campaignId: draft.campaignId };
  // the same changes twice: over the bare row (the update, its events and counters), and through subqueries (facts)
  const changes = messageChangeInBatch(scope, kind, at);
  const nextOf = (key: keyof ConversationRow, column: SQLiteColumn) => changes.find((c) => c.key === key)?.next ?? sql`${column}`;
  const status = messageChangeInBatch(scope, kind, at, was).find((c) => c.key === "status");
  const counted = changes.some((c) => c.key === "status" || c.key === "firstReplyCreatedAt" || c.key === "waitingSince");
  const newMessageId = lastInsertedId(messages);
  const senderUserId = draft.sender?.senderType === "User" ? draft.sender.senderId : null;
  const conversation = { id: was(conversations.id), inboxId: was(conversations.inboxId), teamId: was(conversations.teamId), assigneeId: was(conversations.assigneeId) };
  const writes: Statement[] = [
    ...(counted
      ? [counterMoveInBatch(db, accountId, row, { status: nextOf("status", conversations.status), firstReplyCreatedAt: nextOf("firstReplyCreatedAt", conversations.firstReplyCreatedAt), waitingSince: nextOf("waitingSince", conversations.waitingSince) })]
      : []),
    ...changeEventStatementsInBatch(scope, row, changes, at),
    ...(status ? statusMoveStatements(scope, { inboxId: conversation.inboxId, createdAt: was(conversations.createdAt) }, status.was as SQL<number>, status.next as SQL<number>, columnChanges(status)) : []),
    ...messageEventStatements(scope, "message_created", newMessageId, messageType),
    ...messageFactStatements(
      scope,
      { ...conversation, createdAt: was(conversations.createdAt), waitingSince: was(conversations.waitingSince) },
      { messageType, private: kind.private, senderUserId },
      personReplied(kind) ? sql`${was(conversations.firstReplyCreatedAt)} IS NULL` : false,
      at,
    ),
    ...(messageType === MESSAGE_TYPE.incoming
      ? [db.update(contacts).set({ lastActivityAt: at }).where(and(eq(contacts.accountId, accountId), sql`${contacts.id} = ${was(conversations.contactId)}`))]
      : []),
    ...messageNotifications(
      scope,
      conversation,
      { id: newMessageId, messageType, private: kind.private, content: draft.content, assigneeId: conversation.assigneeId },
      at,
    ),
  ];
  const anyChange = changes.length > 0 ? or(...changes.map(columnChanges)) : sql`0`;
  const update = db
    .update(conversations)
    .set({ ...Object.fromEntries(changes.map((c) => [c.key, c.next])), updatedAt: sql`CASE WHEN ${anyChange} THEN ${at} ELSE ${conversations.updatedAt} END` })
    .where(row)
    .returning();
  // Files go to R2 first (the batch refers to their keys) and come out again if the batch fails, so a
  // refused message leaves no object behind.
  const stored = files.length > 0 ? await storeFiles(scope.env, accountId, files, "attachments") : [];
  let results;
  try {
    results = await batchGroups(db, {
      before: [conversationQuery(scope, displayId)],
      inserted: messageInsertStatements(scope, { id: target, inboxId: was(conversations.inboxId) }, draft, at),
      files: attachmentInsertStatements(db, accountId, { conversationId: conversation.id, messageId: newMessageId }, stored, at),
      withFiles: stored.length > 0 ? [messageAttachmentsStatement(scope, newMessageId)] : [],
      writes,
      updated: [update],
      reads: [
        db.select().from(contacts).where(and(eq(contacts.accountId, accountId), sql`${contacts.id} = ${was(conversations.contactId)}`)),
        db.select().from(contactInboxes).where(and(eq(contactInboxes.accountId, accountId), sql`${contactInboxes.id} = ${was(conversations.contactInboxId)}`)),
        usersAsAgentsQuery(db, accountId, eq(schema.users.id, actingUserId(scope) ?? 0)),
        unreadCountsQuery(db, accountId, [conversation.id]),
      ],
    });
  } catch (error) {
    await removeObjects(scope.env, stored.map((f) => f.storageKey));
    throw error;
  }
  const before = results.before[0][0].conversation;
  const [[after]] = results.updated;
  const [contactRows, contactInboxRows, agentRows, unread] = results.reads;
  const message = results.withFiles[0]?.[0] ?? results.inserted[0][0];
  const people: People = { agents: agentRows, contacts: contactRows, bots: scope.actor.type === "agent_bot" ? [scope.actor.bot] : [] };
  const created = { message, sender: senderOf(message, people) };
  // live rooms hear of the committed change (not through the webhook path)
  await scope.ports.rooms.publishMessage(after, created, "message.created");
  await scope.ports.rooms.publishStatusChange(before, after);
  return { message: created, conversation: after, unreadCount: Number(unread[0]?.unread ?? 0), sourceId: contactInboxRows[0]?.sourceId ?? null };
}

/** Latest 20 by default; `before` the 20 before an id; `after` up to 100 after; both: up to 1000 between (Chatwoot's windows). */
function messageWindow(accountId: number, conversationId: SQL<number>, window: MessageWindow) {
  const where = and(
    sql`${messages.conversationId} = ${conversationId}`,
    sameAccount(messages.accountId, accountId),
    window.before !== undefined ? lt(messages.id, window.before) : undefined,
    window.after !== undefined ? gt(messages.id, window.after) : undefined,
  );
  if (window.after !== undefined) return { where, order: asc(messages.id), limit: window.before !== undefined ? 1000 : 100, direction: "newer" as const };
  return { where, order: desc(messages.id), limit: 20, direction: "older" as const };
}

/** `before` and `after` as Chatwoot sends them; `cursor` (from a previous answer) replaces the bound it continues. */
export type MessageWindow = { before?: number; after?: number; cursor?: string };

/**
 * A message list's cursor names its direction and the last message shown: "older" continues before it
 * (as `before` would), "newer" after it (as `after` would), so the other bound of the request still holds.
 */
const MESSAGE_ORDER = "id";
const decodeMessageCursor = (token: string) => decodeCursor(token, MESSAGE_ORDER, (key) => key === "older" || key === "newer");

function windowOf(window: MessageWindow): { before?: number; after?: number } {
  if (window.cursor === undefined) return window;
  const position = decodeMessageCursor(window.cursor);
  return position.key === "older" ? { before: position.id, after: window.after } : { before: window.before, after: position.id };
}

/** The message list, in one round trip: every read is keyed by the conversation's display id. */
export async function listMessages(scope: AccountScope, displayId: number, given: MessageWindow): Promise<MessageList> {
  const { db, accountId } = scope;
  const conversationId = conversationColumn(scope, displayId, conversations.id);
  const { where, order, limit, direction } = messageWindow(accountId, conversationId, windowOf(given));
  // one message beyond the window tells whether another page follows
  const windowIds = sql`SELECT ${messages.id} FROM ${messages} WHERE ${where} ORDER BY ${order} LIMIT ${limit}`;
  const [agentsQ, contactsQ, botsQ] = senderQueries(db, accountId, windowIds, { contactIds: [conversationColumn(scope, displayId, conversations.contactId)] });
  const read = await batchNamed(db, {
    conversation: conversationQuery(scope, displayId),
    messages: db.select().from(messages).where(where).orderBy(order).limit(limit + 1),
    agents: agentsQ,
    contacts: contactsQ,
    bots: botsQ,
    contactInbox: db.select().from(contactInboxes).where(and(eq(contactInboxes.accountId, accountId), sql`${contactInboxes.id} = ${conversationColumn(scope, displayId, conversations.contactInboxId)}`)),
    assignee: usersAsAgentsQuery(db, accountId, sql`${schema.users.id} = ${conversationColumn(scope, displayId, conversations.assigneeId)}`),
    tags: db
      .select({ tag: taggings.tag })
      .from(taggings)
      .where(and(eq(taggings.accountId, accountId), eq(taggings.taggableType, "Conversation"), sql`${taggings.taggableId} = ${conversationId}`))
      .orderBy(taggings.id),
    unread: unreadCountsQuery(db, accountId, [conversationId]),
  });
  const conversation = ensureActionable(displayId, read.conversation[0]);
  const people: People = { agents: read.agents, contacts: read.contacts, bots: read.bots };
  const shown = read.messages.slice(0, limit);
  const last = shown[shown.length - 1];
  const nextCursor = read.messages.length > limit && last ? encodeCursor(MESSAGE_ORDER, { key: direction, id: last.id }) : null;
  const ordered = shown.sort((a, b) => a.id - b.id);
  return {
    conversation,
    messages: ordered.map((message) => ({ message, sender: senderOf(message, people) })),
    contact: read.contacts.find((c) => c.id === conversation.contactId) ?? null,
    assignee: read.assignee[0] ?? null,
    labels: read.tags.map((t) => t.tag),
    unreadCount: Number(read.unread[0]?.unread ?? 0),
    sourceId: read.contactInbox[0]?.sourceId ?? null,
    nextCursor,
  };
}

/** Reads one message of a conversation the caller may act on, plus what its view needs. */
async function readMessage(scope: AccountScope, displayId: number, messageId: number) {
  const { db, accountId } = scope;
  const conversationId = conversationColumn(scope, displayId, conversations.id);
  const [agentsQ, contactsQ, botsQ] = senderQueries(db, accountId, sql`SELECT ${messageId}`);
  const { conversation, extra } = await readConversation(scope, displayId, [
    db.select().from(messages).where(and(eq(messages.accountId, accountId), eq(messages.id, messageId), sql`${messages.conversationId} = ${conversationId}`)),
    db.select({ channelType: inboxes.channelType }).from(inboxes).where(and(eq(inboxes.accountId, accountId), sql`${inboxes.id} = ${conversationColumn(scope, displayId, conversations.inboxId)}`)),
    db.select().from(contactInboxes).where(and(eq(contactInboxes.accountId, accountId), sql`${contactInboxes.id} = ${conversationColumn(scope, displayId, conversations.contactInboxId)}`)),
    agentsQ,
    contactsQ,
    botsQ,
    attachmentKeysQuery(db, accountId, and(eq(attachments.messageId, messageId), sql`${attachments.conversationId} = ${conversationId}`)!),
  ]);
  const [messageRows, inboxRows, contactInboxRows, agentRows, contactRows, botRows, keyRows] = extra;
  const message = messageRows[0];
  if (!message) throw notFound("Message", messageId, "message_id");
  const people: People = { agents: agentRows, contacts: contactRows, bots: botRows };
  return {
    conversation,
    message,
    channelType: inboxRows[0]?.channelType ?? null,
    sender: senderOf(message, people),
    sourceId: contactInboxRows[0]?.sourceId ?? null,
    fileKeys: keyRows.map((r) => r.key),
  };
}

async function writeMessage(
  scope: AccountScope,
  read: Awaited<ReturnType<typeof readMessage>>,
  set: Partial<MessageRow>,
  eventData: Record<string, unknown>,
  alsoWrite: Statement[] = [],
): Promise<MessageResult> {
  const { db, accountId } = scope;
  const at = now();
  // a new content (a delete) reaches the search index in the same batch
  const index = set.content === undefined ? [] : reindexMessages(db, sql`SELECT ${read.message.id}`);
  const results = await batchGroups(db, {
    alsoWrite,
    updated: [db.update(messages).set({ ...set, updatedAt: at }).where(and(eq(messages.accountId, accountId), eq(messages.id, read.message.id))).returning()],
    index,
    events: messageEventStatements(scope, "message_updated", read.message.id, read.message.messageType, eventData),
    unread: [unreadCountsQuery(db, accountId, [read.conversation.id])],
  });
  const [[message]] = results.updated;
  const [unread] = results.unread;
  await scope.ports.rooms.publishMessage(read.conversation, { message, sender: read.sender }, "message.updated");
  return { message: { message, sender: read.sender }, conversation: read.conversation, unreadCount: Number(unread[0]?.unread ?? 0), sourceId: read.sourceId };
}

/**
 * A delivery status reported by the channel: API inboxes only (403 elsewhere, as Chatwoot). A read
 * message does not go back to delivered; `external_error` is kept only with `failed`.
 */
export async function updateMessageStatus(
  scope: AccountScope,
  displayId: number,
  messageId: number,
  input: { status: (typeof MESSAGE_STATUSES)[number]; externalError?: string },
): Promise<MessageResult> {
  const read = await readMessage(scope, displayId, messageId);
  if (read.channelType !== "Channel::Api") throw forbidden("Message status updates are only allowed in API inboxes", "api_inbox_only");
  const status = MESSAGE_STATUS[input.status];
  const current = read.message.status;
  const ignored = current === MESSAGE_STATUS.read && input.status === "delivered";
  if (ignored || status === current) {
    const [unread] = await batch(scope.db, [unreadCountsQuery(scope.db, scope.accountId, [read.conversation.id])]);
    return { message: { message: read.message, sender: read.sender }, conversation: read.conversation, unreadCount: Number(unread[0]?.unread ?? 0), sourceId: read.sourceId };
  }
  const externalError = input.status === "failed" && input.externalError ? { external_error: input.externalError } : {};
  const changed = [{ status: { previous_value: MESSAGE_STATUSES[current], current_value: input.status } }];
  return writeMessage(
    scope,
    read,
    { status, contentAttributes: { ...read.message.contentAttributes, ...externalError } },
    { changed_attributes: changed },
  );
}

/**
 * Chatwoot's retry: a failed message goes back to `sent` without its `external_error`, and is sent
 * again. For an API inbox sending is its callback: the change emits `message_updated` (status failed ->
 * sent), which the webhook machinery delivers to the inbox's `webhook_url` like every message event,
 * with its own retries and, if that fails for good too, `failed` again. Any other status is a 422.
 */
export async function retryMessage(scope: AccountScope, displayId: number, messageId: number): Promise<MessageResult> {
  const read = await readMessage(scope, displayId, messageId);
  const current = read.message.status;
  if (current !== MESSAGE_STATUS.failed) {
    throw invalidField("message_id", `is ${MESSAGE_STATUSES[current]}: only a failed message can be retried`, "not_failed");
  }
  const { external_error: _dropped, ...contentAttributes } = read.message.contentAttributes;
  return writeMessage(
    scope,
    read,
    { status: MESSAGE_STATUS.sent, contentAttributes },
    { changed_attributes: [{ status: { previous_value: "failed", current_value: "sent" } }] },
  );
}

/**
 * Chatwoot translates a message through the Google Translate integration; this service has no
 * translation provider, so a message that exists answers a 422 `no_translation_provider` (an unknown
 * conversation or message is still a 404, one the caller does not reach a 403).
 */
export async function translateMessage(scope: AccountScope, displayId: number, messageId: number): Promise<never> {
  const { extra } = await readConversation(scope, displayId, [
    scope.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.accountId, scope.accountId), eq(messages.id, messageId), sql`${messages.conversationId} = ${conversationColumn(scope, displayId, conversations.id)}`)),
  ]);
  if (!extra[0][0]) throw notFound("Message", messageId, "message_id");
  throw invalidField("", "No translation provider is configured on this service: messages cannot be translated", "no_translation_provider");
}

export const DELETED_CONTENT = "This message was deleted";

/**
 * Chatwoot's soft delete: the row stays, its content is replaced and it is marked deleted. Its files go:
 * their rows in the same batch (so their URLs stop working at once), their objects in R2 right after.
 */
export async function deleteMessage(scope: AccountScope, displayId: number, messageId: number): Promise<MessageResult> {
  const read = await readMessage(scope, displayId, messageId);
  const result = await writeMessage(
    scope,
    read,
    { content: DELETED_CONTENT, processedMessageContent: DELETED_CONTENT, contentType: CONTENT_TYPE.text, contentAttributes: { deleted: true }, attachments: [] },
    { deleted: true },
    [scope.db.delete(attachments).where(and(eq(attachments.accountId, scope.accountId), eq(attachments.messageId, read.message.id)))],
  );
  await removeObjects(scope.env, read.fileKeys);
  return result;
}
