/**
 * Building blocks of the request schemas. Form bodies arrive as strings (see src/http/body.ts), so the
 * scalar helpers accept both a JSON value and its string form.
 */
import { z } from "zod";
import { EMAIL_MESSAGE, EMAIL_PATTERN } from "../domain/kernel/field-rules";

/** A positive integer id, from JSON or from a path, query or form string. */
export const Id = z.preprocess(
  (v) => (typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : v),
  z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
);

export const IdParam = z.object({ id: Id });

/** Ids from a query string: `ids[]=1&ids[]=2`, `ids=1,2` or one id. */
export const IdList = z.preprocess((v) => (typeof v === "string" ? v.split(",").map((s) => s.trim()).filter(Boolean) : v), z.array(Id).max(100));

/** true/false, or the strings "true"/"false"/"1"/"0" that form bodies carry. */
export const Bool = z.preprocess((v) => {
  if (v === "true" || v === "1" || v === 1) return true;
  if (v === "false" || v === "0" || v === 0) return false;
  return v;
}, z.boolean());

/** An integer, or its string form. */
export const Int = z.preprocess(
  (v) => (typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : v),
  z.number().int(),
);

/**
 * How deep a free JSON object may nest. Stored objects are read by SQLite's JSON functions (filters
 * use json_extract and json_each), which fail on nesting past 1,000 levels: one contact or conversation
 * stored that deep made every later filter over the account a 500. Real attributes are a few levels deep.
 */
export const MAX_JSON_DEPTH = 32;

/** Whether `value` nests more than `limit` levels of objects and arrays (stops walking at the limit). */
function deeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== "object") return false;
  if (limit === 0) return true;
  return Object.values(value).some((child) => deeperThan(child, limit - 1));
}

/** A JSON object, or a string holding one (multipart clients send objects as strings). */
export const JsonObject = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  },
  z.record(z.string(), z.unknown()).refine((v) => !deeperThan(v, MAX_JSON_DEPTH), {
    error: `must not nest deeper than ${MAX_JSON_DEPTH} levels`,
    params: { code: "too_deep" },
  }),
);

/**
 * An enum given by name or by its integer (the index in `names`), resolved to the integer.
 * A string holding a number, or an unknown name, is a 422 (Chatwoot answers 500).
 */
export function EnumValue<T extends readonly [string, ...string[]]>(names: T) {
  return z
    .union([z.enum(names), z.number().int().min(0).max(names.length - 1)], {
      error: () => `must be one of: ${names.join(", ")} (or 0..${names.length - 1})`,
    })
    .transform((v) => (typeof v === "number" ? v : names.indexOf(v)));
}

/**
 * EnumValue for query strings and form bodies, where the integer arrives as text: "1" counts as 1.
 */
export function EnumParam<T extends readonly [string, ...string[]]>(names: T) {
  return z.preprocess((v) => (typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : v), EnumValue(names));
}

/** Text with Chatwoot's default limit for string columns. */
export const ShortText = z.string().max(255);
/** Text with Chatwoot's default limit for text columns. */
export const LongText = z.string().max(20_000);

/** anything@anything without whitespace, stored lower-cased (Chatwoot's rule). */
export const Email = z
  .string()
  .trim()
  .max(255)
  .regex(EMAIL_PATTERN, { error: EMAIL_MESSAGE })
  .transform((v) => v.toLowerCase());

/** An http(s) URL. */
export const HttpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => {
    try {
      const url = new URL(v);
      return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, { error: "must be an http or https URL" });

/**
 * Rails wraps a flat JSON body under the controller's resource name, so Chatwoot clients send either
 * `{ "name": "x" }` or `{ "team": { "name": "x" } }`. Accept both: unwrap `key` when it holds an object.
 */
export function wrapped<S extends z.ZodType>(key: string, schema: S) {
  return z.preprocess((body) => {
    if (body && typeof body === "object" && !Array.isArray(body)) {
      const inner = (body as Record<string, unknown>)[key];
      if (inner && typeof inner === "object" && !Array.isArray(inner)) return { ...body, ...inner };
    }
    return body;
  }, schema);
}

/** `user_ids` of member operations: ids, duplicates dropped. */
export const UserIds = z
  .array(Id)
  .max(500)
  .transform((ids) => [...new Set(ids)]);

/** An opaque cursor from a previous page's `meta.next_cursor` (or `Link` header); replaces `page`. */
export const Cursor = z.string().min(1).max(2048).regex(/^[A-Za-z0-9_-]+$/, { error: "is not a cursor this list gave out" }).optional();
