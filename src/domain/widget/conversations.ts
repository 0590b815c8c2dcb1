/**
 * The widget's conversations and messages. Every function takes the chain already checked
 * (src/domain/widget/chain.ts) and acts as the contact through the conversations aggregate, so the
 * public API emits the same events as the account API. The widget never sees private notes or activity
 * messages.
 */
import { and, asc, desc, eq, gt, lt, ne, sql } from "drizzle-orm";
import { type Database, type Statement, now, schema, sameAccount } from "../../db/client";
import { eventStatement } from "../kernel/outbox";
import { createConversation, toggleStatus, updateLastSeen } from "../conversations/conversations";
import { createMessage } from "../conversations/messages";
import { csatAnswerStatement } from "../conversations/csat";
import type { CheckedFile } from "../attachments/uploads";
import { messageEventStatements } from "../conversations/events";
import { type MessageWithSender, type People, senderOf, senderQueries } from "../conversations/loader";
import { toggleTypingIn } from "../conversations/typing";
import type { ConversationRow, MessageRow } from "../conversations/rows";
import type { InboxRow } from "../inboxes/rows";
import type { AgentRow } from "../people/agents";
import type { AgentBotRow } from "../people/rows";
import { CONTENT_TYPE, CONVERSATION_STATUS, MESSAGE_TYPE } from "../kernel/enums";
import { invalidField, notFound } from "../kernel/errors";
import { type TransportScope, performer } from "../kernel/scope";
import { type ContactChain, type ConversationChain, contactScope } from "./chain";
import { checkPublicAttributes } from "./attributes";
import type { PublicConversation } from "./rows";
import { batch } from "../kernel/batch";

const { conversations, messages } = schema;


/** The most conversations the list answers, newest first. */
export const PUBLIC_CONVERSATION_LIMIT = 100;
/** Messages per page of the public messages list (Chatwoot's widget pages by about 20). */
export const PUBLIC_MESSAGE_PAGE = 20;

/** What the widget may see of a conversation's messages: no private notes, no activity messages. */
const publicMessages = (conversation: Pick<ConversationRow, "accountId" | "id">) =>
  and(eq(messages.accountId, conversation.accountId), eq(messages.conversationId, conversation.id), eq(messages.private, false), ne(messages.messageType, MESSAGE_TYPE.activity));

async function withSenders(db: Database, accountId: number, rows: MessageRow[]): Promise<MessageWithSender[]> {
  if (rows.length === 0) return [];
  const ids = sql`SELECT value FROM json_each(${JSON.stringify(rows.map((r) => r.id))})`;
  const [agents, contacts, bots] = await batch(db, [...senderQueries(db, accountId, ids)]);
  const people: People = { agents: agents as AgentRow[], contacts, bots: bots as AgentBotRow[] };
  return rows.map((message) => ({ message, sender: senderOf(message, people) }));
}

/** Each conversation with its latest public message. */
async function toPublicConversations(db: Database, chain: ContactChain, rows: ConversationRow[]): Promise<PublicConversation[]> {
  if (rows.length === 0) return [];
  const latestIds = sql`SELECT (SELECT m.id FROM messages m WHERE m.conversation_id = c.value AND ${sameAccount(sql.raw("m.account_id"), chain.inbox.accountId)} AND m.private = 0 AND m.message_type != ${MESSAGE_TYPE.activity} ORDER BY m.id DESC LIMIT 1) FROM json_each(${JSON.stringify(rows.map((r) => r.id))}) c`;
  const [latest] = await batch(db, [db.select().from(messages).where(and(sameAccount(messages.accountId, chain.inbox.accountId), sql`${messages.id} IN (${latestIds})`))]);
  const shown = await withSenders(db, chain.inbox.accountId, latest);
  return rows.map((conversation) => ({
    conversation,
    contact: chain.contact,
    lastMessage: shown.find((m) => m.message.conversationId === conversation.id) ?? null,
  }));
}

/** The contact inbox's conversations (all of the contact's once verified), newest first. */
export async function listPublicConversations(transport: TransportScope, chain: ContactChain): Promise<PublicConversation[]> {
  const { db } = transport;
  const visible = chain.contactInbox.hmacVerified
    ? eq(conversations.contactId, chain.contact.id)
    : eq(conversations.contactInboxId, chain.contactInbox.id);
  const [rows] = await batch(db, [
    db
      .select()
      .from(conversations)
      .where(and(eq(conversations.accountId, chain.inbox.accountId), visible))
      .orderBy(desc(conversations.id))
      .limit(PUBLIC_CONVERSATION_LIMIT),
  ]);
  return toPublicConversations(db, chain, rows);
}

export async function showPublicConversation(transport: TransportScope, chain: ConversationChain): Promise<PublicConversation> {
  const { db } = transport;
  return (await toPublicConversations(db, chain, [chain.conversation]))[0];
}

/** A new conversation of this contact inbox (custom attributes checked against their definitions). */
export async function createPublicConversation(transport: TransportScope, chain: ContactChain, input: { customAttributes?: Record<string, unknown> }) {
  checkPublicAttributes({ custom_attributes: input.customAttributes });
  const record = await createConversation(contactScope(transport, chain), {
    inboxId: chain.inbox.id,
    contactId: chain.contact.id,
    sourceId: chain.contactInbox.sourceId,
    customAttributes: input.customAttributes,
  });
  return { conversation: record.conversation, contact: chain.contact, lastMessage: null } satisfies PublicConversation;
}

/** toggle_status from the widget only resolves; a resolved conversation stays as it is. */
export async function resolvePublicConversation(transport: TransportScope, chain: ConversationChain): Promise<PublicConversation> {
  if (chain.conversation.status === CONVERSATION_STATUS.resolved) return showPublicConversation(transport, chain);
  const { record } = await toggleStatus(contactScope(transport, chain), chain.conversation.displayId, { status: CONVERSATION_STATUS.resolved });
  return showPublicConversation(transport, { ...chain, conversation: record.conversation });
}

/** update_last_seen: the contact has read the conversation (contact_last_seen_at). */
export async function markPublicConversationSeen(transport: TransportScope, chain: ConversationChain) {
  await updateLastSeen(contactScope(transport, chain), chain.conversation.displayId);
}

export async function togglePublicTyping(transport: TransportScope, chain: ConversationChain, on: boolean) {
  return toggleTypingIn(contactScope(transport, chain), chain.conversation, { on });
}

/** The most messages `after` a message id answers (the widget's catch-up after a reconnect), and between two ids. */
export const PUBLIC_MESSAGES_AFTER = 100;
export const PUBLIC_MESSAGES_BETWEEN = 1000;

/**
 * The public messages, oldest first: the latest page, the page before the message id `before`, up to
 * 100 after the message id `after` (the widget's catch-up after a reconnect), or up to 1,000 between
 * the two (Chatwoot's pages).
 */
export async function listPublicMessages(transport: TransportScope, chain: ConversationChain, page: { before?: number; after?: number } = {}): Promise<MessageWithSender[]> {
  const { db } = transport;
  const { before, after } = page;
  const window = and(publicMessages(chain.conversation), before !== undefined ? lt(messages.id, before) : undefined, after !== undefined ? gt(messages.id, after) : undefined);
  // after alone reads forward from the id; the others read back from the newest
  const forward = after !== undefined && before === undefined;
  const limit = after === undefined ? PUBLIC_MESSAGE_PAGE : before === undefined ? PUBLIC_MESSAGES_AFTER : PUBLIC_MESSAGES_BETWEEN;
  const [rows] = await batch(db, [
    db
      .select()
      .from(messages)
      .where(window)
      .orderBy(forward ? asc(messages.id) : desc(messages.id))
      .limit(limit),
  ]);
  return withSenders(db, chain.inbox.accountId, forward ? rows : rows.reverse());
}

/** An incoming message from the contact, with text, files (already checked) or both. */
export async function createPublicMessage(transport: TransportScope, chain: ConversationChain, input: { content?: string; echoId?: string; files?: CheckedFile[]; inReplyTo?: number | null }) {
  const result = await createMessage(contactScope(transport, chain), chain.conversation.displayId, {
    content: input.content,
    files: input.files,
    messageType: "incoming",
    echoId: input.echoId,
    // the widget's reply to an earlier message (Chatwoot's `reply_to`), shown as a quote
    ...(input.inReplyTo != null && { contentAttributes: { in_reply_to: input.inReplyTo } }),
  });
  return result.message;
}

type CsatSurveyResponse = { rating?: number; feedback_message?: string };

export type SubmittedValue = {
  name?: string;
  title?: string;
  value?: unknown;
  csat_survey_response?: CsatSurveyResponse;
};

/** A list of answers (input_select, form, or a CSAT answer in a list), or the CSAT object Chatwoot's widget sends. */
export type SubmittedValues = SubmittedValue[] | { csat_survey_response: CsatSurveyResponse };

/** The interactive messages a contact may answer. */
const ANSWERABLE = new Set<number>([CONTENT_TYPE.input_select, CONTENT_TYPE.form, CONTENT_TYPE.input_csat]);

/** Chatwoot locks a CSAT answer this long after the survey was sent, unless the inbox says otherwise. */
const DEFAULT_CSAT_EXPIRY_HOURS = 336;

/** How long after it was sent a CSAT survey takes answers: the inbox's csat_expiry_hours, or 14 days. */
export function csatExpiryHours(inbox: InboxRow): number {
  const configured = Number(inbox.csatConfig.csat_expiry_hours);
  return Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_CSAT_EXPIRY_HOURS;
}

export const csatSurveyLocked = (inbox: InboxRow, survey: MessageRow, at = now()) => at - survey.createdAt > csatExpiryHours(inbox) * 3_600_000;

/**
 * The contact answers an interactive message (input_select, form, input_csat) with `submitted_values`;
 * a CSAT answer is refused once the survey is older than the inbox's csat_expiry_hours (14 days).
 */
export async function submitMessageValues(transport: TransportScope, chain: ConversationChain, messageId: number, values: SubmittedValues): Promise<MessageWithSender> {
  const { db } = transport;
  const [rows] = await batch(db, [
    db.select().from(messages).where(and(eq(messages.id, messageId), publicMessages(chain.conversation))),
  ]);
  const message = rows[0];
  if (!message) throw notFound("Message", messageId, "message_id");
  if (!ANSWERABLE.has(message.contentType)) {
    throw invalidField("submitted_values", "can only answer input_select, form and input_csat messages", "not_interactive");
  }
  const isCsat = message.contentType === CONTENT_TYPE.input_csat;
  const asList = Array.isArray(values);
  if (!isCsat && !asList) throw invalidField("submitted_values", "must be a list of answers", "invalid_type");
  // the rating, wherever the shape puts it, and the field a missing one is reported on
  const answer = asList ? values.find((v) => v.csat_survey_response?.rating !== undefined)?.csat_survey_response : values.csat_survey_response;
  if (isCsat) {
    if (csatSurveyLocked(chain.inbox, message)) {
      const days = Math.round(csatExpiryHours(chain.inbox) / 24);
      throw invalidField("submitted_values", `You cannot update the CSAT survey after ${days} days`, "csat_expired");
    }
    if (answer?.rating === undefined) {
      throw invalidField(`submitted_values${asList ? "[0]" : ""}.csat_survey_response.rating`, "is required", "required");
    }
  }
  const scope = contactScope(transport, chain);
  const at = now();
  // the answer goes to csat_survey_responses, which the CSAT reports read
  const csat = isCsat && answer?.rating !== undefined ? [csatAnswerStatement(scope, chain.conversation, message, { rating: answer.rating, feedbackMessage: answer.feedback_message ?? null }, at)] : [];
  return writeAnswer(transport, chain, message, { submitted_values: values }, csat, at);
}

/** The contact's answer written on the message, with its message_updated event, then shown to the room. */
async function writeAnswer(transport: TransportScope, chain: ConversationChain, message: MessageRow, answer: Record<string, unknown>, also: Statement[] = [], at = now()) {
  const { db } = transport;
  const scope = contactScope(transport, chain);
  const contentAttributes = { ...message.contentAttributes, ...answer };
  const changed = [{ content_attributes: { previous_value: message.contentAttributes, current_value: contentAttributes } }];
  const [updated] = await batch(db, [
    db.update(messages).set({ contentAttributes, updatedAt: at }).where(and(eq(messages.accountId, message.accountId), eq(messages.id, message.id))).returning(),
    ...messageEventStatements(scope, "message_updated", message.id, message.messageType, { changed_attributes: changed }),
    ...also,
  ]);
  const [shown] = await withSenders(db, chain.inbox.accountId, updated);
  await scope.ports.rooms.publishMessage(chain.conversation, shown, "message.updated");
  return shown;
}

/**
 * The e-mail a visitor typed into an `input_email` message (the widget's "get notified by e-mail"):
 * kept on the message as `submitted_email`. The contact's own e-mail is the caller's to update, by the
 * public contact rules (an address another contact holds stays the visitor's claim).
 */
export async function submitEmailAnswer(transport: TransportScope, chain: ConversationChain, messageId: number, email: string): Promise<MessageWithSender> {
  const { db } = transport;
  const [rows] = await batch(db, [db.select().from(messages).where(and(eq(messages.id, messageId), publicMessages(chain.conversation)))]);
  const message = rows[0];
  if (!message) throw notFound("Message", messageId, "message_id");
  if (message.contentType !== CONTENT_TYPE.input_email) throw invalidField("contact.email", "answers only an input_email message", "not_interactive");
  return writeAnswer(transport, chain, message, { submitted_email: email });
}

/** webwidget_triggered: the widget was opened; webhooks get the ContactInbox with the widget's event_info. */
export async function triggerWidgetEvent(transport: TransportScope, chain: ContactChain, input: { name: string; eventInfo: Record<string, unknown> }) {
  const { db } = transport;
  const scope = contactScope(transport, chain);
  await batch(db, [
    eventStatement(db, {
      accountId: chain.inbox.accountId,
      eventName: "webwidget_triggered",
      subjectType: "ContactInbox",
      subjectId: chain.contactInbox.id,
      data: { name: input.name, event_info: input.eventInfo, performer: performer(scope) },
    }),
  ]);
}


