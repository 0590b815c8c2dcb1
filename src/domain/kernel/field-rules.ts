/**
 * The shape rules of values the API and the contact import both check, so that a CSV row is held to
 * what `POST /contacts` holds a request to (src/schemas use them, as the domain does).
 */

/** anything@anything without whitespace (Chatwoot's rule); stored lower-cased. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;
export const EMAIL_MESSAGE = "is not a valid email address";

/** E.164: "+", a first digit 1-9, 2 to 15 digits in all. */
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;
export const E164_MESSAGE = "should be in e164 format";

/** Chatwoot's default limit for string columns. */
export const SHORT_TEXT_MAX = 255;
