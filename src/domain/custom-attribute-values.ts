/**
 * Custom attribute values checked on the server against their definitions (Chatwoot checks them only in
 * its dashboard). A key without a definition is stored as given, as Chatwoot does; null clears a value.
 */
import { and, eq } from "drizzle-orm";
import { type Database, schema } from "../db/client";
import type { ErrorEntry } from "../http/errors";

const { customAttributeDefinitions } = schema;

export type AttributeDefinition = typeof customAttributeDefinitions.$inferSelect;

/** 0 conversation_attribute, 1 contact_attribute */
export type AttributeModel = 0 | 1;

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

/** A definition's `regex_pattern`, written `/body/flags` or as a bare body; null when it does not compile. */
export function compileAttributePattern(pattern: string): RegExp | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return null;
  const delimited = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  try {
    return delimited ? new RegExp(delimited[1], delimited[2]) : new RegExp(pattern);
  } catch {
    return null;
  }
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
    case 0: {
      if (typeof value !== "string") return { message: "must be text", code: "invalid_type" };
      if (value.length > MAX_VALUE_LENGTH) return { message: `is too long (maximum is ${MAX_VALUE_LENGTH} characters)`, code: "too_long" };
      const pattern = definition.regexPattern ? compileAttributePattern(definition.regexPattern) : null;
      if (pattern && !pattern.test(value)) return { message: definition.regexCue || "does not match the required pattern", code: "pattern_mismatch" };
      return null;
    }
    case 1:
    case 2:
    case 3:
      return isNumeric(value) ? null : { message: "must be a number", code: "invalid_type" };
    case 4:
      return isHttpUrl(value) ? null : { message: "must be an http or https URL", code: "invalid_format" };
    case 5:
      return isDate(value) ? null : { message: "must be a date (YYYY-MM-DD or ISO 8601)", code: "invalid_format" };
    case 6:
      return typeof value === "string" && definition.attributeValues.includes(value)
        ? null
        : { message: `must be one of: ${definition.attributeValues.join(", ")}`, code: "invalid_value" };
    case 7:
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
