/**
 * How a message enters a conversation. Every message, whoever writes it (an agent or a bot replying, a
 * contact writing in, an activity line about a change, next an automation rule), is inserted by
 * `messageInsertStatements`, so that what is stored for a message follows one rule and a searched message
 * enters the search index (search-index.ts) in the same batch; how the new message changes its
 * conversation is `messageChangeInBatch`.
 */
import { type SQL, and, eq, exists, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type Statement, lastInsertedId, schema } from "../../db/client";
import { AGENT_BOT_INBOX_STATUS, CONTENT_TYPE, CONTENT_TYPES, CONVERSATION_STATUS, MESSAGE_TYPE } from "../kernel/enums";
import { type AccountScope, performer } from "../kernel/scope";
import { storedAttachmentsJson } from "../attachments/attachments";
import type { ColumnChange } from "./events";
import type { Ref } from "./loader";
import type { ConversationRow } from "./rows";
import { indexInsertedMessage, isSearchedType } from "./search-index";
import { messageEventStatements } from "./events";

const { messages, agentBotInboxes, conversations, contacts } = schema;

/**
 * Who a message is from, as stored. Activity lines, and the service's own messages, have no sender. A
 * contact writing into a conversation may be known by the conversation's column, read in the batch.
 */
export type MessageSender = { senderType: "User" | "AgentBot"; senderId: number } | { senderType: "Contact"; senderId: Ref };

/** A message to insert: its kind, its sender and what it says. */
export type MessageDraft = {
  messageType: number;
  sender: MessageSender | null;
  content: string;
  private?: boolean;
  contentType?: (typeof CONTENT_TYPES)[number];
  contentAttributes?: Record<string, unknown>;
  additionalAttributes?: Record<string, unknown>;
  campaignId?: number;
  echoId?: string;
  sourceId?: string;
};

/**
 * The sender of a new message of `messageType` written by the scope's actor: an incoming message is the
 * conversation's contact's; otherwise a bot's own, the user's (a macro's user's), or
 * none (automation rules and the system write as the service).
 */
export function messageSender(
  scope: AccountScope,
  messageType: number,
  conversation: { contactId: Ref },
): MessageSender | null {
  const { actor } = scope;
  if (messageType === MESSAGE_TYPE.incoming) return { senderType: "Contact", senderId: conversation.contactId };
  if (actor.type === "agent_bot") return { senderType: "AgentBot", senderId: actor.bot.id };
  if (actor.type === "user" || actor.type === "macro") return { senderType: "User", senderId: actor.user.id };
  if (actor.type === "contact") return { senderType: "Contact", senderId: actor.contact.id };
  return null;
}

/**
 * THE insert of a message into `conversation` (whose id may be `lastInsertedId(conversations)` of the same
 * batch), followed by its search index row when its type is searched: the first statement answers the
 * stored row, and the new message's id is `lastInsertedId(messages)` later in the batch. Put all of them
 * into the batch, in this order.
 */
export function messageInsertStatements(scope: AccountScope, conversation: { id: Ref; inboxId: Ref }, draft: MessageDraft, at: number) {
  const insert = scope.db
    .insert(messages)
    .values({
      accountId: scope.accountId,
      inboxId: conversation.inboxId,
      conversationId: conversation.id,
      messageType: draft.messageType,
      contentType: CONTENT_TYPE[draft.contentType ?? "text"],
      content: draft.content,
      // activity lines have always been stored unprocessed (null), and their views show it
      processedMessageContent: draft.messageType === MESSAGE_TYPE.activity ? null : draft.content,
      private: draft.private ?? false,
      sourceId: draft.sourceId ?? null,
      senderType: draft.sender?.senderType ?? null,
      senderId: draft.sender?.senderId ?? null,
      contentAttributes: draft.contentAttributes ?? {},
      additionalAttributes: draft.additionalAttributes ?? {},
      campaignId: draft.campaignId ?? null,
      echoId: draft.echoId ?? null,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  const index: Statement[] = isSearchedType(draft.messageType) ? [indexInsertedMessage(scope.db)] : [];
  return [insert, ...index] as const;
}

/**
 * Copies the rows of a message's files (inserted earlier in the batch) into the message's `attachments`,
 * answering the message as stored; `messageId` may be `lastInsertedId(messages)`.
 */
export const messageAttachmentsStatement = (scope: AccountScope, messageId: Ref) =>
  scope.db
    .update(messages)
    .set({ attachments: storedAttachmentsJson(scope.accountId, messageId) })
    .where(and(eq(messages.accountId, scope.accountId), sql`${messages.id} = ${messageId}`))
    .returning();

/** The name activity lines give whoever acted ("... by Jane"). */
export const actorName = (scope: AccountScope) => performer(scope)?.name ?? "the system";

/**
 * An activity line ("Conversation was marked resolved by ..."), as Chatwoot adds one for status moves,
 * with its event (activity_message_created: the live feed shows it, webhooks and rules do not).
 */
export const activityMessageStatements = (scope: AccountScope, conversation: Pick<ConversationRow, "id" | "inboxId">, content: string, at: number) => [
  ...messageInsertStatements(scope, conversation, { messageType: MESSAGE_TYPE.activity, sender: null, content }, at),
  ...messageEventStatements(scope, "message_created", lastInsertedId(messages), MESSAGE_TYPE.activity),
];

/** Kinds of new message, as the rules of how they change their conversation read them. */
type NewMessageKind = { messageType: number; private: boolean; sender: MessageSender | null; campaignId?: number | null };

/** Whether a new message is a person's public reply, which ends the wait (Chatwoot's human response). */
export const personReplied = (message: NewMessageKind) =>
  message.messageType === MESSAGE_TYPE.outgoing && !message.private && message.sender?.senderType === "User" && !message.campaignId;

/**
 * How a new message changes its conversation, as Chatwoot does: every non-activity message moves
 * last_activity_at; an incoming one reopens a resolved or snoozed conversation (pending when a bot
 * serves the inbox; never for a muted contact) and starts waiting_since when the contact was not waiting
 * already; a person's public reply ends the wait (and the first one is the first reply). Chatwoot counts
 * only a person's reply as an answer: a bot's message, an automation rule's (no sender here) or a
 * campaign's leaves the contact waiting, and so do private notes and activity lines.
 *
 * The rule is SQL over the conversation's row, so a message decides what it does to its conversation
 * inside its own write batch, reading nothing first. `was` reads a column of the row as it is when the
 * batch runs: the bare column in a statement that reads or updates `conversations` (the default), a
 * subquery elsewhere, or a conversation's draft values as literals when the message is a new
 * conversation's first (its INSERT stores the answer). Answers the changes in this order (events list
 * them in it); a change whose new value equals the old changes nothing.
 */
export function messageChangeInBatch(scope: AccountScope, message: NewMessageKind, at: number, was: (column: SQLiteColumn) => SQL = (column) => sql`${column}`): ColumnChange[] {
  const { open, pending, resolved, snoozed } = CONVERSATION_STATUS;
  const code = (status: number) => sql.raw(String(status));
  const changes: ColumnChange[] = [];
  if (message.messageType !== MESSAGE_TYPE.activity) changes.push({ key: "lastActivityAt", was: was(conversations.lastActivityAt), next: sql`${at}` });
  if (message.messageType === MESSAGE_TYPE.incoming) {
    const blocked = sql`coalesce((SELECT ${contacts.blocked} FROM ${contacts} WHERE ${contacts.accountId} = ${scope.accountId} AND ${contacts.id} = ${was(conversations.contactId)}), 0)`;
    const asleep = sql`${was(conversations.status)} IN (${code(resolved)}, ${code(snoozed)})`;
    const wakes = sql`(${asleep} AND NOT ${blocked})`;
    const botServes = exists(activeInboxBotQuery(scope, was(conversations.inboxId) as SQL<number>));
    changes.push(
      { key: "status", was: was(conversations.status), next: sql`(CASE WHEN ${wakes} THEN (CASE WHEN ${botServes} THEN ${code(pending)} ELSE ${code(open)} END) ELSE ${was(conversations.status)} END)` },
      { key: "snoozedUntil", was: was(conversations.snoozedUntil), next: sql`(CASE WHEN ${wakes} THEN NULL ELSE ${was(conversations.snoozedUntil)} END)` },
      { key: "waitingSince", was: was(conversations.waitingSince), next: sql`coalesce(${was(conversations.waitingSince)}, ${at})` },
    );
  }
  if (personReplied(message)) {
    changes.push(
      { key: "firstReplyCreatedAt", was: was(conversations.firstReplyCreatedAt), next: sql`coalesce(${was(conversations.firstReplyCreatedAt)}, ${at})` },
      { key: "waitingSince", was: was(conversations.waitingSince), next: sql`NULL` },
    );
  }
  return changes;
}

/** The active bot link of the inbox `inboxId` (a bound id or a subquery): a bot serving it makes new conversations pending. */
export const activeInboxBotQuery = (scope: AccountScope, inboxId: Ref) =>
  scope.db
    .select({ id: agentBotInboxes.id })
    .from(agentBotInboxes)
    .where(and(eq(agentBotInboxes.accountId, scope.accountId), sql`${agentBotInboxes.inboxId} = ${inboxId}`, eq(agentBotInboxes.status, AGENT_BOT_INBOX_STATUS.active)));

/**
 * An auto-reply or bulk mail stored by the e-mail channel (`content_attributes.email.auto_reply`): no
 * automatic answer (out-of-office, greeting) and no automation rule runs for it, so two auto-responders
 * never answer each other (Chatwoot's `auto_reply_email?`).
 */
export const isAutoReplyEmail = (message: { contentAttributes: Record<string, unknown> }) =>
  (message.contentAttributes.email as { auto_reply?: unknown } | undefined)?.auto_reply === true;
