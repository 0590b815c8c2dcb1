/**
 * Custom attribute values checked on the server against their definitions (Chatwoot checks them only in
 * its dashboard). A key without a definition is stored as given, as Chatwoot does; null clears a value.
 */
import { and, eq } from "drizzle-orm";
import { type Database, schema } from "../../db/client";
import { ATTRIBUTE_DISPLAY_TYPE, ATTRIBUTE_MODEL } from "../kernel/enums";
import { type ErrorEntry } from "../kernel/errors";
import type { AttributeDefinition } from "./rows";
import { MAX_PATTERN_COST, type PatternProblem, SLOW_PATTERN_MESSAGE, readPattern } from "./pattern-cost";

// Declared in ./rows; named here too for the modules that read definitions with their values.
export type { AttributeDefinition };

const { customAttributeDefinitions } = schema;

/** A stored ATTRIBUTE_MODEL value (ATTRIBUTE_MODEL.conversation_attribute, ATTRIBUTE_MODEL.contact_attribute). */
export type AttributeModel = (typeof ATTRIBUTE_MODEL)[keyof typeof ATTRIBUTE_MODEL];

/** Statement: the account's definitions of one model. */
export function customAttributeDefinitionsQuery(db: Database, accountId: number, model: AttributeModel) {
  return db
    .select()
    .from(customAttributeDefinitions)
    .where(and(eq(customAttributeDefinitions.accountId, accountId), eq(customAttributeDefinitions.attributeModel, model)));
}

/** Longest pattern accepted: user patterns run on the server, so they are kept small. */
export const MAX_PATTERN_LENGTH = 500;
/** Longest text value (Chatwoot's limit for conversation attribute strings). */
export const MAX_VALUE_LENGTH = 1500;

/** A definition's `regex_pattern`, written `/body/flags` or as a bare body; null when it does not compile or is refused. */
export function compileAttributePattern(pattern: string): RegExp | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return null;
  const read = readPattern(pattern);
  return "problem" in read || read.shape.cost(MAX_VALUE_LENGTH) > MAX_PATTERN_COST ? null : read.regexp;
}

/** Why a pattern is refused when saved, or null: it must compile and stay cheap on the longest value (pattern-cost.ts). */
export function attributePatternProblem(pattern: string): PatternProblem | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return { message: `is too long (maximum is ${MAX_PATTERN_LENGTH} characters)`, code: "too_long" };
  const read = readPattern(pattern);
  if ("problem" in read) return read.problem;
  return read.shape.cost(MAX_VALUE_LENGTH) > MAX_PATTERN_COST ? { message: SLOW_PATTERN_MESSAGE, code: "slow_regex" } : null;
}

/**
 * Whether `value` matches a stored pattern. The cost is checked again at the value's own length before
 * anything runs, because a pattern saved before the check (or under an older one) is still stored:
 * such a pattern is "unusable" rather than a request that never ends. A value longer than an anchored
 * pattern can match is a mismatch without running it.
 */
function matchAttributePattern(pattern: string, value: string): "match" | "mismatch" | "unusable" {
  if (pattern.length > MAX_PATTERN_LENGTH) return "unusable";
  const read = readPattern(pattern);
  if ("problem" in read) return "unusable";
  if (value.length > read.shape.longestMatch) return "mismatch";
  if (read.shape.cost(value.length) > MAX_PATTERN_COST) return "unusable";
  return read.regexp.test(value) ? "match" : "mismatch";
}

const isNumeric = (v: unknown) =>
  (typeof v === "number" && Number.isFinite(v)) || (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)));

const isHttpUrl = (v: unknown) => {
  if (typeof v !== "string") return false;
  try {
    const url = new URL(v);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
};

const isDate = (v: unknown) =>
  typeof v === "string" &&
  /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) &&
  !Number.isNaN(Date.parse(v)) &&
  isCalendarDay(v.slice(0, 10));

/** Date.parse rolls 2023-02-29 over into March; a real day survives the round trip. */
function isCalendarDay(ymd: string) {
  const [year, month, day] = ymd.split("-").map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Why `value` does not fit `definition`, or null when it fits. */
function mismatch(definition: AttributeDefinition, value: unknown): { message: string; code: string } | null {
  switch (definition.attributeDisplayType) {
    case ATTRIBUTE_DISPLAY_TYPE.text: {
      if (typeof value !== "string") return { message: "must be text", code: "invalid_type" };
      if (value.length > MAX_VALUE_LENGTH) return { message: `is too long (maximum is ${MAX_VALUE_LENGTH} characters)`, code: "too_long" };
      const outcome = definition.regexPattern ? matchAttributePattern(definition.regexPattern, value) : "match";
      if (outcome === "mismatch") return { message: definition.regexCue || "does not match the required pattern", code: "pattern_mismatch" };
      if (outcome === "unusable") {
        return { message: "cannot be checked: the attribute's regex_pattern could take too long to match; an administrator must change it", code: "pattern_unusable" };
      }
      return null;
    }
    case ATTRIBUTE_DISPLAY_TYPE.number:
    case ATTRIBUTE_DISPLAY_TYPE.currency:
    case ATTRIBUTE_DISPLAY_TYPE.percent:
      return isNumeric(value) ? null : { message: "must be a number", code: "invalid_type" };
    case ATTRIBUTE_DISPLAY_TYPE.link:
      return isHttpUrl(value) ? null : { message: "must be an http or https URL", code: "invalid_format" };
    case ATTRIBUTE_DISPLAY_TYPE.date:
      return isDate(value) ? null : { message: "must be a date (YYYY-MM-DD or ISO 8601)", code: "invalid_format" };
    case ATTRIBUTE_DISPLAY_TYPE.list:
      return typeof value === "string" && definition.attributeValues.includes(value)
        ? null
        : { message: `must be one of: ${definition.attributeValues.join(", ")}`, code: "invalid_value" };
    case ATTRIBUTE_DISPLAY_TYPE.checkbox:
      return typeof value === "boolean" ? null : { message: "must be true or false", code: "invalid_type" };
    default:
      return null;
  }
}

/** One 422 entry per value that does not fit its definition; `field` is `<fieldPrefix>.<key>`. */
export function checkCustomAttributeValues(
  definitions: AttributeDefinition[],
  values: Record<string, unknown>,
  fieldPrefix = "custom_attributes",
): ErrorEntry[] {
  const byKey = new Map(definitions.map((d) => [d.attributeKey, d]));
  return Object.entries(values).flatMap(([key, value]) => {
    const definition = byKey.get(key);
    if (!definition || value === null) return [];
    const problem = mismatch(definition, value);
    return problem ? [{ field: `${fieldPrefix}.${key}`, ...problem }] : [];
  });
}
