/**
 * Who receives a feed event, read when its frame is built (one query per event, beside the one that
 * reads its data), so a membership removed a moment ago already counts: the same rule as the
 * conversation lists (src/domain/conversations/access.ts): administrators of the account, and agents who
 * are members of the conversation's inbox or of its team.
 */
import { type SQL, and, eq, inArray, or, sql } from "drizzle-orm";
import { type Database, schema } from "../db/client";
import { batch } from "../domain/kernel/batch";
import { ROLE } from "../domain/kernel/enums";

const { accountUsers, conversations, inboxMembers, teamMembers } = schema;

/**
 * Who may see a conversation (by row id, or a subquery that answers it, e.g. a message's conversation):
 * its account's administrators and its inbox's and team's members.
 */
export async function conversationAudience(db: Database, accountId: number, conversationId: number | SQL<number>): Promise<number[]> {
  const ofConversation = (column: typeof conversations.inboxId | typeof conversations.teamId) =>
    sql`(SELECT ${column} FROM ${conversations} WHERE ${conversations.id} = ${conversationId} AND ${conversations.accountId} = ${accountId})`;
  const [rows] = await batch(db, [
    db
      .select({ userId: accountUsers.userId })
      .from(accountUsers)
      .where(
        and(
          eq(accountUsers.accountId, accountId),
          or(
            eq(accountUsers.role, ROLE.administrator),
            inArray(accountUsers.userId, db.select({ id: inboxMembers.userId }).from(inboxMembers).where(and(eq(inboxMembers.accountId, accountId), eq(inboxMembers.inboxId, ofConversation(conversations.inboxId))))),
            inArray(accountUsers.userId, db.select({ id: teamMembers.userId }).from(teamMembers).where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.teamId, ofConversation(conversations.teamId))))),
          ),
        ),
      ),
  ]);
  return rows.map((r) => r.userId);
}

/** Everyone in the account (contact events: every agent may see the account's contacts). */
export async function accountAudience(db: Database, accountId: number): Promise<number[]> {
  const [rows] = await batch(db, [db.select({ userId: accountUsers.userId }).from(accountUsers).where(eq(accountUsers.accountId, accountId))]);
  return rows.map((r) => r.userId);
}

/** One user, while a member of the account (a notification's owner). */
export async function userAudience(db: Database, accountId: number, userId: number): Promise<number[]> {
  const [rows] = await batch(db, [
    db
      .select({ userId: accountUsers.userId })
      .from(accountUsers)
      .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId))),
  ]);
  return rows.map((r) => r.userId);
}
