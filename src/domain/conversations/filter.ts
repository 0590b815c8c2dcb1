/**
 * The conversation filter payload (Chatwoot §7.6) turned into one SQL condition: keys and operators
 * come from an allow-list, every value is bound. Conditions join left to right with their
 * query_operator, with SQL's precedence (AND before OR), as Chatwoot's generated SQL does. Each
 * allow-listed key also has an index path (its equality, presence or range) that finds the candidates,
 * so a filter reads what it matches rather than the account.
 */
import { sql, type SQL } from "drizzle-orm";
import { schema, sameAccount } from "../../db/client";
import { unionAll } from "../../db/chunks";
import type { AttributeDefinition } from "../custom-attributes/values";
import { ATTRIBUTE_MODELS, CONVERSATION_STATUSES, PRIORITIES, enumValue } from "../kernel/enums";
import { type ErrorEntry, invalid } from "../kernel/errors";
import { DAY_COUNT_MESSAGE, DAY_MS, TIME_MESSAGE, dayCount, isTimeMs } from "../kernel/time-values";

/** One condition of a conversation filter, as the filter API sends it (src/schemas/conversations.ts checks its shape). */
export type FilterCondition = {
  attribute_key: string;
  filter_operator: string;
  values: Array<string | number | boolean | null>;
  query_operator?: string | null;
  custom_attribute_type?: "conversation_attribute" | "contact_attribute" | null;
};

const { conversations: c } = schema;

const EQ = ["equal_to", "not_equal_to"];
const PRESENCE = ["is_present", "is_not_present"];
const TEXT = [...EQ, "contains", "does_not_contain"];
const DATE = ["is_greater_than", "is_less_than", "days_before"];

type Kind = "status" | "priority" | "id" | "labels" | "display_id" | "additional" | "date";
const STANDARD_KEYS: Record<string, { kind: Kind; operators: string[]; column?: SQL }> = {
  status: { kind: "status", operators: EQ },
  priority: { kind: "priority", operators: EQ },
  assignee_id: { kind: "id", operators: [...EQ, ...PRESENCE], column: sql`${c.assigneeId}` },
  inbox_id: { kind: "id", operators: [...EQ, ...PRESENCE], column: sql`${c.inboxId}` },
  team_id: { kind: "id", operators: [...EQ, ...PRESENCE], column: sql`${c.teamId}` },
  campaign_id: { kind: "id", operators: [...EQ, ...PRESENCE], column: sql`${c.campaignId}` },
  labels: { kind: "labels", operators: [...EQ, ...PRESENCE] },
  display_id: { kind: "display_id", operators: TEXT },
  browser_language: { kind: "additional", operators: EQ },
  conversation_language: { kind: "additional", operators: EQ },
  referer: { kind: "additional", operators: TEXT },
  mail_subject: { kind: "additional", operators: TEXT },
  created_at: { kind: "date", operators: DATE, column: sql`${c.createdAt}` },
  last_activity_at: { kind: "date", operators: DATE, column: sql`${c.lastActivityAt}` },
};
const CUSTOM_OPERATORS = [...TEXT, ...PRESENCE, "is_greater_than", "is_less_than"];

class ConditionError extends Error {
  constructor(readonly entry: ErrorEntry) {
    super(entry.message);
  }
}

const fail = (field: string, message: string, code: string): never => {
  throw new ConditionError({ field, message, code });
};

/**
 * The values of a condition as one JSON parameter read with json_each: binding each value would take
 * 20 conditions of 50 values past D1's 100 bound parameters a statement ("too many SQL variables").
 */
const bound = (values: unknown[]) => sql`SELECT value FROM json_each(${JSON.stringify(values)})`;

function equality(column: SQL, operator: string, values: unknown[]) {
  const inList = sql`${column} IN (${bound(values)})`;
  return operator === "equal_to" ? inList : sql`(${column} IS NULL OR NOT ${inList})`;
}

function textMatch(column: SQL, operator: string, values: unknown[]) {
  if (operator === "contains" || operator === "does_not_contain") {
    const any = sql`EXISTS (SELECT 1 FROM json_each(${JSON.stringify(values.map(String))}) v WHERE instr(lower(${column}), lower(v.value)) > 0)`;
    return operator === "contains" ? sql`(${any})` : sql`NOT coalesce((${any}), 0)`;
  }
  return equality(column, operator, values.map(String));
}

/** A date value (the first of `field`): Unix seconds, or a date string, within a calendar's range. */
function toMs(value: unknown, field: string): number {
  const ms =
    typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value))
      ? Number(value) * 1000
      : typeof value === "string"
        ? Date.parse(value)
        : Number.NaN;
  if (Number.isNaN(ms)) fail(field, "must be dates (YYYY-MM-DD or Unix seconds)", "invalid_value");
  return isTimeMs(ms) ? ms : fail(`${field}[0]`, TIME_MESSAGE, "out_of_range");
}

function dateMatch(column: SQL, operator: string, values: unknown[], field: string, at: number) {
  if (operator === "days_before") {
    const days = dayCount(values[0]) ?? fail(`${field}[0]`, DAY_COUNT_MESSAGE, "out_of_range");
    return sql`${column} < ${at - days * DAY_MS}`;
  }
  const ms = toMs(values[0], field);
  return operator === "is_greater_than" ? sql`${column} > ${ms}` : sql`${column} < ${ms}`;
}

function enumValues(names: readonly string[], values: unknown[], field: string) {
  return values.map((v) => {
    const index = names.indexOf(String(v));
    return index >= 0 ? index : fail(field, `must be among: ${names.join(", ")}`, "invalid_value");
  });
}

function standardCondition(key: string, kind: Kind, column: SQL | undefined, op: string, values: unknown[], field: string, at: number): SQL {
  switch (kind) {
    case "status":
      return equality(sql`${c.status}`, op, enumValues(CONVERSATION_STATUSES, values, field));
    case "priority":
      return equality(sql`${c.priority}`, op, enumValues(PRIORITIES, values, field));
    case "id": {
      if (op === "is_present") return sql`${column} IS NOT NULL`;
      if (op === "is_not_present") return sql`${column} IS NULL`;
      const ids = values.map((v, i) => {
        if (!Number.isInteger(Number(v)) || v === null || v === "") return fail(field, "must be ids", "invalid_value");
        return Number.isSafeInteger(Number(v)) ? Number(v) : fail(`${field}[${i}]`, "is past the largest id", "out_of_range");
      });
      return equality(column!, op, ids);
    }
    case "labels": {
      const tagged = (tags: SQL | undefined) =>
        sql`EXISTS (SELECT 1 FROM taggings t WHERE t.account_id = ${c.accountId} AND t.taggable_type = 'Conversation' AND t.taggable_id = ${c.id}${tags ?? sql``})`;
      if (op === "is_present") return tagged(undefined);
      if (op === "is_not_present") return sql`NOT ${tagged(undefined)}`;
      // case-insensitively, as `labels[]` and Chatwoot's tagged_with
      const any = tagged(sql` AND lower(t.tag) IN (${bound(values.map((v) => String(v).toLowerCase()))})`);
      return op === "equal_to" ? any : sql`NOT ${any}`;
    }
    case "display_id":
      return op === "contains" || op === "does_not_contain"
        ? textMatch(sql`CAST(${c.displayId} AS TEXT)`, op, values)
        : equality(sql`${c.displayId}`, op, values.map(Number));
    case "additional":
      return textMatch(sql`json_extract(${c.additionalAttributes}, ${`$."${key}"`})`, op, values);
    case "date":
      return dateMatch(column!, op, values, field, at);
  }
}

function customCondition(value: SQL, op: string, values: unknown[], field: string) {
  if (op === "is_present") return sql`${value} IS NOT NULL`;
  if (op === "is_not_present") return sql`${value} IS NULL`;
  if (op === "is_greater_than" || op === "is_less_than") {
    const n = Number(values[0]);
    if (!Number.isFinite(n)) fail(field, "must be a number", "invalid_value");
    return op === "is_greater_than" ? sql`${value} > ${n}` : sql`${value} < ${n}`;
  }
  return textMatch(value, op, values);
}

const ADDITIONAL_INDEXED = new Set<string>(schema.ADDITIONAL_FILTER_KEYS);

/**
 * The ids of the account's conversations that may satisfy one standard condition, read through an index
 * (drizzle/schema.ts): status, priority, assignee, team, campaign and the additional attributes by their
 * (account, key) indexes, the inbox by its own, labels by the taggings' (account, label, conversation)
 * index, display_id by its unique index, the two times by their (account, time) indexes. A superset: the
 * whole payload is still checked on each candidate. Null when no index serves the condition.
 */
function indexPath(accountId: number, key: string, kind: Kind, op: string, values: unknown[], at: number): SQL | null {
  const own = sql`account_id = ${accountId}`;
  const inList = (column: SQL, list: unknown[]) => sql`SELECT id FROM conversations WHERE ${own} AND ${column} IN (${bound(list)})`;
  const presence = (column: SQL) => sql`SELECT id FROM conversations WHERE ${own} AND ${column} IS ${op === "is_present" ? sql`NOT NULL` : sql`NULL`}`;
  switch (kind) {
    case "status":
      return op === "equal_to" ? inList(sql`status`, enumValues(CONVERSATION_STATUSES, values, "")) : null;
    case "priority":
      return op === "equal_to" ? inList(sql`priority`, enumValues(PRIORITIES, values, "")) : null;
    case "id": {
      const column = sql`${sql.identifier(key)}`;
      if (key === "inbox_id") return op === "equal_to" ? sql`SELECT id FROM conversations WHERE inbox_id IN (${bound(values.map(Number))}) AND ${sameAccount(sql.raw("account_id"), sql.raw(String(accountId)))}` : null;
      if (op === "equal_to") return inList(column, values.map(Number));
      return PRESENCE.includes(op) ? presence(column) : null;
    }
    case "labels": {
      const tagged = sql`SELECT taggable_id AS id FROM taggings WHERE account_id = ${accountId} AND taggable_type = 'Conversation'`;
      if (op === "equal_to") return sql`${tagged} AND lower(tag) IN (${bound(values.map((v) => String(v).toLowerCase()))})`;
      return op === "is_present" ? tagged : null;
    }
    case "display_id":
      return op === "equal_to" ? inList(sql`display_id`, values.map(Number)) : null;
    case "additional":
      // spelled as the expression indexes are, so SQLite uses them
      return op === "equal_to" && ADDITIONAL_INDEXED.has(key) ? inList(sql`additional_attributes ->> ${sql.raw(`'$.${key}'`)}`, values.map(String)) : null;
    case "date": {
      const column = sql`${sql.identifier(key)}`;
      // the values passed standardCondition's checks already
      if (op === "days_before") return sql`SELECT id FROM conversations WHERE ${own} AND ${column} < ${at - (dayCount(values[0]) ?? 0) * DAY_MS}`;
      const ms = toMs(values[0], "");
      return sql`SELECT id FROM conversations WHERE ${own} AND ${column} ${op === "is_greater_than" ? sql`>` : sql`<`} ${ms}`;
    }
  }
}

/** What a payload compiles to: its condition, and the index candidates when every OR branch has some. */
export type CompiledFilter = { where: SQL; candidates: SQL | null };

/**
 * The WHERE fragment for `payload`, and its index candidates: for each run of AND-linked conditions the
 * index path of one of them, unioned over the OR branches; null when some branch has no condition an
 * index serves (the caller then scans, paged). Custom attribute keys must be defined in the account
 * (`definitions`, both models; "unchecked" builds the SQL first, for a caller that reads the definitions
 * in the same batch and checks again). Throws a 422 naming each bad condition.
 */
export function filterCondition(accountId: number, payload: FilterCondition[], definitions: AttributeDefinition[] | "unchecked", at: number): CompiledFilter {
  const errors: ErrorEntry[] = [];
  const parts: SQL[] = [];
  /** One entry per OR branch: the index path chosen for it, null while none of its conditions has one. */
  const branches: Array<SQL | null> = [null];
  payload.forEach((condition, i) => {
    const base = `payload[${i}]`;
    try {
      const key = condition.attribute_key;
      const op = condition.filter_operator;
      const values = condition.values;
      // own keys only: "constructor" or "__proto__" must not find Object.prototype's members
      const standard = Object.hasOwn(STANDARD_KEYS, key) ? STANDARD_KEYS[key] : undefined;
      let part: SQL;
      let path: SQL | null = null;
      if (standard && condition.custom_attribute_type == null) {
        if (!standard.operators.includes(op)) fail(`${base}.filter_operator`, `must be one of ${standard.operators.join(", ")} for ${key}`, "invalid_operator");
        if (!PRESENCE.includes(op) && values.length === 0) fail(`${base}.values`, "must not be empty", "invalid_value");
        part = standardCondition(key, standard.kind, standard.column, op, values, `${base}.values`, at);
        path = indexPath(accountId, key, standard.kind, op, values, at);
      } else {
        const model = condition.custom_attribute_type === "contact_attribute" ? "contact_attribute" : "conversation_attribute";
        const defined =
          definitions === "unchecked" || definitions.some((d) => d.attributeKey === key && d.attributeModel === enumValue(ATTRIBUTE_MODELS, model));
        if (!defined) {
          fail(`${base}.attribute_key`, `must be one of ${Object.keys(STANDARD_KEYS).join(", ")} or a custom attribute defined in the account`, "invalid_attribute_key");
        }
        if (!CUSTOM_OPERATORS.includes(op)) fail(`${base}.filter_operator`, `must be one of ${CUSTOM_OPERATORS.join(", ")}`, "invalid_operator");
        if (!PRESENCE.includes(op) && values.length === 0) fail(`${base}.values`, "must not be empty", "invalid_value");
        const jsonPath = `$."${key}"`;
        part =
          model === "conversation_attribute"
            ? customCondition(sql`json_extract(${c.customAttributes}, ${jsonPath})`, op, values, `${base}.values`)
            : sql`EXISTS (SELECT 1 FROM contacts ct WHERE ct.id = ${c.contactId} AND ct.account_id = ${c.accountId} AND ${customCondition(sql`json_extract(ct.custom_attributes, ${jsonPath})`, op, values, `${base}.values`)})`;
      }
      const link = (condition.query_operator ?? "").toUpperCase();
      const last = i === payload.length - 1;
      if (!last && link !== "AND" && link !== "OR") fail(`${base}.query_operator`, 'must be either "AND" or "OR"', "invalid_query_operator");
      parts.push(last ? sql`(${part})` : sql`(${part}) ${sql.raw(link)} `);
      if (branches[branches.length - 1] === null) branches[branches.length - 1] = path;
      if (!last && link === "OR") branches.push(null);
    } catch (error) {
      if (error instanceof ConditionError) errors.push(error.entry);
      else throw error;
    }
  });
  if (errors.length) throw invalid(errors);
  const served = branches.every((b) => b !== null);
  return { where: sql`(${sql.join(parts, sql``)})`, candidates: served ? unionAll(branches as SQL[]) : null };
}
