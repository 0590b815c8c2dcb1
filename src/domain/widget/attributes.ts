/**
 * Attributes a visitor writes without a key (a contact's custom and additional attributes, a new
 * conversation's custom attributes) are bounded, so that an anonymous client cannot grow rows, events
 * and webhook payloads at will. The bound is on what the row would hold after the write, since updates
 * merge into the stored attributes.
 */
import type { JsonObject } from "../../../drizzle/schema";
import { type ErrorEntry, invalid } from "../kernel/errors";

export const PUBLIC_ATTRIBUTE_LIMITS = { keys: 50, bytes: 16 * 1024 } as const;

function boundErrors(field: string, value: JsonObject): ErrorEntry[] {
  const { keys, bytes } = PUBLIC_ATTRIBUTE_LIMITS;
  if (Object.keys(value).length > keys) return [{ field, message: `may hold at most ${keys} keys`, code: "too_many_keys" }];
  if (new TextEncoder().encode(JSON.stringify(value)).byteLength > bytes) {
    return [{ field, message: `may hold at most ${bytes} bytes of JSON`, code: "too_large" }];
  }
  return [];
}

/** Refuses (422 naming the field) when an attribute object, as it would be stored, is over the bounds. */
export function checkPublicAttributes(fields: Record<string, JsonObject | undefined>) {
  const errors = Object.entries(fields).flatMap(([field, value]) => (value ? boundErrors(field, value) : []));
  if (errors.length > 0) throw invalid(errors);
}
