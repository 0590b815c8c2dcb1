/**
 * Server-side check of custom attribute values against the account's definitions. Chatwoot checks them
 * only in its dashboard (type, list options, regex); edgedesk refuses a mismatch with a 422 naming the key.
 * Keys without a definition pass, as in Chatwoot; `null` clears a value and always passes.
 */
import { and, eq } from "drizzle-orm";
import { type Database, schema } from "../db/client";
import type { ErrorEntry } from "../http/errors";
import { ATTRIBUTE_DISPLAY_TYPES, ATTRIBUTE_MODELS, enumName, enumValue } from "./enums";

const { customAttributeDefinitions } = schema;

export type CustomAttributeDefinition = typeof customAttributeDefinitions.$inferSelect;
export type AttributeModel = (typeof ATTRIBUTE_MODELS)[number];

/** The account's definitions for one model, for a read batch. */
export function customAttributeDefinitionsQuery(db: Database, accountId: number, model: AttributeModel) {
  return db
    .select()
    .from(customAttributeDefinitions)
    .where(
      and(
        eq(customAttributeDefinitions.accountId, accountId),
        eq(customAttributeDefinitions.attributeModel, enumValue(ATTRIBUTE_MODELS, model)),
      ),
    );
}

/** Chatwoot stores patterns as `/body/flags` (Ruby style) or as a bare body. An unusable one checks nothing. */
export function parsePattern(pattern: string | null): RegExp | null {
  if (!pattern) return null;
  const slashed = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  const [body, flags] = slashed ? [slashed[1], slashed[2].replace(/[^imsu]/g, "")] : [pattern, ""];
  try {
    return new RegExp(body, flags);
  } catch {
    return null;
  }
}

const isNumeric = (v: unknown) =>
  (typeof v === "number" && Number.isFinite(v)) || (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)));

function isHttpUrl(v: unknown) {
  if (typeof v !== "string") return false;
  try {
    const url = new URL(v);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** A date or date-time as the dashboard's date picker sends it (ISO 8601). */
const isDate = (v: unknown) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v));

function problem(definition: CustomAttributeDefinition, value: unknown): { message: string; code: string } | null {
  const type = enumName(ATTRIBUTE_DISPLAY_TYPES, definition.attributeDisplayType);
  switch (type) {
    case "text": {
      if (typeof value !== "string") return { message: "must be a string", code: "invalid_type" };
      const pattern = parsePattern(definition.regexPattern);
      if (pattern && !pattern.test(value)) {
        return { message: definition.regexCue || `does not match ${definition.regexPattern}`, code: "pattern_mismatch" };
      }
      return null;
    }
    case "number":
    case "currency":
    case "percent":
      return isNumeric(value) ? null : { message: "must be a number", code: "invalid_type" };
    case "link":
      return isHttpUrl(value) ? null : { message: "must be an http or https URL", code: "invalid_format" };
    case "date":
      return isDate(value) ? null : { message: "must be an ISO 8601 date", code: "invalid_format" };
    case "list":
      return typeof value === "string" && definition.attributeValues.includes(value)
        ? null
        : { message: `must be one of: ${definition.attributeValues.join(", ")}`, code: "invalid_value" };
    case "checkbox":
      return typeof value === "boolean" ? null : { message: "must be true or false", code: "invalid_type" };
    default:
      return null;
  }
}

/**
 * One error per value that does not fit its definition, with `field` = `${fieldPrefix}.${key}`
 * (e.g. "custom_attributes.plan").
 */
export function checkCustomAttributeValues(
  definitions: readonly CustomAttributeDefinition[],
  values: Record<string, unknown>,
  fieldPrefix: string,
): ErrorEntry[] {
  const byKey = new Map(definitions.map((d) => [d.attributeKey, d]));
  return Object.entries(values).flatMap(([key, value]) => {
    const definition = byKey.get(key);
    if (!definition || value === null) return [];
    const found = problem(definition, value);
    return found ? [{ field: `${fieldPrefix}.${key}`, ...found }] : [];
  });
}
