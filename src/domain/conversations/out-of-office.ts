/**
 * The out-of-office reply (Chatwoot's OutOfOffisable): a contact who writes while the inbox is closed
 * (its business hours, src/domain/inboxes/business-hours.ts) gets the inbox's `out_of_office_message` as
 * a template message, in API and website inboxes alike. Not when the inbox has no such message, not
 * twice on the same day (on the inbox's clock) in a conversation that already had a template message,
 * and not while an agent is answering (an outgoing message in the last 5 minutes), as Chatwoot.
 * Runs after the incoming message has committed (its message_created event, on the queue).
 */
import { and, desc, eq, gte, sql } from "drizzle-orm";
import { lastInsertedId, now, schema } from "../../db/client";
import { batch, batchNamed } from "../kernel/batch";
import { MESSAGE_TYPE } from "../kernel/enums";
import { type TransportScope, systemScope } from "../kernel/scope";
import { outOfOffice, startOfLocalDay } from "../inboxes/business-hours";
import { messageEventStatements } from "./events";
import { isAutoReplyEmail, messageInsertStatements } from "./new-messages";
import type { MessageRow } from "./rows";

const { messages, conversations, inboxes } = schema;

/** How recent an agent's message keeps the reply back: the conversation is being answered. */
const ANSWERING_WINDOW_MS = 5 * 60 * 1000;

/** Sends the out-of-office reply to the incoming message `messageId` when it is due; answers the reply. */
export async function replyOutOfOffice(transport: TransportScope, accountId: number, messageId: number): Promise<MessageRow | null> {
  const { db } = transport;
  const at = now();
  const ofMessage = (column: typeof messages.conversationId | typeof messages.inboxId) =>
    sql<number>`(SELECT ${column} FROM ${messages} WHERE ${messages.id} = ${messageId} AND ${messages.accountId} = ${accountId})`;
  const read = await batchNamed(db, {
    message: db.select().from(messages).where(and(eq(messages.accountId, accountId), eq(messages.id, messageId))),
    conversation: db.select().from(conversations).where(and(eq(conversations.accountId, accountId), sql`${conversations.id} = ${ofMessage(messages.conversationId)}`)),
    inbox: db.select().from(inboxes).where(and(eq(inboxes.accountId, accountId), sql`${inboxes.id} = ${ofMessage(messages.inboxId)}`)),
  });
  const [message, conversation, inbox] = [read.message[0], read.conversation[0], read.inbox[0]];
  const text = inbox?.outOfOfficeMessage?.trim();
  if (!message || !conversation || !inbox || !text || message.messageType !== MESSAGE_TYPE.incoming || isAutoReplyEmail(message) || !outOfOffice(inbox, at)) return null;

  const since = (from: number, type: number) =>
    db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.accountId, accountId), eq(messages.conversationId, conversation.id), eq(messages.messageType, type), gte(messages.createdAt, from)))
      .orderBy(desc(messages.id))
      .limit(1);
  const recent = await batchNamed(db, {
    templateToday: since(startOfLocalDay(inbox.timezone, at), MESSAGE_TYPE.template),
    answering: since(at - ANSWERING_WINDOW_MS, MESSAGE_TYPE.outgoing),
  });
  if (recent.templateToday.length > 0 || recent.answering.length > 0) return null;

  const scope = systemScope(transport, accountId);
  const [insert, ...index] = messageInsertStatements(scope, conversation, { messageType: MESSAGE_TYPE.template, sender: null, content: text }, at);
  const [inserted] = await batch(db, [insert, ...index, ...messageEventStatements(scope, "message_created", lastInsertedId(messages), MESSAGE_TYPE.template)]);
  const reply = inserted[0];
  await scope.ports.rooms.publishMessage(conversation, { message: reply, sender: null }, "message.created");
  return reply;
}
