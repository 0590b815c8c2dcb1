/**
 * What a webhook receives for each outbox event: Chatwoot's payload for the event's subject, built when
 * the event is fanned out (as Chatwoot builds it in its delivery job), plus `event` and, for updates,
 * `changed_attributes`. One builder per subject type.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { type Database, schema } from "../db/client";
import { CONTENT_TYPE, CONTENT_TYPES, MESSAGE_TYPES, enumName } from "../domain/kernel/enums";
import { WIDGET_CHANNEL, loadInboxRecord } from "../domain/inboxes/inboxes";
import { type ConversationRecord, loadConversationRecords, senderOf, senderQueries } from "../domain/conversations/loader";
import type { MessageRow } from "../domain/conversations/rows";
import { conversationView } from "../views/conversations";
import { inboxView } from "../views/inboxes";
import { contactPushView, senderView } from "../views/messages";
import { contentAttributesView, messageAttachmentsView } from "../views/attachments";
import { iso } from "../views/time";
import { batch } from "../domain/kernel/batch";
import type { OutboxRow } from "../domain/kernel/outbox";

const { accounts, contacts, contactInboxes, conversations, inboxes, messages, users } = schema;

type Payload = Record<string, unknown>;
type Builder = (db: Database, env: Env, event: OutboxRow) => Promise<Payload | null>;

async function conversationRecord(db: Database, accountId: number, conversationId: number) {
  const [rows] = await batch(db, [
    db.select().from(conversations).where(and(eq(conversations.accountId, accountId), eq(conversations.id, conversationId))),
  ]);
  return rows[0] ? (await loadConversationRecords(db, accountId, rows))[0] : null;
}

const BUILDERS: Record<string, Builder> = {
  Inbox: async (db, env, event) => {
    const record = await loadInboxRecord(db, event.accountId, event.subjectId);
    return record ? inboxView(record, { isAdministrator: false, widgetBaseUrl: env.FRONTEND_URL, inboundEmailDomain: env.INBOUND_EMAIL_DOMAIN }) : null;
  },

  /** Chatwoot's contact webhook form (no `type`, unlike the contact as a message sender). */
  Contact: async (db, _env, event) => {
    const [rows, accountRows] = await batch(db, [
      db.select().from(contacts).where(and(eq(contacts.accountId, event.accountId), eq(contacts.id, event.subjectId))),
      db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(eq(accounts.id, event.accountId)),
    ]);
    const contact = rows[0];
    if (!contact) return null;
    const { type: _senderType, ...fields } = contactPushView(contact);
    return { account: accountRows[0] ?? null, avatar: contact.avatarUrl ?? "", ...fields };
  },

  Conversation: async (db, _env, event) => {
    const record = await conversationRecord(db, event.accountId, event.subjectId);
    return record && conversationView(record);
  },

  /** Chatwoot's message webhook form: a string message_type, an ISO created_at and the whole conversation. */
  Message: async (db, env, event) => {
    const [rows, accountRows, agents, contacts, bots] = await batch(db, [
      db.select().from(messages).where(and(eq(messages.accountId, event.accountId), eq(messages.id, event.subjectId))),
      db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(eq(accounts.id, event.accountId)),
      ...senderQueries(db, event.accountId, sql`${event.subjectId}`),
    ]);
    const message = rows[0];
    if (!message) return null;
    const record = await conversationRecord(db, event.accountId, message.conversationId);
    if (!record) return null;
    return {
      account: accountRows[0] ?? null,
      additional_attributes: message.additionalAttributes,
      content_attributes: contentAttributesView(message),
      content_type: enumName(CONTENT_TYPES, message.contentType),
      content: deliveredContent(message, record, env.FRONTEND_URL),
      conversation: conversationView(record),
      created_at: iso(message.createdAt),
      id: message.id,
      inbox: { id: message.inboxId, name: record.inbox?.name ?? null },
      message_type: enumName(MESSAGE_TYPES, message.messageType),
      private: message.private,
      sender: senderView(senderOf(message, { agents, contacts, bots })),
      source_id: message.sourceId,
      ...messageAttachmentsView(message),
    };
  },
};

/** Chatwoot's contact webhook form (no `type`, unlike the contact as a message sender). */
async function contactObject(db: Database, accountId: number, contactId: number): Promise<Payload | null> {
  return BUILDERS.Contact(db, {} as Env, { accountId, subjectId: contactId } as OutboxRow);
}

/** Typing (a live event, src/events/live.ts): `{ user, conversation, is_private }`, the typer a User or a Contact object. */
async function typingPayload(db: Database, event: OutboxRow): Promise<Payload | null> {
  const typer = event.data.user as { type: string; id: number } | undefined;
  const conversation = await conversationRecord(db, event.accountId, event.subjectId);
  if (!typer || !conversation) return null;
  let user: Payload | null;
  if (typer.type === "contact") user = await contactObject(db, event.accountId, typer.id);
  else {
    const [rows] = await batch(db, [db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(eq(users.id, typer.id))]);
    user = rows[0] ? { ...rows[0], type: "user" } : null;
  }
  return { user, conversation: conversationView(conversation), is_private: event.data.is_private === true };
}

/** webwidget_triggered: Chatwoot's ContactInbox object `{ id, contact, inbox, account, current_conversation, source_id }`. */
async function contactInboxPayload(db: Database, event: OutboxRow): Promise<Payload | null> {
  const [rows, accountRows] = await batch(db, [
    db.select().from(contactInboxes).where(and(eq(contactInboxes.accountId, event.accountId), eq(contactInboxes.id, event.subjectId))),
    db.select({ id: accounts.id, name: accounts.name }).from(accounts).where(eq(accounts.id, event.accountId)),
  ]);
  const contactInbox = rows[0];
  if (!contactInbox) return null;
  const [inboxRows, latest] = await batch(db, [
    db.select({ id: inboxes.id, name: inboxes.name }).from(inboxes).where(and(eq(inboxes.accountId, event.accountId), eq(inboxes.id, contactInbox.inboxId))),
    db.select().from(conversations).where(and(eq(conversations.accountId, event.accountId), eq(conversations.contactInboxId, contactInbox.id))).orderBy(desc(conversations.id)).limit(1),
  ]);
  const current = latest[0] ? (await loadConversationRecords(db, event.accountId, latest))[0] : null;
  return {
    id: contactInbox.id,
    contact: await contactObject(db, event.accountId, contactInbox.contactId),
    inbox: inboxRows[0] ?? null,
    account: accountRows[0] ?? null,
    current_conversation: current ? conversationView(current) : null,
    source_id: contactInbox.sourceId,
  };
}

/** The payload of `event`, or null when its subject no longer exists (or has no webhook form). */
export async function buildWebhookPayload(db: Database, env: Env, event: OutboxRow): Promise<Payload | null> {
  if (event.eventName.startsWith("conversation_typing_")) {
    const typing = await typingPayload(db, event);
    return typing && { event: event.eventName, ...typing };
  }
  const builder = event.subjectType === "ContactInbox" ? (d: Database, _e: Env, ev: OutboxRow) => contactInboxPayload(d, ev) : BUILDERS[event.subjectType];
  const subject = builder ? await builder(db, env, event) : null;
  if (!subject) return null;
  const changes = event.data.changed_attributes;
  const eventInfo = event.data.event_info;
  return {
    ...subject,
    event: event.eventName,
    ...(changes !== undefined && { changed_attributes: changes }),
    ...(eventInfo !== undefined && { event_info: eventInfo }),
  };
}

/**
 * A CSAT survey outside the widget (an API inbox's callback, a webhook) cannot be answered in place, so
 * its text carries the survey page's link (src/pages/csat-survey.ts), as Chatwoot's does.
 */
function deliveredContent(message: MessageRow, record: ConversationRecord, frontendUrl: string) {
  if (message.contentType !== CONTENT_TYPE.input_csat || record.inbox?.channelType === WIDGET_CHANNEL) return message.content;
  const link = new URL(`/survey/responses/${record.conversation.uuid}`, frontendUrl).toString();
  return message.content ? `${message.content} ${link}` : link;
}
