/**
 * Custom attribute values checked on the server against their definitions (Chatwoot checks them only in
 * its dashboard). A key without a definition is stored as given, as Chatwoot does; null clears a value.
 */
import { and, eq } from "drizzle-orm";
import { type Database, schema } from "../../db/client";
import { ATTRIBUTE_DISPLAY_TYPE, ATTRIBUTE_MODEL } from "../kernel/enums";
import { type ErrorEntry } from "../kernel/errors";
import type { AttributeDefinition } from "./rows";

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

/** A definition's `regex_pattern`, written `/body/flags` or as a bare body; null when it does not compile or is unsafe. */
export function compileAttributePattern(pattern: string): RegExp | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return null;
  const delimited = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  const body = delimited ? delimited[1] : pattern;
  try {
    const compiled = delimited ? new RegExp(body, delimited[2]) : new RegExp(body);
    return patternCostProblem(body) === null ? compiled : null;
  } catch {
    return null;
  }
}

/** Why a pattern that compiles is refused, or null; for the 422 on `regex_pattern`. */
export function attributePatternProblem(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `is too long (maximum is ${MAX_PATTERN_LENGTH} characters)`;
  const delimited = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  try {
    if (delimited) new RegExp(delimited[1], delimited[2]);
    else new RegExp(pattern);
  } catch {
    return "is not a valid regular expression";
  }
  return patternCostProblem(delimited ? delimited[1] : pattern);
}

/**
 * The runtime's regular expressions backtrack and cannot be interrupted, and a value is matched inside
 * the request: `^(a+)+$` against 1,500 "a"s and a "!" never finishes. So a pattern is refused unless its
 * worst case is bounded. Working through the pattern's syntax:
 * - a group repeated without a small bound (`*`, `+`, `{n,}`, `{n,m}` with m > 20) may not contain a
 *   variable repetition or an alternation (`(a+)+`, `(a|aa)*`: exponential);
 * - backreferences are refused (matching them is NP-hard);
 * - the unbounded repetitions in sequence, plus one when the pattern is not anchored with `^`, give the
 *   polynomial degree of the worst case, at most 3: about half a second for a 1,500-character value
 *   (`^\d*\d*\d*x$`), where degree 4 would take minutes.
 * Fixed or small repetitions (`\d{3}`, `(-\d{2,4})?`) cost nothing here.
 */
const MAX_PATTERN_DEGREE = 3;
const SMALL_REPEAT = 20;

type Frame = { degree: number; variable: boolean; alternation: boolean };

function patternCostProblem(source: string): string | null {
  const tooSlow = "could take too long to match (a repeated group holds a repetition or an alternation, or too many repetitions follow each other)";
  const stack: Frame[] = [{ degree: 0, variable: false, alternation: false }];
  /** What a quantifier would apply to: a character or class, a group just closed, or nothing. */
  let last: Frame | "char" | null = null;
  const anchored = () => source.startsWith("^") && !stack[0].alternation;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    const top = stack[stack.length - 1];
    if (ch === "\\") {
      const next = source[i + 1] ?? "";
      if (/[1-9]/.test(next) || next === "k") return "may not use backreferences";
      i++;
      last = "char";
      continue;
    }
    if (ch === "[") {
      // a character class is one atom: skip to its unescaped closing bracket
      for (i++; i < source.length && source[i] !== "]"; i++) if (source[i] === "\\") i++;
      last = "char";
      continue;
    }
    if (ch === "(") {
      stack.push({ degree: 0, variable: false, alternation: false });
      if (source[i + 1] === "?") {
        // (?:  (?=  (?!  (?<=  (?<!  (?<name>
        const named = /^\?<[A-Za-z_$][\w$]*>/.exec(source.slice(i + 1));
        i += named ? named[0].length : source[i + 2] === "<" ? 3 : 2;
      }
      last = null;
      continue;
    }
    if (ch === ")") {
      if (stack.length === 1) return null; // unbalanced: the RegExp constructor has refused it already
      const group = stack.pop()!;
      const parent = stack[stack.length - 1];
      parent.degree += group.degree;
      parent.variable ||= group.variable;
      parent.alternation ||= group.alternation;
      last = group;
      continue;
    }
    if (ch === "|") {
      top.alternation = true;
      last = null;
      continue;
    }
    const quantifier = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})\??/.exec(source.slice(i));
    if (quantifier && last !== null) {
      i += quantifier[0].length - 1;
      const [, symbol, low, comma, high] = quantifier;
      const min = symbol ? (symbol === "+" ? 1 : 0) : Number(low);
      const max = symbol ? (symbol === "?" ? 1 : Number.POSITIVE_INFINITY) : comma ? (high === "" ? Number.POSITIVE_INFINITY : Number(high)) : Number(low);
      const unbounded = max > SMALL_REPEAT && min !== max;
      if (last !== "char") {
        if (unbounded && (last.variable || last.alternation)) return tooSlow;
        // the group was counted once when it closed; a small repetition repeats its cost
        if (!unbounded) top.degree += last.degree * (Math.min(max, SMALL_REPEAT) - 1);
      }
      if (unbounded) top.degree += 1;
      if (min !== max) top.variable = true;
      last = null;
      continue;
    }
    last = "char";
  }
  return stack[0].degree + (anchored() ? 0 : 1) > MAX_PATTERN_DEGREE ? tooSlow : null;
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
      const pattern = definition.regexPattern ? compileAttributePattern(definition.regexPattern) : null;
      if (pattern && !pattern.test(value)) return { message: definition.regexCue || "does not match the required pattern", code: "pattern_mismatch" };
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
