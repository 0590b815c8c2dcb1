/**
 * The one error of the service. Domain functions, and the HTTP plumbing before them, throw it; `src/http`
 * maps its code to a status and renders the specification's body `{ description, errors: [...] }`.
 * The codes are a closed set so that clients (and the API document) can switch on them.
 */
export const ERROR_CODES = [
  "malformed_request",
  "unauthenticated",
  "forbidden",
  "not_found",
  "conflict",
  "invalid",
  "too_large",
  "unsupported_media_type",
  "rate_limited",
  "unavailable",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** One entry of the error body: `field` is the path of the offending value ("" for none), `code` a stable reason. */
export type ErrorEntry = { field: string; message: string; code: string };

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly description: string,
    readonly errors: ErrorEntry[],
  ) {
    super(description);
  }
}

const single = (code: ErrorCode, message: string, reason: string, field = "") => new DomainError(code, message, [{ field, message, code: reason }]);

export const unauthorized = (message: string, reason: string) => single("unauthenticated", message, reason, "api_access_token");

export const forbidden = (message: string, reason = "forbidden") => single("forbidden", message, reason);

/** An unknown resource: names the resource and the id the client asked for. */
export const notFound = (resource: string, id: string | number, field = "id") =>
  new DomainError("not_found", `${resource} ${id} not found`, [{ field, message: `${resource} ${id} does not exist`, code: "not_found" }]);

export const invalid = (errors: ErrorEntry[]) =>
  new DomainError("invalid", errors.length === 1 ? describeEntry(errors[0]) : "Validation failed", errors);

export const invalidField = (field: string, message: string, reason: string) => invalid([{ field, message, code: reason }]);

/** The row changed between the read a request judged and its write: reading it again and retrying works. */
export const conflict = (message: string, reason: string) => single("conflict", message, reason);

/** The account's database cannot serve this now (a shard that does not answer, an account being moved): retry later. */
export const unavailable = (message: string, reason: string) => single("unavailable", message, reason);

export const malformed = (message: string) => single("malformed_request", message, "malformed_body");

export const tooLarge = (message: string, reason: string) => single("too_large", message, reason);

export const unsupportedMediaType = (message: string) => single("unsupported_media_type", message, "unsupported_media_type");

const describeEntry = (e: ErrorEntry) => (e.field ? `${e.field} ${e.message}` : e.message);
