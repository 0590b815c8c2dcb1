/**
 * The shape rules of values the API and the contact import both check, so that a CSV row is held to
 * what `POST /contacts` holds a request to (src/schemas use them, as the domain does).
 */
import type { JsonObject } from "../../../drizzle/schema";
import type { ErrorEntry } from "./errors";

/** anything@anything without whitespace (Chatwoot's rule); stored lower-cased. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;
export const EMAIL_MESSAGE = "is not a valid email address";

/** E.164: "+", a first digit 1-9, 2 to 15 digits in all. */
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;
export const E164_MESSAGE = "should be in e164 format";

/** Chatwoot's default limit for string columns. */
export const SHORT_TEXT_MAX = 255;

/**
 * The bound on attributes written without a key (the public API: widget/attributes.ts) and on a contact
 * import row's custom attributes, so that neither can grow rows, events and webhook payloads at will.
 */
export const PUBLIC_ATTRIBUTE_LIMITS = { keys: 50, bytes: 16 * 1024 } as const;

/** The bound's refusal of `value` at `field`, if any. */
export function attributeBoundErrors(field: string, value: JsonObject): ErrorEntry[] {
  const { keys, bytes } = PUBLIC_ATTRIBUTE_LIMITS;
  if (Object.keys(value).length > keys) return [{ field, message: `may hold at most ${keys} keys`, code: "too_many_keys" }];
  if (new TextEncoder().encode(JSON.stringify(value)).byteLength > bytes) {
    return [{ field, message: `may hold at most ${bytes} bytes of JSON`, code: "too_large" }];
  }
  return [];
}
