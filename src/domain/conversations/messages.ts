/**
 * Messages of a conversation: create (with its effects on the conversation), list, status update, delete.
 */
import { and, asc, desc, eq, gt, lt, sql, type SQL } from "drizzle-orm";
import { type Statement, lastInsertedId, now, schema } from "../../db/client";
import { eventStatement } from "../../events/outbox";
import { type AgentRow, usersAsAgentsQuery } from "../people/agents";
import { type Caller, type ConversationChange, MESSAGE_TYPE, STATUS, callerQueries, callerUserId, changeStatements, conversationColumn, ensureActionable, readConversation, reportingStatement, runBatch, toCaller } from "./changes";
import { CONTENT_TYPES, MESSAGE_STATUSES } from "../kernel/enums";
import { type MessageWithSender, type People, type Ref, type Sender, senderOf, senderQueries, unreadCountsQuery } from "./records";
import { type AccountScope, performer } from "../kernel/scope";
import { forbidden, invalidField, notFound } from "../kernel/errors";
import { type AgentBotRow } from "../people/rows";
import { type ContactInboxRow, type ContactRow } from "../contacts/rows";
import { type ConversationRow, type MessageRow } from "./rows";
import { publishMessage, publishStatusChange } from "../../realtime/publish";

const { conversations, messages, inboxes, agentBotInboxes, contacts, contactInboxes, agentBots, taggings } = schema;

/** A message with what its view shows of the conversation. */
export type MessageResult = {
  message: MessageWithSender;
  conversation: ConversationRow;
  unreadCount: number;
  sourceId: string | null;
};

export type MessageInput = {
  content: string;
  messageType?: "incoming" | "outgoing";
  private?: boolean;
  contentType?: (typeof CONTENT_TYPES)[number];
  contentAttributes?: Record<string, unknown>;
  campaignId?: number;
  templateParams?: Record<string, unknown>;
  echoId?: string;
  sourceId?: string;
  /** a user posting on behalf of a bot */
  senderBotId?: number;
};

/**
 * How a new message changes its conversation, as Chatwoot does: every non-activity message moves
 * last_activity_at; an incoming one reopens a resolved or snoozed conversation (pending when a bot
 * serves the inbox; never for a muted contact) and starts waiting_since; a public outgoing reply ends the
 * wait, and the first one from a person is the first reply.
 */
export function conversationChangeForMessage(
  conversation: ConversationRow,
  message: { messageType: number; private: boolean; senderType: string | null },
  context: { inboxHasActiveBot: boolean; contactBlocked: boolean },
  at: number,
): ConversationChange {
  const change: ConversationChange = {};
  if (message.messageType !== MESSAGE_TYPE.activity) change.lastActivityAt = at;
  if (message.messageType === MESSAGE_TYPE.incoming) {
    const asleep = conversation.status === STATUS.resolved || conversation.status === STATUS.snoozed;
    if (asleep && !context.contactBlocked) {
      change.status = context.inboxHasActiveBot ? STATUS.pending : STATUS.open;
      change.snoozedUntil = null;
    }
    if (conversation.waitingSince === null) change.waitingSince = at;
  }
  if (message.messageType === MESSAGE_TYPE.outgoing && !message.private) {
    if (message.senderType === "User" && conversation.firstReplyCreatedAt === null) change.firstReplyCreatedAt = at;
    change.waitingSince = null;
  }
  return change;
}

/** The stored sender of a new message. */
function senderFor(
  scope: AccountScope,
  messageType: number,
  conversation: ConversationRow,
  onBehalfOf: AgentBotRow | null,
): { senderType: string; senderId: number } {
  if (messageType === MESSAGE_TYPE.incoming) return { senderType: "Contact", senderId: conversation.contactId };
  if (scope.actor.type === "agent_bot") return { senderType: "AgentBot", senderId: scope.actor.bot.id };
  if (onBehalfOf) return { senderType: "AgentBot", senderId: onBehalfOf.id };
  return { senderType: "User", senderId: callerUserId(scope) ?? 0 };
}

/** The insert of a new message (its id is `lastInsertedId(messages)` later in the batch). */
export function messageInsert(
  scope: AccountScope,
  conversation: { id: Ref; inboxId: number },
  input: MessageInput,
  messageType: number,
  sender: { senderType: string; senderId: number },
  at: number,
) {
  return scope.db
    .insert(messages)
    .values({
      accountId: scope.accountId,
      inboxId: conversation.inboxId,
      conversationId: conversation.id,
      messageType,
      contentType: CONTENT_TYPES.indexOf(input.contentType ?? "text"),
      content: input.content,
      processedMessageContent: input.content,
      private: input.private ?? false,
      sourceId: input.sourceId ?? null,
      senderType: sender.senderType,
      senderId: sender.senderId,
      contentAttributes: input.contentAttributes ?? {},
      // Chatwoot keeps template parameters among the additional attributes
      additionalAttributes: input.templateParams ? { template_params: input.templateParams } : {},
      campaignId: input.campaignId ?? null,
      echoId: input.echoId ?? null,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
}

/** message_created / message_updated for every message but activity ones (Chatwoot skips those). */
export function messageEventStatement(scope: AccountScope, eventName: "message_created" | "message_updated", messageId: Ref, messageType: number, data: Record<string, unknown> = {}) {
  if (messageType === MESSAGE_TYPE.activity) return [];
  return [
    eventStatement(scope.db, { accountId: scope.accountId, eventName, subjectType: "Message", subjectId: messageId, data: { performer: performer(scope), ...data } }),
  ];
}

/** Reads that decide a new message: the conversation's inbox, its bot, contact, and the possible senders. */
function messageContextQueries(scope: AccountScope, displayId: number, input: MessageInput) {
  const { db, accountId } = scope;
  const inboxId = conversationColumn(scope, displayId, conversations.inboxId);
  return [
    db.select({ channelType: inboxes.channelType }).from(inboxes).where(and(eq(inboxes.accountId, accountId), sql`${inboxes.id} = ${inboxId}`)),
    db.select({ id: agentBotInboxes.id }).from(agentBotInboxes).where(and(sql`${agentBotInboxes.inboxId} = ${inboxId}`, eq(agentBotInboxes.status, 0))),
    db.select().from(contacts).where(and(eq(contacts.accountId, accountId), sql`${contacts.id} = ${conversationColumn(scope, displayId, conversations.contactId)}`)),
    db.select().from(contactInboxes).where(sql`${contactInboxes.id} = ${conversationColumn(scope, displayId, conversations.contactInboxId)}`),
    usersAsAgentsQuery(db, accountId, eq(schema.users.id, callerUserId(scope) ?? 0)),
    db.select().from(agentBots).where(eq(agentBots.id, input.senderBotId ?? 0)),
  ] as const;
}

export async function createMessage(scope: AccountScope, displayId: number, input: MessageInput): Promise<MessageResult> {
  const { db, accountId } = scope;
  const { conversation, extra } = await readConversation(scope, displayId, [...messageContextQueries(scope, displayId, input)]);
  const [inboxRows, botInboxRows, contactRows, contactInboxRows, agentRows, botRows] = extra;

  const messageType = input.messageType === "incoming" ? MESSAGE_TYPE.incoming : MESSAGE_TYPE.outgoing;
  // a contact writes through the public widget API, whose inboxes (API and website) take its messages
  if (messageType === MESSAGE_TYPE.incoming && inboxRows[0]?.channelType !== "Channel::Api" && scope.actor.type !== "contact") {
    throw invalidField("message_type", "incoming messages are only allowed in API inboxes", "incoming_not_allowed");
  }
  let onBehalfOf: AgentBotRow | null = null;
  if (input.senderBotId !== undefined) {
    const bot = botRows[0];
    if (!bot || (bot.accountId !== null && bot.accountId !== accountId)) {
      throw invalidField("sender_id", `agent bot ${input.senderBotId} does not exist in this account`, "not_found");
    }
    onBehalfOf = bot;
  }
  const contact = contactRows[0] ?? null;
  const at = now();
  const sender = senderFor(scope, messageType, conversation, onBehalfOf);
  const isPrivate = input.private ?? false;
  const change = conversationChangeForMessage(
    conversation,
    { messageType, private: isPrivate, senderType: sender.senderType },
    { inboxHasActiveBot: botInboxRows.length > 0, contactBlocked: contact?.blocked ?? false },
    at,
  );
  const { after, statements } = changeStatements(scope, conversation, change, [], at);
  const writes: Statement[] = [
    messageInsert(scope, conversation, input, messageType, sender, at),
    ...statements,
    ...messageEventStatement(scope, "message_created", lastInsertedId(messages), messageType),
  ];
  if (change.firstReplyCreatedAt) writes.push(reportingStatement(scope, conversation, "first_response", Math.round((at - conversation.createdAt) / 1000), at));
  if (messageType === MESSAGE_TYPE.incoming && contact) {
    writes.push(db.update(contacts).set({ lastActivityAt: at }).where(eq(contacts.id, contact.id)));
  }
  const results = await runBatch(db, [...writes, unreadCountsQuery(db, [after.id])]);
  const [message] = results[0] as MessageRow[];
  const unread = results[results.length - 1] as Array<{ unread: number }>;
  const people: People = { agents: agentRows as AgentRow[], contacts: contact ? [contact] : [], bots: scope.actor.type === "agent_bot" ? [scope.actor.bot] : (botRows as AgentBotRow[]) };
  const created = { message, sender: senderOf(message, people) };
  // live rooms hear of the committed change (not through the webhook path)
  await publishMessage(scope.env, after, created, "message.created");
  await publishStatusChange(scope.env, conversation, after);
  return {
    message: created,
    conversation: after,
    unreadCount: Number(unread[0]?.unread ?? 0),
    sourceId: (contactInboxRows as ContactInboxRow[])[0]?.sourceId ?? null,
  };
}

/** Latest 20 by default; `before` the 20 before an id; `after` up to 100 after; both: up to 1000 between (Chatwoot's windows). */
function messageWindow(conversationId: SQL<number>, window: { before?: number; after?: number }) {
  const where = and(
    sql`${messages.conversationId} = ${conversationId}`,
    window.before !== undefined ? lt(messages.id, window.before) : undefined,
    window.after !== undefined ? gt(messages.id, window.after) : undefined,
  );
  if (window.after !== undefined) return { where, order: asc(messages.id), limit: window.before !== undefined ? 1000 : 100 };
  return { where, order: desc(messages.id), limit: 20 };
}

export type MessageList = {
  conversation: ConversationRow;
  messages: MessageWithSender[];
  contact: ContactRow | null;
  assignee: AgentRow | null;
  labels: string[];
  unreadCount: number;
  sourceId: string | null;
};

/** The message list, in one round trip: every read is keyed by the conversation's display id. */
export async function listMessages(scope: AccountScope, displayId: number, window: { before?: number; after?: number }): Promise<MessageList> {
  const { db, accountId } = scope;
  const conversationId = conversationColumn(scope, displayId, conversations.id);
  const { where, order, limit } = messageWindow(conversationId, window);
  const windowIds = sql`SELECT ${messages.id} FROM ${messages} WHERE ${where} ORDER BY ${order} LIMIT ${limit}`;
  const [agentsQ, contactsQ, botsQ] = senderQueries(db, accountId, windowIds, { contactIds: [conversationColumn(scope, displayId, conversations.contactId)] });
  const [rows, inboxRows, teamRows, messageRows, agentRows, contactRows, botRows, contactInboxRows, assigneeRows, tagRows, unread] = await runBatch(db, [
    db.select().from(conversations).where(and(eq(conversations.accountId, accountId), eq(conversations.displayId, displayId))),
    ...callerQueries(scope),
    db.select().from(messages).where(where).orderBy(order).limit(limit),
    agentsQ,
    contactsQ,
    botsQ,
    db.select().from(contactInboxes).where(sql`${contactInboxes.id} = ${conversationColumn(scope, displayId, conversations.contactInboxId)}`),
    usersAsAgentsQuery(db, accountId, sql`${schema.users.id} = ${conversationColumn(scope, displayId, conversations.assigneeId)}`),
    db
      .select({ tag: taggings.tag })
      .from(taggings)
      .where(and(eq(taggings.taggableType, "Conversation"), sql`${taggings.taggableId} = ${conversationId}`))
      .orderBy(taggings.id),
    unreadCountsQuery(db, [conversationId]),
  ]);
  const caller = toCaller(scope, inboxRows as Array<{ inboxId: number }>, teamRows as Array<{ teamId: number }>);
  const conversation = ensureActionable(caller, displayId, (rows as ConversationRow[])[0]);
  const people: People = { agents: agentRows as AgentRow[], contacts: contactRows as ContactRow[], bots: botRows as AgentBotRow[] };
  const ordered = (messageRows as MessageRow[]).sort((a, b) => a.id - b.id);
  return {
    conversation,
    messages: ordered.map((message) => ({ message, sender: senderOf(message, people) })),
    contact: (contactRows as ContactRow[]).find((c) => c.id === conversation.contactId) ?? null,
    assignee: (assigneeRows as AgentRow[])[0] ?? null,
    labels: (tagRows as Array<{ tag: string }>).map((t) => t.tag),
    unreadCount: Number((unread as Array<{ unread: number }>)[0]?.unread ?? 0),
    sourceId: (contactInboxRows as ContactInboxRow[])[0]?.sourceId ?? null,
  };
}

/** Reads one message of a conversation the caller may act on, plus what its view needs. */
async function readMessage(scope: AccountScope, displayId: number, messageId: number) {
  const { db, accountId } = scope;
  const conversationId = conversationColumn(scope, displayId, conversations.id);
  const [agentsQ, contactsQ, botsQ] = senderQueries(db, accountId, sql`SELECT ${messageId}`);
  const { conversation, extra } = await readConversation(scope, displayId, [
    db.select().from(messages).where(and(eq(messages.id, messageId), sql`${messages.conversationId} = ${conversationId}`)),
    db.select({ channelType: inboxes.channelType }).from(inboxes).where(sql`${inboxes.id} = ${conversationColumn(scope, displayId, conversations.inboxId)}`),
    db.select().from(contactInboxes).where(sql`${contactInboxes.id} = ${conversationColumn(scope, displayId, conversations.contactInboxId)}`),
    agentsQ,
    contactsQ,
    botsQ,
  ]);
  const [messageRows, inboxRows, contactInboxRows, agentRows, contactRows, botRows] = extra;
  const message = messageRows[0];
  if (!message) throw notFound("Message", messageId, "message_id");
  const people: People = { agents: agentRows as AgentRow[], contacts: contactRows as ContactRow[], bots: botRows as AgentBotRow[] };
  return { conversation, message, channelType: inboxRows[0]?.channelType ?? null, sender: senderOf(message, people), sourceId: contactInboxRows[0]?.sourceId ?? null };
}

async function writeMessage(
  scope: AccountScope,
  read: Awaited<ReturnType<typeof readMessage>>,
  set: Partial<MessageRow>,
  eventData: Record<string, unknown>,
): Promise<MessageResult> {
  const { db } = scope;
  const at = now();
  const results = await runBatch(db, [
    db.update(messages).set({ ...set, updatedAt: at }).where(eq(messages.id, read.message.id)).returning(),
    ...messageEventStatement(scope, "message_updated", read.message.id, read.message.messageType, eventData),
    unreadCountsQuery(db, [read.conversation.id]),
  ]);
  const [message] = results[0] as MessageRow[];
  const unread = results[results.length - 1] as Array<{ unread: number }>;
  await publishMessage(scope.env, read.conversation, { message, sender: read.sender }, "message.updated");
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
  const status = MESSAGE_STATUSES.indexOf(input.status);
  const current = read.message.status;
  const ignored = current === MESSAGE_STATUSES.indexOf("read") && input.status === "delivered";
  if (ignored || status === current) {
    const unchanged = await runBatch(scope.db, [unreadCountsQuery(scope.db, [read.conversation.id])]);
    return { message: { message: read.message, sender: read.sender }, conversation: read.conversation, unreadCount: Number((unchanged[0] as Array<{ unread: number }>)[0]?.unread ?? 0), sourceId: read.sourceId };
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

export const DELETED_CONTENT = "This message was deleted";

/** Chatwoot's soft delete: the row stays, its content is replaced and it is marked deleted. */
export async function deleteMessage(scope: AccountScope, displayId: number, messageId: number): Promise<MessageResult> {
  const read = await readMessage(scope, displayId, messageId);
  return writeMessage(
    scope,
    read,
    { content: DELETED_CONTENT, processedMessageContent: DELETED_CONTENT, contentType: 0, contentAttributes: { deleted: true } },
    { deleted: true },
  );
}

export type { Caller, Sender };
