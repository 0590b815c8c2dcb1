/**
 * Loading conversations as the API shows them (reference §6.5), for any list of conversations, in one
 * read batch: the conversation rows in the caller's order, their latest message and latest non-activity
 * message, the contacts, users and agent bots those refer to, labels, inboxes, contact inboxes and teams.
 *
 * Callers pass an ids query (one `id` column, in display order); every statement selects through it,
 * so nothing depends on a previous round trip and there is no per-conversation query.
 */
import { type SQL, type SQLWrapper, and, eq, sql } from "drizzle-orm";
import { type Database, type Statement, decodeRow, rawSql, schema } from "../db/client";

const { conversations, messages, contacts, users, accountUsers, agentBots, taggings, inboxes, contactInboxes, teams } = schema;

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type ContactRow = typeof contacts.$inferSelect;
export type AgentBotRow = typeof agentBots.$inferSelect;
export type ConversationUser = {
  id: number;
  name: string;
  displayName: string | null;
  email: string;
  avatarUrl: string | null;
  confirmedAt: number | null;
  customAttributes: Record<string, unknown>;
  role: number | null;
  availability: number | null;
  autoOffline: boolean | null;
};
export type ConversationTeam = typeof teams.$inferSelect & { isMember: boolean };

export type ConversationRecord = {
  conversation: ConversationRow;
  /** incoming messages after the agent last looked, capped at 10 as Chatwoot does */
  unreadCount: number;
  lastMessage: MessageRow | null;
  lastNonActivityMessage: MessageRow | null;
  contact: ContactRow | null;
  assignee: ConversationUser | null;
  assigneeBot: AgentBotRow | null;
  team: ConversationTeam | null;
  labels: string[];
  channelType: string | null;
  contactInbox: { sourceId: string; hmacVerified: boolean } | null;
  /** senders of the loaded messages, by "User:1" / "Contact:2" / "AgentBot:3" */
  senders: Map<string, { type: "User"; user: ConversationUser } | { type: "Contact"; contact: ContactRow } | { type: "AgentBot"; bot: AgentBotRow }>;
};

const MESSAGE_ACTIVITY = 2;
const MESSAGE_INCOMING = 0;

/** The statements of the batch; put them in a `db.batch` and hand the results to `toConversationRecords`. */
export function conversationRecordsQueries(db: Database, accountId: number, viewerUserId: number | null, idsQuery: SQL) {
  const ids = sql`SELECT id FROM (${idsQuery})`;
  const inPage = (column: SQLWrapper) => sql`${column} IN (${ids})`;
  const lastIds = sql`
    SELECT (SELECT max(m.id) FROM messages m WHERE m.conversation_id = p.id) FROM (${idsQuery}) p
    UNION SELECT (SELECT max(m.id) FROM messages m WHERE m.conversation_id = p.id AND m.message_type != ${MESSAGE_ACTIVITY}) FROM (${idsQuery}) p`;
  const senderIds = (type: string) => sql`SELECT sender_id FROM messages WHERE id IN (${lastIds}) AND sender_type = ${type}`;
  const pageColumn = (column: string) => sql`SELECT ${sql.identifier(column)} FROM conversations WHERE id IN (${ids})`;

  const userFields = {
    id: users.id,
    name: users.name,
    displayName: users.displayName,
    email: users.email,
    avatarUrl: users.avatarUrl,
    confirmedAt: users.confirmedAt,
    customAttributes: users.customAttributes,
    role: accountUsers.role,
    availability: accountUsers.availability,
    autoOffline: accountUsers.autoOffline,
  };

  return [
    rawSql(
      db,
      sql`SELECT c.*,
        (SELECT max(m.id) FROM messages m WHERE m.conversation_id = c.id) AS last_message_id,
        (SELECT max(m.id) FROM messages m WHERE m.conversation_id = c.id AND m.message_type != ${MESSAGE_ACTIVITY}) AS last_non_activity_message_id,
        (SELECT count(*) FROM (SELECT 1 FROM messages m WHERE m.conversation_id = c.id AND m.message_type = ${MESSAGE_INCOMING}
           AND m.created_at > coalesce(c.agent_last_seen_at, 0) LIMIT 10)) AS unread_count
      FROM (${idsQuery}) AS page CROSS JOIN conversations AS c ON c.id = page.id
      WHERE c.account_id = ${accountId}`,
    ),
    db.select().from(messages).where(sql`${messages.id} IN (${lastIds})`),
    db
      .select()
      .from(contacts)
      .where(sql`${contacts.id} IN (${pageColumn("contact_id")}) OR ${contacts.id} IN (${senderIds("Contact")})`),
    db
      .select(userFields)
      .from(users)
      .leftJoin(accountUsers, and(eq(accountUsers.userId, users.id), eq(accountUsers.accountId, accountId)))
      .where(sql`${users.id} IN (${pageColumn("assignee_id")}) OR ${users.id} IN (${senderIds("User")})`),
    db
      .select()
      .from(agentBots)
      .where(sql`${agentBots.id} IN (${pageColumn("assignee_agent_bot_id")}) OR ${agentBots.id} IN (${senderIds("AgentBot")})`),
    db
      .select({ taggableId: taggings.taggableId, tag: taggings.tag })
      .from(taggings)
      .where(and(eq(taggings.accountId, accountId), eq(taggings.taggableType, "Conversation"), inPage(taggings.taggableId)))
      .orderBy(taggings.tag),
    db.select({ id: inboxes.id, channelType: inboxes.channelType }).from(inboxes).where(sql`${inboxes.id} IN (${pageColumn("inbox_id")})`),
    db
      .select({ id: contactInboxes.id, sourceId: contactInboxes.sourceId, hmacVerified: contactInboxes.hmacVerified })
      .from(contactInboxes)
      .where(sql`${contactInboxes.id} IN (${pageColumn("contact_inbox_id")})`),
    db
      .select({
        team: teams,
        isMember: sql<number>`EXISTS (SELECT 1 FROM team_members tm WHERE tm.team_id = ${teams.id} AND tm.user_id = ${viewerUserId ?? 0})`,
      })
      .from(teams)
      .where(sql`${teams.id} IN (${pageColumn("team_id")})`),
  ] as const satisfies readonly Statement[];
}

type Results<Q extends readonly Statement[]> = { [K in keyof Q]: Q[K] extends { _: { result: infer R } } ? R : never };
export type ConversationBatchResults = Results<ReturnType<typeof conversationRecordsQueries>>;

export function toConversationRecords(results: ConversationBatchResults): ConversationRecord[] {
  const [rows, messageRows, contactRows, userRows, botRows, tagRows, inboxRows, contactInboxRows, teamRows] = results;
  const messagesById = new Map(messageRows.map((m) => [m.id, m]));
  const contactsById = new Map(contactRows.map((c) => [c.id, c]));
  const usersById = new Map(userRows.map((u) => [u.id, u]));
  const botsById = new Map(botRows.map((b) => [b.id, b]));
  const senders: ConversationRecord["senders"] = new Map();
  for (const m of messageRows) {
    const key = `${m.senderType}:${m.senderId}`;
    if (m.senderType === "User" && usersById.has(m.senderId!)) senders.set(key, { type: "User", user: usersById.get(m.senderId!)! });
    if (m.senderType === "Contact" && contactsById.has(m.senderId!)) senders.set(key, { type: "Contact", contact: contactsById.get(m.senderId!)! });
    if (m.senderType === "AgentBot" && botsById.has(m.senderId!)) senders.set(key, { type: "AgentBot", bot: botsById.get(m.senderId!)! });
  }
  return (rows as Record<string, unknown>[]).map((raw) => {
    const conversation = decodeRow(conversations, raw);
    const team = teamRows.find((t) => t.team.id === conversation.teamId);
    const contactInbox = contactInboxRows.find((ci) => ci.id === conversation.contactInboxId);
    return {
      conversation,
      unreadCount: Number(raw.unread_count ?? 0),
      lastMessage: messagesById.get(Number(raw.last_message_id)) ?? null,
      lastNonActivityMessage: messagesById.get(Number(raw.last_non_activity_message_id)) ?? null,
      contact: contactsById.get(conversation.contactId) ?? null,
      assignee: conversation.assigneeId ? (usersById.get(conversation.assigneeId) ?? null) : null,
      assigneeBot: conversation.assigneeAgentBotId ? (botsById.get(conversation.assigneeAgentBotId) ?? null) : null,
      team: team ? { ...team.team, isMember: Boolean(team.isMember) } : null,
      labels: tagRows.filter((t) => t.taggableId === conversation.id).map((t) => t.tag),
      channelType: inboxRows.find((i) => i.id === conversation.inboxId)?.channelType ?? null,
      contactInbox: contactInbox ? { sourceId: contactInbox.sourceId, hmacVerified: contactInbox.hmacVerified } : null,
      senders,
    };
  });
}
