/**
 * Chatwoot's contact filter payload (`POST /contacts/filter`) turned into a SQL condition.
 * Attribute keys, filter operators and query operators come only from the allow-lists below; every
 * value is bound (a condition's values travel as one JSON array parameter, read with json_each), so
 * the statement stays within D1's 100-parameter limit whatever the number of values.
 */
import { type SQL, sql } from "drizzle-orm";
import type { AttributeDefinition } from "../custom-attributes/rows";
import { ATTRIBUTE_DISPLAY_TYPES, enumName } from "../kernel/enums";
import { type ErrorEntry, invalid } from "../kernel/errors";
import { contactSearchIds } from "./search-index";
import { trigramPhrase } from "../kernel/full-text";
import { unionAll } from "../../db/chunks";
import { DAY_COUNT_MESSAGE, DAY_MS, TIME_MESSAGE, dayCount, isTimeMs } from "../kernel/time-values";

export type FilterCondition = {
  attribute_key: string;
  filter_operator: string;
  values: Array<string | number | boolean>;
  query_operator?: string | null;
};

type Operator =
  | "equal_to"
  | "not_equal_to"
  | "contains"
  | "does_not_contain"
  | "starts_with"
  | "is_present"
  | "is_not_present"
  | "is_greater_than"
  | "is_less_than"
  | "days_before";

/** How a key is compared: case-insensitive text, a bare text, epoch-ms time, boolean, number, date text, labels. */
type Kind = "ci_text" | "text" | "time" | "boolean" | "number" | "date" | "labels";
type Attribute = { expression: SQL; kind: Kind; operators: readonly Operator[] };

const TEXT_OPS = ["equal_to", "not_equal_to", "contains", "does_not_contain"] as const;
const TIME_OPS = ["is_greater_than", "is_less_than", "days_before"] as const;
const PRESENCE = ["is_present", "is_not_present"] as const;

/** Chatwoot's contact filter keys (reference §7.6) and the columns that hold them. */
const STANDARD: Record<string, Attribute> = {
  name: { expression: sql`contacts.name`, kind: "ci_text", operators: TEXT_OPS },
  email: { expression: sql`contacts.email`, kind: "ci_text", operators: TEXT_OPS },
  phone_number: { expression: sql`contacts.phone_number`, kind: "text", operators: [...TEXT_OPS, "starts_with"] },
  identifier: { expression: sql`contacts.identifier`, kind: "text", operators: ["equal_to", "not_equal_to"] },
  country_code: {
    expression: sql`json_extract(contacts.additional_attributes, '$.country_code')`,
    kind: "ci_text",
    operators: ["equal_to", "not_equal_to"],
  },
  city: { expression: sql`contacts.city_sort`, kind: "ci_text", operators: TEXT_OPS },
  company: { expression: sql`contacts.company_sort`, kind: "ci_text", operators: TEXT_OPS },
  labels: { expression: sql`contacts.id`, kind: "labels", operators: ["equal_to", "not_equal_to", ...PRESENCE] },
  created_at: { expression: sql`contacts.created_at`, kind: "time", operators: TIME_OPS },
  last_activity_at: { expression: sql`contacts.last_activity_at`, kind: "time", operators: TIME_OPS },
  blocked: { expression: sql`contacts.blocked`, kind: "boolean", operators: ["equal_to", "not_equal_to"] },
};

/** Custom attributes: operators by display type, as the dashboard offers them. */
function customAttribute(definition: AttributeDefinition): Attribute {
  // Looked up by key rather than by JSON path, so no key (quotes, dots) can make a malformed path.
  const expression = sql`(SELECT value FROM json_each(contacts.custom_attributes) WHERE key = ${definition.attributeKey})`;
  switch (enumName(ATTRIBUTE_DISPLAY_TYPES, definition.attributeDisplayType)) {
    case "number":
    case "currency":
    case "percent":
      return { expression, kind: "number", operators: ["equal_to", "not_equal_to", "is_greater_than", "is_less_than", ...PRESENCE] };
    case "date":
      return { expression, kind: "date", operators: ["equal_to", "not_equal_to", ...TIME_OPS, ...PRESENCE] };
    case "checkbox":
      return { expression, kind: "boolean", operators: ["equal_to", "not_equal_to"] };
    case "list":
      return { expression, kind: "ci_text", operators: ["equal_to", "not_equal_to", ...PRESENCE] };
    default:
      return { expression, kind: "ci_text", operators: [...TEXT_OPS, ...PRESENCE] };
  }
}

/** A value past the range its key allows: which one, and why. */
type OutOfRange = { outOfRange: number; message: string };

/**
 * The values as bound parameters of the key's kind; null when one of them does not fit, or the value
 * that is out of range (a day count or a time no date can hold).
 */
function boundValues(kind: Kind, operator: Operator, values: FilterCondition["values"]): unknown[] | OutOfRange | null {
  if (operator === "is_present" || operator === "is_not_present") return [];
  if (values.length === 0) return null;
  if (operator === "days_before") {
    if (values.length !== 1) return null;
    const days = dayCount(values[0]);
    return days === null ? { outOfRange: 0, message: DAY_COUNT_MESSAGE } : [days];
  }
  const out: unknown[] = [];
  for (const [index, v] of values.entries()) {
    const text = String(v).trim();
    switch (kind) {
      case "time": {
        const ms = typeof v === "number" ? v * 1000 : Date.parse(text);
        if (Number.isNaN(ms)) return null;
        if (!isTimeMs(ms)) return { outOfRange: index, message: TIME_MESSAGE };
        out.push(ms);
        break;
      }
      case "number":
        if (text === "" || !Number.isFinite(Number(text))) return null;
        out.push(Number(text));
        break;
      case "boolean":
        if (!["true", "false", "1", "0"].includes(text.toLowerCase())) return null;
        out.push(text === "true" || text === "1" ? 1 : 0);
        break;
      case "date":
        if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(Date.parse(text))) return null;
        out.push(text);
        break;
      case "ci_text":
      case "labels":
        out.push(text.toLowerCase());
        break;
      default:
        out.push(text);
    }
  }
  return out;
}

function conditionSql(attribute: Attribute, operator: Operator, values: unknown[], at: number): SQL {
  // Text compares case-insensitively; numbers numerically even when a client stored "12" as a string.
  const col =
    attribute.kind === "ci_text"
      ? sql`lower(${attribute.expression})`
      : attribute.kind === "number"
        ? sql`CAST(${attribute.expression} AS REAL)`
        : attribute.expression;
  const list = sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;
  if (attribute.kind === "labels") {
    const tagged = (tags: SQL | null) =>
      sql`EXISTS (SELECT 1 FROM taggings t WHERE t.account_id = contacts.account_id AND t.taggable_type = 'Contact' AND t.taggable_id = contacts.id${tags ? sql` AND lower(t.tag) IN ${tags}` : sql``})`;
    if (operator === "equal_to") return tagged(list);
    if (operator === "not_equal_to") return sql`NOT ${tagged(list)}`;
    return operator === "is_present" ? tagged(null) : sql`NOT ${tagged(null)}`;
  }
  const anyContains = sql`EXISTS (SELECT 1 FROM json_each(${JSON.stringify(values)}) v WHERE instr(${col}, v.value) > 0)`;
  const first = values[0];
  switch (operator) {
    case "equal_to":
      return sql`${col} IN ${list}`;
    case "not_equal_to":
      return sql`(${col} IS NULL OR ${col} NOT IN ${list})`;
    case "contains":
      return anyContains;
    case "does_not_contain":
      return sql`(${col} IS NULL OR NOT ${anyContains})`;
    case "starts_with":
      return sql`EXISTS (SELECT 1 FROM json_each(${JSON.stringify(values)}) v WHERE substr(${col}, 1, length(v.value)) = v.value)`;
    case "is_present":
      return sql`(${col} IS NOT NULL AND ${col} != '')`;
    case "is_not_present":
      return sql`(${col} IS NULL OR ${col} = '')`;
    case "is_greater_than":
      return sql`${col} > ${first}`;
    case "is_less_than":
      return sql`${col} < ${first}`;
    case "days_before": {
      const limit = at - Number(first) * DAY_MS;
      return attribute.kind === "date" ? sql`${col} < ${new Date(limit).toISOString().slice(0, 10)}` : sql`${col} < ${limit}`;
    }
  }
}

/**
 * The ids of the account's listed contacts that may satisfy one condition, read through an index: the
 * equality indexes (email, phone number, identifier, the sort keys of name, city and company), the list
 * indexes' ranges over the two times, the label index of taggings, or the trigram index for `contains`
 * on name, email and phone number (three characters or more). A superset: the whole condition is still
 * checked on each candidate. Null when no index serves the condition (it then needs a scan).
 */
function indexPath(accountId: number, key: string, operator: Operator, values: unknown[], at: number): SQL | null {
  const listed = sql`account_id = ${accountId} AND resolved = 1`;
  const list = sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;
  const equalOn = (column: string) =>
    sql`SELECT id FROM contacts WHERE ${listed} AND ${sql.identifier(column)} IS NOT NULL AND ${sql.identifier(column)} IN ${list}`;
  if (operator === "equal_to") {
    switch (key) {
      case "email":
        return equalOn("email");
      case "phone_number":
        return equalOn("phone_number");
      case "identifier":
        // Without `resolved = 1`, which would tie with the (account_id, resolved, id) index and let SQLite
        // walk every listed contact instead of the identifier's unique index (the where still checks it).
        return sql`SELECT id FROM contacts WHERE account_id = ${accountId} AND identifier IS NOT NULL AND identifier IN ${list}`;
      case "city":
        return equalOn("city_sort");
      case "company":
        return equalOn("company_sort");
      case "name": {
        // name_sort is "0" or "1" before the lower-cased name (fields.ts)
        const keys = values.flatMap((v) => [`0${String(v)}`, `1${String(v)}`]);
        return sql`SELECT id FROM contacts WHERE ${listed} AND name_sort IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`;
      }
      case "labels":
        return sql`SELECT taggable_id AS id FROM taggings WHERE account_id = ${accountId} AND taggable_type = 'Contact' AND lower(tag) IN ${list}`;
    }
  }
  if ((key === "created_at" || key === "last_activity_at") && operator !== "equal_to") {
    const col = sql.identifier(key);
    const bound = operator === "days_before" ? at - Number(values[0]) * DAY_MS : Number(values[0]);
    const compare = operator === "is_greater_than" ? sql`${col} > ${bound}` : sql`${col} < ${bound}`;
    return sql`SELECT id FROM contacts WHERE ${listed} AND ${compare}`;
  }
  if ((operator === "contains" || operator === "starts_with") && (key === "name" || key === "email" || key === "phone_number")) {
    const phrases = values.map((v) => trigramPhrase(String(v)));
    if (phrases.some((p) => p === null)) return null;
    return contactSearchIds(accountId, [key], phrases as string[]);
  }
  return null;
}

/** What a payload compiles to: its condition, and the index candidates when every OR branch has some. */
export type CompiledFilter = { where: SQL; candidates: SQL | null };

/**
 * The condition of the whole payload. `query_operator` links a condition to the next one; SQL's own
 * precedence applies (AND binds tighter than OR), as in Chatwoot. A problem is a 422 naming
 * `payload[i].<field>`. `candidates` unions, for each run of AND-linked conditions, the index path of
 * one of them; it is null when some run has no condition an index serves.
 */
export function compileContactFilter(accountId: number, conditions: FilterCondition[], definitions: AttributeDefinition[], at: number): CompiledFilter {
  const custom = new Map(definitions.map((d) => [d.attributeKey, d]));
  const errors: ErrorEntry[] = [];
  const parts: SQL[] = [];
  /** One entry per OR branch: the index path chosen for it, null while none of its conditions has one. */
  const branches: Array<SQL | null> = [null];
  conditions.forEach((condition, i) => {
    const field = (name: string) => `payload[${i}].${name}`;
    const definition = custom.get(condition.attribute_key);
    // own keys only: "constructor" or "__proto__" must not find Object.prototype's members
    const standard = Object.hasOwn(STANDARD, condition.attribute_key) ? STANDARD[condition.attribute_key] : undefined;
    const attribute = standard ?? (definition && customAttribute(definition));
    if (!attribute) {
      const message = `is not a contact attribute or a custom attribute of this account: ${condition.attribute_key}`;
      errors.push({ field: field("attribute_key"), message, code: "unknown_attribute" });
      return;
    }
    const operator = condition.filter_operator as Operator;
    if (!attribute.operators.includes(operator)) {
      const message = `must be one of ${attribute.operators.join(", ")} for ${condition.attribute_key}`;
      errors.push({ field: field("filter_operator"), message, code: "invalid_operator" });
      return;
    }
    const values = boundValues(attribute.kind, operator, condition.values);
    if (values === null) {
      errors.push({ field: field("values"), message: `are not valid for ${condition.attribute_key} ${operator}`, code: "invalid_value" });
      return;
    }
    if (!Array.isArray(values)) {
      errors.push({ field: field(`values[${values.outOfRange}]`), message: values.message, code: "out_of_range" });
      return;
    }
    const last = i === conditions.length - 1;
    const link = condition.query_operator?.toUpperCase();
    if (!last && link !== "AND" && link !== "OR") {
      errors.push({ field: field("query_operator"), message: "must be AND or OR", code: "invalid_query_operator" });
      return;
    }
    parts.push(sql`(${conditionSql(attribute, operator, values, at)})`);
    if (standard && branches[branches.length - 1] === null) {
      branches[branches.length - 1] = indexPath(accountId, condition.attribute_key, operator, values, at);
    }
    if (!last) parts.push(link === "AND" ? sql` AND ` : sql` OR `);
    if (!last && link === "OR") branches.push(null);
  });
  if (errors.length > 0) throw invalid(errors);
  const served = branches.every((b) => b !== null);
  return {
    where: sql`(${sql.join(parts)})`,
    candidates: served ? unionAll(branches as SQL[]) : null,
  };
}
