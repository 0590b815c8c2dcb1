/**
 * What a webhook receives for each outbox event: Chatwoot's payload for the event's subject, built when
 * the event is fanned out (as Chatwoot builds it in its delivery job), plus `event` and, for updates,
 * `changed_attributes`. One builder per subject type.
 */
import { and, eq, sql } from "drizzle-orm";
import { type Database, schema } from "../db/client";
import { CONTENT_TYPES, MESSAGE_TYPES, enumName } from "../domain/kernel/enums";
import { loadInboxRecord } from "../domain/inboxes/inboxes";
import { loadConversationRecords, senderOf, senderQueries } from "../domain/conversations/records";
import { conversationView } from "../views/conversations";
import { inboxView } from "../views/inboxes";
import { contactPushView, senderView } from "../views/messages";
import { iso } from "../views/time";

const { accounts, contacts, conversations, messages } = schema;

export type OutboxRow = typeof schema.eventOutbox.$inferSelect;
type Payload = Record<string, unknown>;
type Builder = (db: Database, env: Env, event: OutboxRow) => Promise<Payload | null>;

async function conversationRecord(db: Database, accountId: number, conversationId: number) {
  const [rows] = await db.batch([
    db.select().from(conversations).where(and(eq(conversations.accountId, accountId), eq(conversations.id, conversationId))),
  ]);
  return rows[0] ? (await loadConversationRecords(db, accountId, rows))[0] : null;
}

const BUILDERS: Record<string, Builder> = {
  Inbox: async (db, env, event) => {
    const record = await loadInboxRecord(db, event.accountId, event.subjectId);
    return record ? inboxView(record, { isAdministrator: false, widgetBaseUrl: env.FRONTEND_URL }) : null;
  },

  /** Chatwoot's contact webhook form (no `type`, unlike the contact as a message sender). */
  Contact: async (db, _env, event) => {
    const [rows, accountRows] = await db.batch([
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
  Message: async (db, _env, event) => {
    const [rows, accountRows, agents, contacts, bots] = await db.batch([
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
      content_attributes: message.contentAttributes,
      content_type: enumName(CONTENT_TYPES, message.contentType),
      content: message.content,
      conversation: conversationView(record),
      created_at: iso(message.createdAt),
      id: message.id,
      inbox: { id: message.inboxId, name: record.inbox?.name ?? null },
      message_type: enumName(MESSAGE_TYPES, message.messageType),
      private: message.private,
      sender: senderView(senderOf(message, { agents, contacts, bots })),
      source_id: message.sourceId,
    };
  },
};

const TYPING_EVENTS = new Set(["conversation_typing_on", "conversation_typing_off"]);

/** The payload of `event`, or null when its subject no longer exists (or has no webhook form). */
export async function buildWebhookPayload(db: Database, env: Env, event: OutboxRow): Promise<Payload | null> {
  const builder = BUILDERS[event.subjectType];
  const subject = builder ? await builder(db, env, event) : null;
  if (!subject) return null;
  // Chatwoot's typing payload: who types (the event's `user`, a user or a contact) in which conversation.
  if (TYPING_EVENTS.has(event.eventName)) {
    return { event: event.eventName, user: event.data.user ?? null, conversation: subject, is_private: event.data.is_private === true };
  }
  const changes = event.data.changed_attributes;
  return { ...subject, event: event.eventName, ...(changes !== undefined && { changed_attributes: changes }) };
}
