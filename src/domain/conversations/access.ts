/**
 * Who may see and act on a conversation: ONE rule, used alike by lists, counts, filters and every action
 * on a conversation (Chatwoot's rule for conversation actions):
 * - a macro reaches what the user running it reaches;
 * - administrators, the account's agent bots, automation rules and the system reach every conversation;
 * - an agent reaches the conversations of the inboxes they are a member of, or of the teams they belong to;
 * - a contact (the public widget) reaches their own conversations.
 * The rule is written once, in SQL (`reachableCondition`): a list keeps the rows that meet it, and an
 * action reads, with the conversation, whether it does, so the check costs no statement of its own.
 */
import { and, eq, exists, inArray, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type Statement, schema } from "../../db/client";
import { batchGroups } from "../kernel/batch";
import { ROLE } from "../kernel/enums";
import { forbidden, notFound } from "../kernel/errors";
import { type AccountScope } from "../kernel/scope";
import type { ConversationRow } from "./rows";

const { accountUsers, conversations, inboxMembers, teamMembers } = schema;

/** What the membership subqueries need: the account's database and the account. */
type AccountReader = Pick<AccountScope, "db" | "accountId">;

/** Which conversations of the account the scope reaches. */
export type Reach =
  | { kind: "all" }
  | { kind: "member"; userId: number }
  | { kind: "contact"; contactId: number }
  | { kind: "none" };

export function reachOf(scope: AccountScope): Reach {
  const { actor } = scope;
  switch (actor.type) {
    case "user":
    case "macro": // a macro reaches what the user running it reaches
      return scope.role === "administrator" ? { kind: "all" } : { kind: "member", userId: actor.user.id };
    case "agent_bot":
    case "automation_rule":
    case "auto_assignment":
    case "system":
      return { kind: "all" };
    case "contact":
      return { kind: "contact", contactId: actor.contact.id };
    case "platform_app":
      return { kind: "none" };
  }
}

/** The ids of the inboxes `userId` is a member of in the scope's account, as a subquery. */
export const memberInboxIds = (scope: AccountReader, userId: number) =>
  scope.db
    .select({ id: inboxMembers.inboxId })
    .from(inboxMembers)
    .where(and(eq(inboxMembers.accountId, scope.accountId), eq(inboxMembers.userId, userId)));

/** The ids of the teams `userId` belongs to in the scope's account, as a subquery. */
export const memberTeamIds = (scope: AccountReader, userId: number) =>
  scope.db
    .select({ id: teamMembers.teamId })
    .from(teamMembers)
    .where(and(eq(teamMembers.accountId, scope.accountId), eq(teamMembers.userId, userId)));

/**
 * The condition a row of `conversations` meets when the scope reaches it; undefined when the scope reaches
 * every conversation. For a statement that reads `conversations` alone (its columns are left bare).
 */
export function reachableCondition(scope: AccountScope): SQL | undefined {
  const reach = reachOf(scope);
  switch (reach.kind) {
    case "all":
      return undefined;
    case "member":
      return or(inArray(conversations.inboxId, memberInboxIds(scope, reach.userId)), inArray(conversations.teamId, memberTeamIds(scope, reach.userId)));
    case "contact":
      return eq(conversations.contactId, reach.contactId);
    case "none":
      return sql`0`;
  }
}

/**
 * The same rule for a user known by id alone (the live feed's frames have no scope): the condition a row
 * of `conversations` meets when the user reaches it, the user's role read with it.
 */
export function userReachableCondition(reader: AccountReader, userId: number): SQL {
  const { db, accountId } = reader;
  const administrator = db
    .select({ one: sql`1` })
    .from(accountUsers)
    .where(and(eq(accountUsers.accountId, accountId), eq(accountUsers.userId, userId), eq(accountUsers.role, ROLE.administrator)));
  return or(exists(administrator), inArray(conversations.inboxId, memberInboxIds(reader, userId)), inArray(conversations.teamId, memberTeamIds(reader, userId)))!;
}

/**
 * Keeps the rows of another table whose conversation (its row id in `conversationId`) meets `condition`
 * (`reachableCondition` or `userReachableCondition`): one lookup by primary key per row it keeps, so a
 * page costs what it shows. No condition (the scope reaches everything) keeps every row.
 */
export function ofReachableConversation(reader: AccountReader, conversationId: SQLiteColumn, condition: SQL | undefined): SQL | undefined {
  if (condition === undefined) return undefined;
  const { db, accountId } = reader;
  return exists(db.select({ one: sql`1` }).from(conversations).where(and(eq(conversations.accountId, accountId), eq(conversations.id, conversationId), condition)));
}

/**
 * Whether the scope may open a conversation in an inbox (`inboxColumn`, of a statement that reads
 * `inboxes` alone): Chatwoot authorises the inbox itself here, so an agent needs its membership; a
 * team does not open inboxes. Contacts open theirs through the public API, not this path.
 */
export function inboxOpenableCondition(scope: AccountScope, inboxColumn: SQLiteColumn): SQL {
  const reach = reachOf(scope);
  if (reach.kind === "all") return sql`1`;
  if (reach.kind === "member") return inArray(inboxColumn, memberInboxIds(scope, reach.userId));
  return sql`0`;
}

/** A column of the conversation addressed by display id, as a subquery: lets one batch read around it. */
export const conversationColumn = (scope: AccountScope, displayId: number, column: SQLiteColumn) =>
  sql<number>`(SELECT ${column} FROM ${conversations} WHERE ${conversations.accountId} = ${scope.accountId} AND ${conversations.displayId} = ${displayId})`;

/**
 * The conversation addressed by display id, with whether the scope reaches it (null counts as no).
 * Computed columns are named: D1 answers rows as objects, and a column named like a number ("1") would
 * move to the front of one and shift every value drizzle reads by position.
 */
export function conversationQuery(scope: AccountScope, displayId: number) {
  return scope.db
    .select({ conversation: conversations, reachable: sql<number | null>`${reachableCondition(scope) ?? sql`1`}`.as("reachable") })
    .from(conversations)
    .where(and(eq(conversations.accountId, scope.accountId), eq(conversations.displayId, displayId)));
}

/** 404 for an unknown conversation, 403 for one the scope does not reach. */
export function ensureActionable(displayId: number, row: { conversation: ConversationRow; reachable: number | null } | undefined): ConversationRow {
  if (!row) throw notFound("Conversation", displayId, "conversation_id");
  if (!row.reachable) {
    throw forbidden(`You may not act on conversation ${displayId}: you are not a member of its inbox or team`, "conversation_not_accessible");
  }
  return row.conversation;
}

/**
 * One batch that reads a conversation (by display id) and `extra` reads (typed as given). Throws 404/403
 * before anything is written.
 */
export async function readConversation<const E extends readonly Statement[]>(scope: AccountScope, displayId: number, extra: E) {
  const results = await batchGroups(scope.db, { conversation: [conversationQuery(scope, displayId)], extra });
  return { conversation: ensureActionable(displayId, results.conversation[0][0]), extra: results.extra };
}
