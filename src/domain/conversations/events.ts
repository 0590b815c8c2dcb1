/**
 * The outbox events of conversations and messages, shaped as Chatwoot's webhooks show them: who caused
 * them (`performer`), which attributes changed, with enum names and ISO times. Every change goes through
 * these, so every path emits the same events for the same change.
 */
import { type SQL, or, sql } from "drizzle-orm";
import { type Statement, schema } from "../../db/client";
import { type ChangedAttributes, eventStatement } from "../kernel/outbox";
import { CONVERSATION_STATUS, CONVERSATION_STATUSES, MESSAGE_TYPE, PRIORITIES, enumName } from "../kernel/enums";
import { type AccountScope, performer } from "../kernel/scope";
import type { ConversationRow } from "./rows";

type SubjectId = number | SQL<number>;

/** An event about a subject, caused by the scope's actor (automation ignores the events it caused). */
function outboxStatement(scope: AccountScope, subjectType: string, subjectId: SubjectId, eventName: string, data: Record<string, unknown>) {
  return eventStatement(scope.db, {
    accountId: scope.accountId,
    eventName,
    subjectType,
    subjectId,
    data: { performer: performer(scope), ...data },
    causedByAutomation: scope.actor.type === "automation_rule",
  });
}

export type ConversationEventName =
  | "conversation_created"
  | "conversation_updated"
  | "conversation_status_changed"
  | "conversation_resolved"
  | "conversation_opened"
  | "conversation_bot_handoff"
  /** an agent read it (update_last_seen); shown on the live feed, which webhooks do not offer */
  | "conversation_read"
  /** its assignee or team changed: shown on the live feed as Chatwoot's assignee.changed / team.changed */
  | "assignee_changed"
  | "team_changed";

export const conversationEventStatement = (scope: AccountScope, conversationId: SubjectId, eventName: ConversationEventName, data: Record<string, unknown> = {}) =>
  outboxStatement(scope, "Conversation", conversationId, eventName, data);

/**
 * message_created / message_updated for every message but activity ones (Chatwoot's webhooks and
 * automation skip those); a new activity message has an event of its own, activity_message_created, which
 * no webhook or rule takes and the live feed shows as message.created.
 */
export function messageEventStatements(
  scope: AccountScope,
  eventName: "message_created" | "message_updated",
  messageId: SubjectId,
  messageType: number,
  data: Record<string, unknown> = {},
): Statement[] {
  if (messageType === MESSAGE_TYPE.activity) {
    return eventName === "message_created" ? [outboxStatement(scope, "Message", messageId, "activity_message_created", data)] : [];
  }
  return [outboxStatement(scope, "Message", messageId, eventName, data)];
}

/** contact_updated for a change a conversation action makes to its contact (mute blocks it). */
export const contactUpdatedEventStatement = (scope: AccountScope, contactId: number, changed: ChangedAttributes) =>
  outboxStatement(scope, "Contact", contactId, "contact_updated", { changed_attributes: changed });

/** Conversation keys whose change Chatwoot announces with conversation_updated. */
const ANNOUNCED = new Set<string>([
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
const TIME_KEYS = new Set<string>(["snoozedUntil", "waitingSince", "firstReplyCreatedAt", "updatedAt", "lastActivityAt", "agentLastSeenAt", "assigneeLastSeenAt"]);

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A changed value as webhooks show it: enum names, ISO times. */
function eventValue(key: string, value: unknown) {
  if (key === "status") return enumName(CONVERSATION_STATUSES, value as number);
  if (key === "priority") return enumName(PRIORITIES, value as number | null);
  if (TIME_KEYS.has(key)) return typeof value === "number" ? new Date(value).toISOString() : null;
  return value ?? null;
}

/**
 * The events of a change from `before` to `after` (`changedKeys` are the row keys whose value changed;
 * `extraChanges` are changes kept outside the row, e.g. label_list): conversation_updated with
 * changed_attributes, conversation_status_changed, then conversation_resolved or conversation_opened.
 */
export function changeEventStatements(
  scope: AccountScope,
  before: ConversationRow,
  after: ConversationRow,
  changedKeys: Array<keyof ConversationRow>,
  extraChanges: ChangedAttributes,
): Statement[] {
  const statements: Statement[] = [];
  if (changedKeys.some((k) => ANNOUNCED.has(k)) || extraChanges.length > 0) {
    const changed = [...changedKeys, "updatedAt" as const].map((k) => ({
      [snake(k)]: { previous_value: eventValue(k, before[k]), current_value: eventValue(k, after[k]) },
    }));
    statements.push(conversationEventStatement(scope, before.id, "conversation_updated", { changed_attributes: [...changed, ...extraChanges] }));
  }
  if (changedKeys.includes("assigneeId")) statements.push(conversationEventStatement(scope, before.id, "assignee_changed"));
  if (changedKeys.includes("teamId")) statements.push(conversationEventStatement(scope, before.id, "team_changed"));
  if (changedKeys.includes("status")) {
    const statusChange = [{ status: { previous_value: eventValue("status", before.status), current_value: eventValue("status", after.status) } }];
    statements.push(conversationEventStatement(scope, before.id, "conversation_status_changed", { changed_attributes: statusChange }));
    if (after.status === CONVERSATION_STATUS.resolved) statements.push(conversationEventStatement(scope, before.id, "conversation_resolved"));
    if (after.status === CONVERSATION_STATUS.open) statements.push(conversationEventStatement(scope, before.id, "conversation_opened"));
  }
  return statements;
}

/**
 * A change to a conversation column decided inside the batch: its row key, its value as the batch finds
 * it and its new value, both SQL over the row (e.g. `coalesce(waiting_since, <now>)`). The column changes
 * when the two differ.
 */
export type ColumnChange = { key: keyof ConversationRow; was: SQL; next: SQL };

const { conversations, eventOutbox } = schema;

/** Constants written into the SQL text (our enums, never input), so they compare and concatenate as integers. */
const literal = (value: number | string) => sql.raw(typeof value === "number" ? String(value) : `'${value.replaceAll("'", "''")}'`);

/** An epoch-ms time as `toISOString` writes it, in SQL. */
const isoTime = (ms: SQL) =>
  sql`CASE WHEN ${ms} IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%S', CAST(${ms} AS INTEGER) / 1000, 'unixepoch') || printf('.%03dZ', CAST(${ms} AS INTEGER) % 1000) END`;

/** `eventValue` in SQL: enum names, ISO times. */
function eventValueSql(key: string, value: SQL): SQL {
  const names = key === "status" ? CONVERSATION_STATUSES : key === "priority" ? PRIORITIES : null;
  if (names) return sql`CASE ${value} ${sql.join(names.map((name, code) => sql`WHEN ${literal(code)} THEN ${literal(name)}`), sql` `)} END`;
  if (TIME_KEYS.has(key)) return isoTime(value);
  return value;
}

/** One `changed_attributes` entry in SQL: `{"<key>": {"previous_value": ..., "current_value": ...}}`. */
const changedEntrySql = (key: string, previous: SQL, current: SQL) =>
  sql`json_object(${literal(snake(key))}, json_object('previous_value', ${eventValueSql(key, previous)}, 'current_value', ${eventValueSql(key, current)}))`;

/** Whether a column change changes the column. */
export const columnChanges = (change: ColumnChange) => sql`(${change.was} IS NOT ${change.next})`;

/**
 * An event about the conversation `row` selects, written by INSERT ... SELECT from that row when `when`
 * holds there; `changed` is its changed_attributes list as SQL. Columns in the order of `event_outbox`.
 */
function conversationEventInBatch(scope: AccountScope, row: SQL, eventName: ConversationEventName, changed: SQL | null, when: SQL, at: number) {
  const performerJson = sql`json(${JSON.stringify(performer(scope))})`;
  const data = changed ? sql`json_object('performer', ${performerJson}, 'changed_attributes', ${changed})` : sql`json_object('performer', ${performerJson})`;
  const automation = scope.actor.type === "automation_rule" ? 1 : 0;
  return scope.db
    .insert(eventOutbox)
    .select(
      sql`SELECT NULL, ${scope.accountId}, ${literal(eventName)}, 'Conversation', ${conversations.id}, ${data}, ${literal(automation)}, ${at}, NULL, NULL
        FROM ${conversations} WHERE ${row} AND ${when}`,
    )
    .returning();
}

/**
 * `changeEventStatements` for a change decided inside the batch (a new message's, whose changes are
 * `changes`, in the order they are announced): the same events with the same data, each written from
 * the conversation's row only if the change it announces happens. They read the row as it was, so put
 * them before the batch's update of it. A message never assigns, moves or resolves a conversation, so the
 * events of those changes are not offered here.
 */
export function changeEventStatementsInBatch(scope: AccountScope, row: SQL, changes: ColumnChange[], at: number): Statement[] {
  const announced = changes.filter((c) => ANNOUNCED.has(c.key));
  if (announced.length === 0) return [];
  const entries = changes.map((c) => sql`CASE WHEN ${columnChanges(c)} THEN ${changedEntrySql(c.key, c.was, c.next)} || ',' ELSE '' END`);
  const updatedAt = changedEntrySql("updatedAt", sql`${conversations.updatedAt}`, sql`${at}`);
  const list = sql`json('[' || ${sql.join(entries, sql` || `)} || ${updatedAt} || ']')`;
  const statements: Statement[] = [conversationEventInBatch(scope, row, "conversation_updated", list, or(...announced.map(columnChanges))!, at)];
  const status = changes.find((c) => c.key === "status");
  if (status) {
    const moved = columnChanges(status);
    const statusList = sql`json_array(${changedEntrySql("status", status.was, status.next)})`;
    statements.push(
      conversationEventInBatch(scope, row, "conversation_status_changed", statusList, moved, at),
      conversationEventInBatch(scope, row, "conversation_opened", null, sql`${moved} AND ${status.next} = ${literal(CONVERSATION_STATUS.open)}`, at),
    );
  }
  return statements;
}
