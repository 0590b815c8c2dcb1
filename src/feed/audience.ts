/**
 * Who receives a feed event, read when its frame is built (one query, in the batch that reads the
 * event's data), so a membership removed a moment ago already counts: the same rule as the
 * conversation lists (src/domain/conversations/access.ts): administrators of the account, and agents who
 * are members of the conversation's inbox or of its team; and the visitors whose widget shows the
 * conversation.
 */
import { type SQL, and, eq, inArray, or, sql } from "drizzle-orm";
import { type Database, schema } from "../db/client";
import { ROLE } from "../domain/kernel/enums";

const { accountUsers, contactInboxes, conversations, inboxes, inboxMembers, teamMembers } = schema;

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

/** The visitors a frame may go to (their contact inboxes), as one select of `{contactInboxId}`, read in the batch of the frame's data. */
export type VisitorQuery = ReturnType<typeof visitorsWhere>;

/**
 * The visitors who hear a conversation (by row id, or a subquery that answers it): the widget of its
 * contact inbox, and, once that contact inbox is verified (hmac_verified), the contact's other verified
 * contact inboxes of the same inbox, which see all of the contact's conversations there (Chatwoot sends to
 * each of a verified contact's). Nobody once the inbox is deleted.
 */
export function conversationVisitors(db: Database, accountId: number, conversationId: number | SQL<number>): VisitorQuery {
  const own = sql`(SELECT ${conversations.contactInboxId} FROM ${conversations} WHERE ${conversations.id} = ${conversationId} AND ${conversations.accountId} = ${accountId})`;
  const verified = sql`EXISTS (SELECT 1 FROM ${contactInboxes} AS own WHERE own.id = ${own} AND own.account_id = ${accountId} AND own.hmac_verified = 1
    AND own.contact_id = ${contactInboxes.contactId} AND own.inbox_id = ${contactInboxes.inboxId})`;
  return visitorsWhere(
    db,
    accountId,
    and(
      or(sql`${contactInboxes.id} = ${own}`, and(eq(contactInboxes.hmacVerified, true), verified)),
      sql`EXISTS (SELECT 1 FROM ${inboxes} WHERE ${inboxes.id} = ${contactInboxes.inboxId} AND ${inboxes.accountId} = ${accountId})`,
    ),
  );
}

/** No visitor: an event no visitor hears, or an account where none listens, costs its batch no read. */
export function noVisitors(db: Database, accountId: number): VisitorQuery {
  return visitorsWhere(db, accountId, sql`0`);
}

function visitorsWhere(db: Database, accountId: number, which: SQL | undefined) {
  return db
    .select({ contactInboxId: contactInboxes.id })
    .from(contactInboxes)
    .where(and(eq(contactInboxes.accountId, accountId), which));
}
