/**
 * The data of feed events, in the shapes Chatwoot's ActionCable listener sends and its apps read: a
 * message's push data (the Message record with its `conversation{assignee_id, unread_count,
 * last_activity_at}`), a conversation's push data (the Conversation record: `meta{sender, assignee,
 * team}`, `messages[last]`, `unread_count`, ...), a contact's push data. Built from the committed change
 * right after its batch (src/feed/commit.ts), with the audience's query in the first batch of reads, in
 * one round trip where the shape allows (a message, a contact); null when the subject is gone.
 */
import { and, eq, sql } from "drizzle-orm";
import { type Database, schema } from "../db/client";
import { batch } from "../domain/kernel/batch";
import type { ChangedAttributes, OutboxRow } from "../domain/kernel/outbox";
import { type ConversationRecord, loadConversationRecords, senderOf, senderQueries, unreadCountsQuery } from "../domain/conversations/loader";
import { usersAsAgentsQuery } from "../domain/people/agents";
import { conversationView } from "../views/conversations";
import { contactPushView, messageView } from "../views/messages";
import { agentPushView } from "../views/agents";
import { notificationFeedData } from "../domain/notifications/notifications";
import { notificationFeedPayload } from "../views/notifications";
import type { AudienceQuery, VisitorQuery } from "./audience";

const { conversations, contactInboxes, messages, contacts, users } = schema;

export type FeedData = Record<string, unknown>;
/** An event's data, and the users (and the visitors' contact inboxes) its audience's queries found. */
export type FeedBuilt = { data: FeedData; userIds: number[]; contactInboxIds?: number[] };

const userIdsOf = (rows: Array<{ userId: number }>) => rows.map((r) => r.userId);
const contactInboxIdsOf = (rows: Array<{ contactInboxId: number }>) => rows.map((r) => r.contactInboxId);

/** The conversation's record, and the audience and visitors read with its row. */
async function conversationRecord(db: Database, accountId: number, conversationId: number, audience: AudienceQuery, visitors: VisitorQuery) {
  const [rows, audienceRows, visitorRows] = await batch(db, [
    db.select().from(conversations).where(and(eq(conversations.accountId, accountId), eq(conversations.id, conversationId))),
    audience,
    visitors,
  ]);
  const record: ConversationRecord | null = rows[0] ? ((await loadConversationRecords(db, accountId, rows))[0] ?? null) : null;
  return { record, userIds: userIdsOf(audienceRows), contactInboxIds: contactInboxIdsOf(visitorRows) };
}

/**
 * message.created / message.updated: the message as the conversation's messages show it, read in one
 * round trip with what its view shows of the conversation (display id, assignee, unread count, last
 * activity, the contact inbox's source id).
 */
export async function messagePayload(db: Database, row: OutboxRow, audience: AudienceQuery, visitors: VisitorQuery): Promise<FeedBuilt | null> {
  const { accountId, subjectId } = row;
  const conversationId = sql<number>`(SELECT ${messages.conversationId} FROM ${messages} WHERE ${messages.id} = ${subjectId} AND ${messages.accountId} = ${accountId})`;
  const [rows, agents, contactRows, bots, conversationRows, contactInboxRows, unread, audienceRows, visitorRows] = await batch(db, [
    db.select().from(messages).where(and(eq(messages.accountId, accountId), eq(messages.id, subjectId))),
    ...senderQueries(db, accountId, sql`${subjectId}`),
    db.select().from(conversations).where(and(eq(conversations.accountId, accountId), sql`${conversations.id} = ${conversationId}`)),
    db
      .select()
      .from(contactInboxes)
      .where(and(eq(contactInboxes.accountId, accountId), sql`${contactInboxes.id} = (SELECT ${conversations.contactInboxId} FROM ${conversations} WHERE ${conversations.id} = ${conversationId})`)),
    unreadCountsQuery(db, accountId, [conversationId]),
    audience,
    visitors,
  ]);
  const [message] = rows;
  const [conversation] = conversationRows;
  if (!message || !conversation) return null;
  const sender = senderOf(message, { agents, contacts: contactRows, bots });
  const context = {
    displayId: conversation.displayId,
    assigneeId: conversation.assigneeId,
    unreadCount: Number(unread[0]?.unread ?? 0),
    lastActivityAt: conversation.lastActivityAt,
    sourceId: contactInboxRows[0]?.sourceId ?? null,
  };
  const changes = previousChanges(row.data.changed_attributes);
  return { data: { ...messageView({ message, sender }, context), ...changes }, userIds: userIdsOf(audienceRows), contactInboxIds: contactInboxIdsOf(visitorRows) };
}

/**
 * An update's `previous_changes` as Chatwoot's message push data has it, `{attribute: [before, after]}`
 * (the widget raises `chatwoot:on-message` when `content_attributes` gained `submitted_values`), from the
 * outbox row's `changed_attributes`; nothing for a row without them.
 */
function previousChanges(changed: unknown): { previous_changes?: Record<string, [unknown, unknown]> } {
  if (!Array.isArray(changed) || changed.length === 0) return {};
  const pairs: Record<string, [unknown, unknown]> = {};
  for (const entry of changed as ChangedAttributes) {
    for (const [attribute, { previous_value, current_value }] of Object.entries(entry)) pairs[attribute] = [previous_value, current_value];
  }
  return { previous_changes: pairs };
}

/** conversation.* and assignee.changed / team.changed: the conversation's push data (with what changed, when known). */
export async function conversationPayload(db: Database, row: OutboxRow, audience: AudienceQuery, visitors: VisitorQuery): Promise<FeedBuilt | null> {
  const { record, userIds, contactInboxIds } = await conversationRecord(db, row.accountId, row.subjectId, audience, visitors);
  if (!record) return null;
  const changes = row.data.changed_attributes;
  return { data: { ...conversationView(record), ...(changes !== undefined && { changed_attributes: changes }) }, userIds, contactInboxIds };
}

/** conversation.typing_on / _off: `{conversation, user, is_private}`, the typer a user or a contact. */
export async function typingPayload(db: Database, row: OutboxRow, audience: AudienceQuery, visitors: VisitorQuery): Promise<FeedBuilt | null> {
  const typer = row.data.user as { type?: string; id?: number } | undefined;
  if (!typer || typeof typer.id !== "number") return null;
  const [{ record, userIds, contactInboxIds }, [agentRows, contactRows]] = await Promise.all([
    conversationRecord(db, row.accountId, row.subjectId, audience, visitors),
    batch(db, [
      usersAsAgentsQuery(db, row.accountId, typer.type === "user" ? eq(users.id, typer.id) : sql`0`),
      db.select().from(contacts).where(and(eq(contacts.accountId, row.accountId), typer.type === "contact" ? eq(contacts.id, typer.id) : sql`0`)),
    ]),
  ]);
  if (!record) return null;
  const user = agentRows[0] ? agentPushView(agentRows[0]) : contactRows[0] ? contactPushView(contactRows[0]) : { id: typer.id, type: typer.type };
  return { data: { conversation: conversationView(record), user, is_private: row.data.is_private === true }, userIds, contactInboxIds };
}

/** contact.*: the contact's push data; a deleted contact's was kept in the event when it was deleted. */
export async function contactPayload(db: Database, row: OutboxRow, audience: AudienceQuery): Promise<FeedBuilt | null> {
  const [rows, audienceRows] = await batch(db, [db.select().from(contacts).where(and(eq(contacts.accountId, row.accountId), eq(contacts.id, row.subjectId))), audience]);
  const userIds = userIdsOf(audienceRows);
  if (rows[0]) return { data: contactPushView(rows[0]), userIds };
  const kept = row.data.contact as FeedData | undefined;
  return kept ? { data: kept, userIds } : null;
}

/**
 * notification.created / .updated / .deleted: the notification (only its id once deleted) with its user's
 * unread and total counts in the account, as Chatwoot's apps update their badge from.
 */
export async function notificationPayload(db: Database, row: OutboxRow, audience: AudienceQuery): Promise<FeedBuilt | null> {
  const userId = row.data.user_id;
  if (typeof userId !== "number") return null;
  // the notification's reads belong to its own aggregate: the audience goes beside them
  const [feed, [audienceRows]] = await Promise.all([notificationFeedData({ db, accountId: row.accountId }, row.subjectId, userId), batch(db, [audience])]);
  return { data: notificationFeedPayload(feed, row.subjectId, row.accountId), userIds: userIdsOf(audienceRows) };
}

/** conversation.mentioned: the conversation's push data, to the user mentioned. */
export const mentionPayload = conversationPayload;
