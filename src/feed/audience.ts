/**
 * Who receives a feed event, read when its frame is built (one query, in the batch that reads the
 * event's data), so a membership removed a moment ago already counts: the same rule as the
 * conversation lists (src/domain/conversations/access.ts): administrators of the account, and agents who
 * are members of the conversation's inbox or of its team.
 */
import { type SQL, and, eq, inArray, or, sql } from "drizzle-orm";
import { type Database, schema } from "../db/client";
import { ROLE } from "../domain/kernel/enums";

const { accountUsers, conversations, inboxMembers, teamMembers } = schema;

/** The users a frame may go to, as one select of `{userId}`: the frame's data is read in the same batch. */
export type AudienceQuery = ReturnType<typeof audienceWhere>;

/**
 * Who may see a conversation (by row id, or a subquery that answers it, e.g. a message's conversation):
 * its account's administrators and its inbox's and team's members.
 */
export function conversationAudience(db: Database, accountId: number, conversationId: number | SQL<number>): AudienceQuery {
  const ofConversation = (column: typeof conversations.inboxId | typeof conversations.teamId) =>
    sql`(SELECT ${column} FROM ${conversations} WHERE ${conversations.id} = ${conversationId} AND ${conversations.accountId} = ${accountId})`;
  return audienceWhere(
    db,
    accountId,
    or(
      eq(accountUsers.role, ROLE.administrator),
      inArray(accountUsers.userId, db.select({ id: inboxMembers.userId }).from(inboxMembers).where(and(eq(inboxMembers.accountId, accountId), eq(inboxMembers.inboxId, ofConversation(conversations.inboxId))))),
      inArray(accountUsers.userId, db.select({ id: teamMembers.userId }).from(teamMembers).where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.teamId, ofConversation(conversations.teamId))))),
    ),
  );
}

/** Everyone in the account (contact events: every agent may see the account's contacts). */
export function accountAudience(db: Database, accountId: number): AudienceQuery {
  return audienceWhere(db, accountId, undefined);
}

/** One user, while a member of the account (a notification's owner); nobody when `userId` is not a number. */
export function userAudience(db: Database, accountId: number, userId: unknown): AudienceQuery {
  return audienceWhere(db, accountId, typeof userId === "number" ? eq(accountUsers.userId, userId) : sql`0`);
}

function audienceWhere(db: Database, accountId: number, who: SQL | undefined) {
  return db
    .select({ userId: accountUsers.userId })
    .from(accountUsers)
    .where(and(eq(accountUsers.accountId, accountId), who));
}
