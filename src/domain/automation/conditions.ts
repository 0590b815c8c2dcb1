/**
 * Whether a rule's conditions hold for an event, evaluated in memory on the conversation, its contact,
 * its labels and (for message_created) the triggering message, as Chatwoot's single SQL WHERE clause would:
 *
 * - Each condition is one term followed by its `query_operator`; ordinary SQL precedence applies, so AND
 *   binds tighter than OR and there are no parentheses: `A AND B OR C AND D` is `(A AND B) OR (C AND D)`.
 * - The relation is the conversation joined with its messages: message keys (content, message_type,
 *   private_note) are tested per message row and the rule matches when any row satisfies the whole
 *   expression. For message_created that row is the triggering message; for conversation events the
 *   conversation's latest messages (or one row without a message when it has none).
 * - attribute_changed is a term like the others (Chatwoot applies it afterwards with set arithmetic that
 *   depends on the order of conditions; here it simply takes its place in the expression).
 */
import type { ChangedAttributes } from "../kernel/outbox";
import type { ContactRow } from "../contacts/rows";
import type { ConversationRow, MessageRow } from "../conversations/rows";
import type { AttributeDefinition } from "../custom-attributes/values";
import { CONVERSATION_STATUSES, MESSAGE_TYPES, PRIORITIES, enumName } from "../kernel/enums";
import { type ResolvedKey, resolveKey } from "./keys";
import type { ChangedValues, Condition } from "./rows";
import { asBoolean, asDate, asNumber } from "./validation";
import { NIL } from "./vocabulary";

export type EvaluationContext = {
  conversation: ConversationRow;
  contact: ContactRow | null;
  labels: string[];
  /** the message rows of the relation (see above); empty for "no message" */
  messages: MessageRow[];
  changedAttributes: ChangedAttributes | null;
  definitions: readonly AttributeDefinition[];
  now: number;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * SQL precedence: the conditions split at each OR into groups joined by AND; the expression holds when
 * any group holds entirely.
 */
export function combine(conditions: readonly Pick<Condition, "query_operator">[], holds: (index: number) => boolean): boolean {
  let anyGroup = false;
  let group = true;
  conditions.forEach((condition, index) => {
    group = group && holds(index);
    const last = index === conditions.length - 1;
    if (last || condition.query_operator === "OR") {
      anyGroup = anyGroup || group;
      group = true;
    }
  });
  return anyGroup;
}

export function ruleMatches(conditions: readonly Condition[], context: EvaluationContext): boolean {
  if (conditions.length === 0) return false;
  const resolved = conditions.map((c) => resolveKey(c, context.definitions));
  const rows: Array<MessageRow | null> = context.messages.length > 0 ? context.messages : [null];
  return rows.some((message) => combine(conditions, (i) => holds(conditions[i], resolved[i], context, message)));
}

/** The value a key reads, normalised: enum names, lower-cased text, numbers, booleans, label lists. */
function read(key: ResolvedKey, context: EvaluationContext, message: MessageRow | null): unknown {
  const { source } = key;
  const { conversation, contact } = context;
  switch (source.from) {
    case "conversation":
      if (source.column === "status") return enumName(CONVERSATION_STATUSES, conversation.status);
      if (source.column === "priority") return enumName(PRIORITIES, conversation.priority);
      return conversation[source.column];
    case "conversation_attributes":
      return conversation.additionalAttributes[source.name] ?? null;
    case "labels":
      return context.labels;
    case "contact":
      return contact?.[source.column] ?? null;
    case "contact_attributes": {
      const attributes = contact?.additionalAttributes ?? {};
      for (const name of source.names) if (attributes[name] !== undefined && attributes[name] !== null) return attributes[name];
      return null;
    }
    case "message":
      if (!message) return null;
      if (source.column === "messageType") return enumName(MESSAGE_TYPES, message.messageType);
      if (source.column === "content") return message.processedMessageContent ?? message.content;
      return message.private;
    case "conversation_custom":
      return conversation.customAttributes[source.name] ?? null;
    case "contact_custom":
      return contact?.customAttributes[source.name] ?? null;
  }
}

const lower = (v: unknown) => (v === null || v === undefined ? null : String(v).toLowerCase());

/** Whether a stored value equals one of the rule's values, in the key's terms. */
function same(key: ResolvedKey, actual: unknown, wanted: unknown): boolean {
  switch (key.values.kind) {
    case "enum":
      return lower(wanted) === NIL ? actual === null : actual !== null && lower(actual) === lower(wanted);
    case "id":
    case "number":
      return actual !== null && asNumber(actual) !== null && asNumber(actual) === asNumber(wanted);
    case "boolean":
      return actual !== null && asBoolean(actual) === asBoolean(wanted);
    case "date":
      // a date equals a value on the same day (values may be a date or a full ISO time)
      return dayOf(actual) !== null && dayOf(actual) === dayOf(wanted);
    default:
      return actual !== null && lower(actual)?.trim() === lower(wanted)?.trim();
  }
}

const dayOf = (v: unknown) => (typeof v === "string" && asDate(v) !== null ? v.slice(0, 10) : null);

const isPresent = (v: unknown) => (Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined && v !== "");

function holds(condition: Condition, key: ResolvedKey | null, context: EvaluationContext, message: MessageRow | null): boolean {
  // a key that no longer resolves (its custom attribute was deleted) matches nothing
  if (!key) return false;
  if (condition.filter_operator === "attribute_changed") return changed(condition, key, context);
  const values = condition.values as unknown[];
  const actual = read(key, context, message);
  const labels = key.source.from === "labels" ? (actual as string[]).map((l) => l.toLowerCase()) : null;
  switch (condition.filter_operator) {
    case "equal_to":
      return labels ? values.some((v) => labels.includes(String(v).toLowerCase())) : values.some((v) => same(key, actual, v));
    case "not_equal_to":
      // a missing value is not equal to any of the values (SQL's NULL NOT IN would drop the row)
      return labels ? !values.some((v) => labels.includes(String(v).toLowerCase())) : !values.some((v) => same(key, actual, v));
    case "contains":
      return contains(actual, values);
    case "does_not_contain":
      return !contains(actual, values);
    case "is_present":
      return isPresent(actual);
    case "is_not_present":
      return !isPresent(actual);
    case "is_greater_than":
    case "is_less_than": {
      const [a, b] = key.values.kind === "date" ? [asDate(String(actual ?? "")), asDate(String(values[0]))] : [asNumber(actual), asNumber(values[0])];
      if (a === null || b === null) return false;
      return condition.filter_operator === "is_greater_than" ? a > b : a < b;
    }
    case "days_before": {
      // Chatwoot rewrites it to is_less_than (today - N days)
      const a = asDate(String(actual ?? ""));
      const days = asNumber(values[0]);
      return a !== null && days !== null && a < context.now - days * DAY_MS;
    }
    case "starts_with": {
      const text = lower(actual);
      const prefix = lower(values[0]);
      return text !== null && prefix !== null && text.startsWith(prefix);
    }
  }
  return false;
}

/** Case-insensitive: any of the (trimmed) values occurs in the text. */
function contains(actual: unknown, values: unknown[]): boolean {
  const text = lower(actual);
  if (text === null) return false;
  return values.some((v) => {
    const needle = lower(v)?.trim();
    return needle !== undefined && needle !== null && needle !== "" && text.includes(needle);
  });
}

/**
 * attribute_changed: the event's change of the key has its previous value in `from` and its current value
 * in `to` (an empty list is "any value", a null entry is "none"). For labels the lists must intersect.
 * Never true for an event without changed_attributes.
 */
function changed(condition: Condition, key: ResolvedKey, context: EvaluationContext): boolean {
  if (!context.changedAttributes || !key.changedAs) return false;
  const entry = context.changedAttributes.find((c) => Object.hasOwn(c, key.changedAs!))?.[key.changedAs];
  if (!entry) return false;
  let previous = entry.previous_value;
  let current = entry.current_value;
  if (key.changedAs === "custom_attributes") {
    const name = condition.attribute_key;
    previous = (previous as Record<string, unknown> | null)?.[name] ?? null;
    current = (current as Record<string, unknown> | null)?.[name] ?? null;
    if (JSON.stringify(previous) === JSON.stringify(current)) return false;
  }
  const { from, to } = condition.values as ChangedValues;
  return changeSideMatches(key, previous, from) && changeSideMatches(key, current, to);
}

function changeSideMatches(key: ResolvedKey, value: unknown, wanted: unknown[]): boolean {
  if (wanted.length === 0) return true;
  if (key.source.from === "labels") {
    const list = Array.isArray(value) ? value.map((l) => String(l).toLowerCase()) : [];
    return wanted.some((w) => (w === null ? list.length === 0 : list.includes(String(w).toLowerCase())));
  }
  return wanted.some((w) => (w === null || lower(w) === NIL ? value === null || value === undefined : same(key, value ?? null, w)));
}
