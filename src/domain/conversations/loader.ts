/**
 * The conversation loader: what the conversation and message views show, for many conversations in one
 * batch.
 *
 * `conversationRecordQueries` builds the statements from conversation rows (or, inside a write batch, from
 * a row whose id is `lastInsertedId(...)`); the caller runs them in its own batch and hands the results to
 * `assembleConversationRecords`. `loadConversationRecords` does both in one round trip.
 */
import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type Database, schema, sameAccount } from "../../db/client";
import { type BatchResults, batchGroups } from "../kernel/batch";
import { MESSAGE_TYPE } from "../kernel/enums";
import { type AgentRow, usersAsAgentsQuery } from "../people/agents";
import { type AgentBotRow } from "../people/rows";
import { usableBy } from "../people/agent-bots";
import type { ContactInboxRow, ContactRow } from "../contacts/rows";
import type { InboxRow } from "../inboxes/rows";
import type { TeamRow } from "../people/rows";
import type { ConversationRow, MessageRow, MessageWithSender, Sender } from "./rows";

const { users, agentBots, contacts, contactInboxes, inboxes, teams, taggings, messages } = schema;

/**
 * A stored value written into the SQL text rather than bound: these statements sit near D1's 100 bound
 * parameters, and a constant needs no parameter.
 */
const inline = (value: number) => sql.raw(String(value));

/** Declared with the rows (the live-room port names them without reaching this module). */
export type { MessageWithSender, Sender };

export type ConversationRecord = {
  conversation: ConversationRow;
  contact: ContactRow | null;
  contactInbox: ContactInboxRow | null;
  inbox: InboxRow | null;
  assignee: AgentRow | null;
  assigneeBot: AgentBotRow | null;
  team: TeamRow | null;
  labels: string[];
  /** the latest message of any kind (Chatwoot's `messages` holds only this one) */
  lastMessage: MessageWithSender | null;
  lastNonActivityMessage: MessageWithSender | null;
  /** incoming messages after agent_last_seen_at, at most UNREAD_CAP */
  unreadCount: number;
};

/** Chatwoot stops counting unread messages at 10. */
export const UNREAD_CAP = 10;

/** A value bound as a parameter, or a subquery of the same batch (e.g. `lastInsertedId`). */
export type Ref = number | SQL<number>;

/** What the loader needs of a conversation; ids may refer to rows inserted earlier in the batch. */
export type ConversationTarget = Pick<ConversationRow, "contactId" | "assigneeId" | "assigneeAgentBotId" | "teamId" | "inboxId"> & {
  id: Ref;
  contactInboxId: Ref;
};

const list = (values: Ref[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);
const values = (rows: Ref[][]) => sql.join(rows.map((r) => sql`(${list(r)})`), sql`, `);

/** The id of the latest message of each conversation (optionally ignoring activity messages), via messages_conversation_id. */
function latestMessageIds(accountId: number, ids: Ref[], nonActivity: boolean) {
  const filter = nonActivity ? sql` AND m.message_type != ${inline(MESSAGE_TYPE.activity)}` : sql``;
  return sql`SELECT (SELECT max(m.id) FROM messages m WHERE m.conversation_id = v.column1 AND ${sameAccount(sql.raw("m.account_id"), inline(accountId))}${filter}) FROM (VALUES ${values(ids.map((id) => [id]))}) v`;
}

/** The users, contacts and bots who sent the messages whose ids `messageIds` selects. */
export function senderQueries(db: Database, accountId: number, messageIds: SQL, extra: { userIds?: Ref[]; contactIds?: Ref[]; botIds?: Ref[] } = {}) {
  const sentBy = (type: string) => sql`SELECT sender_id FROM messages WHERE sender_type = ${type} AND ${sameAccount(sql.raw("account_id"), inline(accountId))} AND id IN (${messageIds})`;
  const idIn = (column: SQLiteColumn, ids: Ref[] | undefined) => (ids?.length ? sql`${column} IN (${list(ids)})` : undefined);
  return [
    usersAsAgentsQuery(db, accountId, or(idIn(users.id, extra.userIds), sql`${users.id} IN (${sentBy("User")})`)),
    db
      .select()
      .from(contacts)
      // `+` keeps SQLite off the account's index (a walk of every contact of the account): the ids are looked up by key
      .where(and(sameAccount(contacts.accountId, accountId), or(idIn(contacts.id, extra.contactIds), sql`${contacts.id} IN (${sentBy("Contact")})`))),
    db
      .select()
      .from(agentBots)
      .where(and(usableBy(accountId), or(idIn(agentBots.id, extra.botIds), sql`${agentBots.id} IN (${sentBy("AgentBot")})`))),
  ] as const;
}

export type People = { agents: AgentRow[]; contacts: ContactRow[]; bots: AgentBotRow[] };

export function senderOf(message: MessageRow, people: People): Sender | null {
  const id = message.senderId;
  if (message.senderType === "User") {
    const user = people.agents.find((a) => a.userId === id);
    return user ? { type: "user", user } : null;
  }
  if (message.senderType === "Contact") {
    const contact = people.contacts.find((c) => c.id === id);
    return contact ? { type: "contact", contact } : null;
  }
  if (message.senderType === "AgentBot") {
    const bot = people.bots.find((b) => b.id === id);
    return bot ? { type: "agent_bot", bot } : null;
  }
  return null;
}

/**
 * The unread incoming messages of each conversation (after its stored agent_last_seen_at, so inside a
 * write batch it sees the new value), reading at most UNREAD_CAP index entries each.
 */
export function unreadCountsQuery(db: Database, accountId: number, ids: Ref[]) {
  const c = schema.conversations;
  return db
    .select({
      conversationId: c.id,
      // qualified by hand: drizzle leaves a one-table select's columns bare, which would bind to `m`
      unread: sql<number>`(SELECT count(*) FROM (SELECT 1 FROM messages m WHERE m.conversation_id = conversations.id AND ${sameAccount(sql.raw("m.account_id"), sql.raw("conversations.account_id"))} AND m.message_type = ${inline(MESSAGE_TYPE.incoming)} AND m.created_at > coalesce(conversations.agent_last_seen_at, 0) LIMIT ${UNREAD_CAP}))`,
    })
    .from(c)
    .where(and(sameAccount(c.accountId, inline(accountId)), sql`${c.id} IN (${list(ids)})`));
}

const distinct = <T>(items: Array<T | null>) => [...new Set(items.filter((i): i is T => i !== null))];

/** The statements that load everything the Conversation view shows for `targets` (at most 25 of them). */
export function conversationRecordQueries(db: Database, accountId: number, targets: ConversationTarget[]) {
  const ids = targets.map((t) => t.id);
  const shownMessageIds = sql`${latestMessageIds(accountId, ids, false)} UNION ${latestMessageIds(accountId, ids, true)}`;
  const [agents, people, bots] = senderQueries(db, accountId, shownMessageIds, {
    userIds: distinct(targets.map((t) => t.assigneeId)),
    contactIds: distinct(targets.map((t) => t.contactId)),
    botIds: distinct(targets.map((t) => t.assigneeAgentBotId)),
  });
  const teamIds = distinct(targets.map((t) => t.teamId));
  return [
    db.select().from(messages).where(and(sameAccount(messages.accountId, accountId), sql`${messages.id} IN (${shownMessageIds})`)),
    agents,
    people,
    bots,
    db.select().from(contactInboxes).where(and(sameAccount(contactInboxes.accountId, accountId), sql`${contactInboxes.id} IN (${list(targets.map((t) => t.contactInboxId))})`)),
    db.select().from(inboxes).where(and(eq(inboxes.accountId, accountId), inArray(inboxes.id, distinct(targets.map((t) => t.inboxId))))),
    db.select().from(teams).where(and(eq(teams.accountId, accountId), teamIds.length ? inArray(teams.id, teamIds) : sql`0`)),
    db
      .select({ taggableId: taggings.taggableId, tag: taggings.tag })
      .from(taggings)
      .where(and(eq(taggings.accountId, accountId), eq(taggings.taggableType, "Conversation"), sql`${taggings.taggableId} IN (${list(ids)})`))
      .orderBy(taggings.id),
    unreadCountsQuery(db, accountId, ids),
  ] as const;
}

export type ConversationRecordResults = BatchResults<ReturnType<typeof conversationRecordQueries>>;

/** Joins the loaded rows to each conversation; `rows` are the conversations as stored after the batch. */
export function assembleConversationRecords(rows: ConversationRow[], results: ConversationRecordResults): ConversationRecord[] {
  const [messageRows, agents, contactRows, bots, contactInboxRows, inboxRows, teamRows, tagRows, unread] = results;
  const people: People = { agents, contacts: contactRows, bots };
  const withSender = (message: MessageRow | undefined): MessageWithSender | null =>
    message ? { message, sender: senderOf(message, people) } : null;
  return rows.map((conversation) => {
    const own = messageRows.filter((m) => m.conversationId === conversation.id);
    const latest = own.reduce<MessageRow | undefined>((best, m) => (!best || m.id > best.id ? m : best), undefined);
    const latestNonActivity = own
      .filter((m) => m.messageType !== MESSAGE_TYPE.activity)
      .reduce<MessageRow | undefined>((best, m) => (!best || m.id > best.id ? m : best), undefined);
    return {
      conversation,
      contact: contactRows.find((c) => c.id === conversation.contactId) ?? null,
      contactInbox: contactInboxRows.find((ci) => ci.id === conversation.contactInboxId) ?? null,
      inbox: inboxRows.find((i) => i.id === conversation.inboxId) ?? null,
      assignee: conversation.assigneeId === null ? null : (agents.find((a) => a.userId === conversation.assigneeId) ?? null),
      assigneeBot: conversation.assigneeAgentBotId === null ? null : (bots.find((b) => b.id === conversation.assigneeAgentBotId) ?? null),
      team: conversation.teamId === null ? null : (teamRows.find((t) => t.id === conversation.teamId) ?? null),
      labels: tagRows.filter((t) => t.taggableId === conversation.id).map((t) => t.tag),
      lastMessage: withSender(latest),
      lastNonActivityMessage: withSender(latestNonActivity),
      unreadCount: Number(unread.find((u) => u.conversationId === conversation.id)?.unread ?? 0),
    };
  });
}

/** Rows per loader batch: keeps every statement under D1's 100 bound parameters. */
const CHUNK = 25;

/** Full records for `rows`, in their order, in one round trip. */
export async function loadConversationRecords(db: Database, accountId: number, rows: ConversationRow[]): Promise<ConversationRecord[]> {
  if (rows.length === 0) return [];
  const chunks: ConversationRow[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) chunks.push(rows.slice(i, i + CHUNK));
  const results = await batchGroups(db, chunks.map((chunk) => conversationRecordQueries(db, accountId, chunk)));
  return chunks.flatMap((chunk, i) => assembleConversationRecords(chunk, results[i]));
}
