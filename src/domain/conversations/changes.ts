/**
 * The shared parts of every conversation change: who may act on a conversation, and the statements one
 * change writes (the row, its counters, its outbox events, its reporting facts), so that every route
 * emits the same events for the same change.
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type Database, type Statement, now, schema } from "../../db/client";
import { eventStatement } from "../../events/outbox";
import { counterStatements } from "./counters";
import { CONVERSATION_STATUSES, PRIORITIES, enumName } from "../kernel/enums";
import { type ConversationRecord, type ConversationRecordResults, assembleConversationRecords, conversationRecordQueries } from "./records";
import { type AccountScope, performer as kernelPerformer } from "../kernel/scope";
import { forbidden, notFound } from "../kernel/errors";
import { type ConversationRow } from "./rows";

const { conversations, inboxMembers, teamMembers, messages, reportingEvents } = schema;

export const STATUS = { open: 0, resolved: 1, pending: 2, snoozed: 3 } as const;
export const MESSAGE_TYPE = { incoming: 0, outgoing: 1, activity: 2, template: 3 } as const;

/** One round trip for a list of statements built at run time; results are positional. */
export async function runBatch(db: Database, statements: readonly unknown[]): Promise<unknown[]> {
  if (statements.length === 0) return [];
  return (await db.batch(statements as unknown as [Statement, ...Statement[]])) as unknown[];
}

/** Who is calling, as far as conversations care. */
export type Caller = { userId: number | null; isAdmin: boolean; isBot: boolean; inboxIds: number[]; teamIds: number[]; contactId: number | null };

export const callerUserId = (scope: AccountScope) => (scope.actor.type === "user" ? scope.actor.user.id : null);

/** The caller's inbox and team memberships (nothing for a bot). */
export function callerQueries(scope: AccountScope) {
  const userId = callerUserId(scope) ?? 0;
  return [
    scope.db
      .select({ inboxId: inboxMembers.inboxId })
      .from(inboxMembers)
      .where(and(eq(inboxMembers.accountId, scope.accountId), eq(inboxMembers.userId, userId))),
    scope.db
      .select({ teamId: teamMembers.teamId })
      .from(teamMembers)
      .where(and(eq(teamMembers.accountId, scope.accountId), eq(teamMembers.userId, userId))),
  ] as const;
}

export function toCaller(scope: AccountScope, inboxRows: Array<{ inboxId: number }>, teamRows: Array<{ teamId: number }>): Caller {
  return {
    userId: callerUserId(scope),
    isAdmin: scope.role === "administrator",
    isBot: scope.actor.type === "agent_bot",
    inboxIds: inboxRows.map((r) => r.inboxId),
    teamIds: teamRows.map((r) => r.teamId),
    contactId: scope.actor.type === "contact" ? scope.actor.contact.id : null,
  };
}

/**
 * Chatwoot's conversation policy: administrators and the account's bots act on every conversation; an
 * agent on those of inboxes they are a member of, or of teams they belong to. A contact (the public
 * widget API, which has checked the inbox and contact inbox chain before) only on its own conversations.
 */
export function canActOn(caller: Caller, conversation: Pick<ConversationRow, "inboxId" | "teamId" | "contactId">) {
  if (caller.contactId !== null) return conversation.contactId === caller.contactId;
  if (caller.isAdmin || caller.isBot) return true;
  if (caller.inboxIds.includes(conversation.inboxId)) return true;
  return conversation.teamId !== null && caller.teamIds.includes(conversation.teamId);
}

/** A column of the conversation addressed by display id, as a subquery: lets one batch read around it. */
export const conversationColumn = (scope: AccountScope, displayId: number, column: SQLiteColumn) =>
  sql<number>`(SELECT ${column} FROM ${conversations} WHERE ${conversations.accountId} = ${scope.accountId} AND ${conversations.displayId} = ${displayId})`;

export function conversationByDisplayIdQuery(scope: AccountScope, displayId: number) {
  return scope.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.accountId, scope.accountId), eq(conversations.displayId, displayId)));
}

/** 404 for an unknown conversation, 403 for one the caller may not act on. */
export function ensureActionable(caller: Caller, displayId: number, conversation: ConversationRow | undefined): ConversationRow {
  if (!conversation) throw notFound("Conversation", displayId, "conversation_id");
  if (!canActOn(caller, conversation)) {
    throw forbidden(`You may not act on conversation ${displayId}: you are not a member of its inbox or team`, "conversation_not_accessible");
  }
  return conversation;
}

/**
 * One batch that reads a conversation (by display id), the caller's memberships and `extra` reads.
 * Throws 404/403 before anything is written.
 */
export async function readConversation<E extends Statement[]>(scope: AccountScope, displayId: number, extra: [...E]) {
  const [rows, inboxRows, teamRows, ...rest] = await runBatch(scope.db, [conversationByDisplayIdQuery(scope, displayId), ...callerQueries(scope), ...extra]);
  const caller = toCaller(scope, inboxRows as Array<{ inboxId: number }>, teamRows as Array<{ teamId: number }>);
  const conversation = ensureActionable(caller, displayId, (rows as ConversationRow[])[0]);
  return { conversation, caller, extra: rest as { [K in keyof E]: E[K] extends PromiseLike<infer R> ? R : never } };
}

/** Who caused an event, kept in its outbox data (the kernel's rule, contacts included). */
export const performer = kernelPerformer;

/** Conversation keys whose change Chatwoot announces with conversation_updated. */
const ANNOUNCED = new Set([
  "teamId",
  "assigneeId",
  "assigneeAgentBotId",
  "status",
  "snoozedUntil",
  "customAttributes",
  "additionalAttributes",
  "waitingSince",
  "firstReplyCreatedAt",
  "priority",
]);
const TIME_KEYS = new Set(["snoozedUntil", "waitingSince", "firstReplyCreatedAt", "updatedAt", "lastActivityAt", "agentLastSeenAt", "assigneeLastSeenAt"]);

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A changed value as webhooks show it: enum names, ISO times. */
function eventValue(key: string, value: unknown) {
  if (key === "status") return enumName(CONVERSATION_STATUSES, value as number);
  if (key === "priority") return enumName(PRIORITIES, value as number | null);
  if (TIME_KEYS.has(key)) return typeof value === "number" ? new Date(value).toISOString() : null;
  return value ?? null;
}

export type ConversationChange = Partial<
  Pick<
    ConversationRow,
    | "status"
    | "priority"
    | "snoozedUntil"
    | "waitingSince"
    | "firstReplyCreatedAt"
    | "assigneeId"
    | "assigneeAgentBotId"
    | "teamId"
    | "customAttributes"
    | "additionalAttributes"
    | "lastActivityAt"
    | "agentLastSeenAt"
    | "assigneeLastSeenAt"
  >
>;

/**
 * The statements of one change to `before`: the update, the counters it moves, its events
 * (conversation_updated with changed_attributes, conversation_status_changed, conversation_resolved or
 * conversation_opened) and the resolution fact for reports. `extraChanges` names changes kept outside
 * the row, e.g. label_list. Returns the row as it will be after the batch.
 */
export function changeStatements(
  scope: AccountScope,
  before: ConversationRow,
  change: ConversationChange,
  extraChanges: Array<Record<string, { previous_value: unknown; current_value: unknown }>> = [],
  at = now(),
): { after: ConversationRow; statements: Statement[] } {
  const { db, accountId } = scope;
  const changedKeys = (Object.keys(change) as Array<keyof ConversationChange>).filter(
    (k) => JSON.stringify(before[k] ?? null) !== JSON.stringify(change[k] ?? null),
  );
  if (changedKeys.length === 0 && extraChanges.length === 0) return { after: before, statements: [] };
  const effective = Object.fromEntries(changedKeys.map((k) => [k, change[k]])) as ConversationChange;
  const after: ConversationRow = { ...before, ...effective, updatedAt: at };
  const statements: Statement[] = [
    db.update(conversations).set({ ...effective, updatedAt: at }).where(eq(conversations.id, before.id)),
    ...counterStatements(db, accountId, before, after),
  ];
  const by = performer(scope);
  const event = (eventName: string, data: Record<string, unknown> = {}) =>
    eventStatement(db, { accountId, eventName, subjectType: "Conversation", subjectId: before.id, data: { performer: by, ...data } });

  const announced = changedKeys.filter((k) => ANNOUNCED.has(k));
  if (announced.length > 0 || extraChanges.length > 0) {
    const changed = [...changedKeys, "updatedAt" as const].map((k) => ({
      [snake(k)]: { previous_value: eventValue(k, before[k]), current_value: eventValue(k, after[k]) },
    }));
    statements.push(event("conversation_updated", { changed_attributes: [...changed, ...extraChanges] }));
  }
  if (changedKeys.includes("status")) {
    const statusChange = [{ status: { previous_value: eventValue("status", before.status), current_value: eventValue("status", after.status) } }];
    statements.push(event("conversation_status_changed", { changed_attributes: statusChange }));
    if (after.status === STATUS.resolved) {
      statements.push(event("conversation_resolved"));
      statements.push(reportingStatement(scope, after, "conversation_resolved", Math.round((at - before.createdAt) / 1000), at));
    }
    if (after.status === STATUS.open) statements.push(event("conversation_opened"));
  }
  return { after, statements };
}

export function reportingStatement(
  scope: AccountScope,
  conversation: { id: number | SQL<number>; inboxId: number },
  name: string,
  valueSeconds: number,
  at: number,
) {
  return scope.db.insert(reportingEvents).values({
    accountId: scope.accountId,
    name,
    value: valueSeconds,
    conversationId: conversation.id,
    inboxId: conversation.inboxId,
    userId: callerUserId(scope),
    createdAt: at,
  });
}

/** An activity message ("Conversation was marked resolved by ..."), as Chatwoot adds one for status moves. */
export function activityStatement(scope: AccountScope, conversation: ConversationRow, content: string, at = now()) {
  return scope.db.insert(messages).values({
    accountId: scope.accountId,
    inboxId: conversation.inboxId,
    conversationId: conversation.id,
    messageType: MESSAGE_TYPE.activity,
    content,
    createdAt: at,
    updatedAt: at,
  });
}

/** The name the activity messages give the caller. */
export function callerName(scope: AccountScope) {
  return performer(scope)?.name ?? "the system";
}

/**
 * Runs `writes` and loads the full record of `after` in the same batch (so a change costs one round
 * trip after its reads).
 */
export async function commitAndLoad(scope: AccountScope, after: ConversationRow, writes: Statement[]): Promise<ConversationRecord> {
  const loads = conversationRecordQueries(scope.db, scope.accountId, [after]);
  const results = await runBatch(scope.db, [...writes, ...loads]);
  return assembleConversationRecords([after], results.slice(writes.length) as unknown as ConversationRecordResults)[0];
}
