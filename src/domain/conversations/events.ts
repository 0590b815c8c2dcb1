/**
 * The outbox events of conversations and messages, shaped as Chatwoot's webhooks show them: who caused
 * them (`performer`), which attributes changed, with enum names and ISO times. Every change goes through
 * these, so every path emits the same events for the same change.
 */
import type { SQL } from "drizzle-orm";
import type { Statement } from "../../db/client";
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
