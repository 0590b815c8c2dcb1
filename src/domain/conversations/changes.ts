/**
 * A change to a conversation row as one list of statements: the update, the counters it moves, its outbox
 * events (events.ts), its reporting facts and report rollups (reports/facts.ts), so that every path (routes, the snooze
 * wake-up, next automation) writes the same things for the same change.
 */
import { and, eq } from "drizzle-orm";
import { type Statement, now, schema } from "../../db/client";
import type { ChangedAttributes } from "../kernel/outbox";
import { writeThenRead } from "../kernel/batch";
import { CONVERSATION_STATUS } from "../kernel/enums";
import { type AccountScope } from "../kernel/scope";
import { conversationCountMoves, reportingFactStatements, secondsBetween, statusMoveStatements } from "../reports/facts";
import { counterStatements } from "./counters";
import { changeEventStatements } from "./events";
import { type ConversationRecord, assembleConversationRecords, conversationRecordQueries } from "./loader";
import { assignmentNotifications } from "./notifications";
import { type ConversationRow } from "./rows";

const { conversations } = schema;

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
 * The statements of one change to `before`: the update, the counters it moves, its events and, when it
 * resolves the conversation, the resolution fact. `extraChanges` names changes kept outside the row,
 * e.g. label_list. Returns the row as it will be after the batch.
 */
export function changeStatements(
  scope: AccountScope,
  before: ConversationRow,
  change: ConversationChange,
  extraChanges: ChangedAttributes = [],
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
    db.update(conversations).set({ ...effective, updatedAt: at }).where(and(eq(conversations.accountId, accountId), eq(conversations.id, before.id))),
    ...counterStatements(db, accountId, before, after),
    ...changeEventStatements(scope, before, after, changedKeys, extraChanges),
  ];
  if (changedKeys.includes("status")) statements.push(...statusMoveStatements(scope, before, before.status, after.status));
  if (changedKeys.includes("status") && after.status === CONVERSATION_STATUS.resolved) {
    // Chatwoot credits a resolution to the conversation's assignee, whoever resolves it
    const seconds = secondsBetween(before.createdAt, at);
    statements.push(...reportingFactStatements(scope, after, "conversation_resolved", seconds, at, after.assigneeId));
    // a bot's resolution: resolved by a bot, or while a bot held it, before any person replied
    const byBot = scope.actor.type === "agent_bot" || after.assigneeAgentBotId !== null;
    if (byBot && before.firstReplyCreatedAt === null) statements.push(...reportingFactStatements(scope, after, "bot_resolved", seconds, at, after.assigneeId));
  }
  const labelChange = extraChanges.find((c) => "label_list" in c)?.label_list as { previous_value: string[]; current_value: string[] } | undefined;
  if (changedKeys.includes("assigneeId") || changedKeys.includes("teamId") || labelChange) {
    const labels = labelChange ? { previous: labelChange.previous_value, current: labelChange.current_value } : null;
    statements.push(...conversationCountMoves(scope, before, after, labels));
  }
  if (changedKeys.includes("assigneeId") && after.assigneeId !== null) {
    const pending = after.status === CONVERSATION_STATUS.pending;
    statements.push(...assignmentNotifications(scope, { id: before.id, inboxId: after.inboxId, teamId: after.teamId }, after.assigneeId, pending, at));
  }
  return { after, statements };
}

/**
 * Runs `writes` and loads the full record of `after` in the same batch (so a change costs one round
 * trip after its reads).
 */
export async function commitAndLoad(scope: AccountScope, after: ConversationRow, writes: Statement[]): Promise<ConversationRecord> {
  const loaded = await writeThenRead(scope.db, writes, conversationRecordQueries(scope.db, scope.accountId, [after]));
  return assembleConversationRecords([after], loaded)[0];
}
