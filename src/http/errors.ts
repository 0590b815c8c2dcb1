import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DomainError, type ErrorCode, type ErrorEntry, invalidField, unavailable } from "../domain/kernel/errors";

/** The status each domain error code answers with. */
const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  malformed_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  invalid: 422,
  rate_limited: 429,
  unavailable: 503,
};

export const statusOf = (error: DomainError) => STATUS[error.code];

export function errorBody(description: string, errors: ErrorEntry[]) {
  return { description, errors };
}

/**
 * SQLite constraint failures are the safety net for races the domain's own checks cannot see (two
 * requests creating the same email at once): the client gets the 422 it would have got one request later.
 */
/** Columns that hold a value under another name than the field a client sent it as. */
const FIELD_OF_COLUMN: Record<string, string> = { unconfirmed_email: "email" };

function fromConstraintFailure(error: unknown): DomainError | null {
  const text = String((error as { message?: unknown })?.message ?? "") + String((error as { cause?: unknown })?.cause ?? "");
  // "UNIQUE constraint failed: contacts.account_id, contacts.email": the last column names the field.
  const match = /UNIQUE constraint failed: ((?:\w+\.\w+(?:, )?)+)/.exec(text);
  if (!match) return null;
  const column = match[1].split(", ").at(-1)!.split(".")[1];
  const field = FIELD_OF_COLUMN[column] ?? column;
  return invalidField(field, "has already been taken", "taken");
}

/**
 * D1 failures that only the size of the input can cause: more than 100 bound parameters in a statement,
 * or a value larger than a row may hold. Domain code keeps lists within the limit (chunks, json_each) and
 * schemas cap sizes; this net turns a case they missed into the 422 the input deserves, and still logs it
 * so that the missed case gets fixed at its cause.
 */
function fromInputSizeFailure(error: unknown): DomainError | null {
  const text = String((error as { message?: unknown })?.message ?? "") + String((error as { cause?: unknown })?.cause ?? "");
  if (/too many SQL variables/i.test(text)) {
    return invalidField("", "holds too many values for one request", "too_many_values");
  }
  if (/SQLITE_TOOBIG|string or blob too big/i.test(text)) {
    return invalidField("", "holds a value too large to store", "too_large");
  }
  return null;
}

/**
 * A database without its tables (a local `wrangler dev` before its migrations, a deploy ahead of them, a
 * shard added to the pool but not migrated):
 * the request cannot be served until someone runs the migrations, and the answer says which command.
 */
const MISSING_SCHEMA = /no such (table|column)/i;
export const MIGRATE_HINT =
  "A database is missing tables or columns this version needs: run `npm run db:migrate` for the local directory and shards (npm start does it itself) or `npm run deploy` for Cloudflare's";

/** How long a client waits before retrying a 503 of the account's database. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * D1's own words for a database that cannot answer right now (a network loss, an overloaded or restarting
 * database). On a shard they concern that shard's accounts alone: their requests get a 503 to retry,
 * and every other account goes on as before.
 */
const DATABASE_DOWN = /Network connection lost|overloaded|object to be reset|Cannot resolve D1|D1_ERROR: (internal error|timed out)/i;

function fromShardFailure(error: unknown, c: Context): DomainError | null {
  const text = String((error as { message?: unknown })?.message ?? "") + String((error as { cause?: unknown })?.cause ?? "");
  if (!DATABASE_DOWN.test(text)) return null;
  console.error(JSON.stringify({ level: "error", requestId: c.get("requestId"), shard: c.get("shard"), message: text }));
  return unavailable("The account's database is not answering right now; retry shortly", "database_unavailable");
}

export function renderError(error: unknown, c: Context) {
  if (error instanceof DomainError) {
    if (error.code === "unavailable") c.header("Retry-After", String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    return c.json(errorBody(error.description, error.errors), statusOf(error));
  }
  const shardDown = fromShardFailure(error, c);
  if (shardDown) return renderError(shardDown, c);
  if (error instanceof HTTPException) {
    // Hono raises these for malformed JSON and form bodies.
    const message = error.message || "Bad request";
    const code = error.status === 400 ? "malformed_body" : "http_error";
    return c.json(errorBody(message, [{ field: "", message, code }]), error.status);
  }
  const constraint = fromConstraintFailure(error);
  if (constraint) return c.json(errorBody(constraint.description, constraint.errors), 422);
  const tooBig = fromInputSizeFailure(error);
  if (tooBig) {
    console.error(JSON.stringify({ level: "warn", requestId: c.get("requestId"), message: String((error as Error)?.message ?? error) }));
    return c.json(errorBody(tooBig.description, tooBig.errors), 422);
  }
  const requestId = c.get("requestId") as string | undefined;
  if (MISSING_SCHEMA.test(String((error as { message?: unknown })?.message ?? "") + String((error as { cause?: unknown })?.cause ?? ""))) {
    console.error(JSON.stringify({ level: "error", requestId, message: String((error as Error)?.message ?? error) }));
    c.header("Retry-After", "60");
    return c.json(errorBody(MIGRATE_HINT, [{ field: "", message: MIGRATE_HINT, code: "database_not_migrated" }]), 503);
  }
  console.error(JSON.stringify({ level: "error", requestId, message: String((error as Error)?.stack ?? error) }));
  const description = `Internal server error (request id ${requestId ?? "unknown"})`;
  return c.json(errorBody(description, [{ field: "", message: description, code: "internal_error" }]), 500);
}

export function renderUnknownRoute(c: Context) {
  const message = `No route ${c.req.method} ${new URL(c.req.url).pathname}`;
  return c.json(errorBody(message, [{ field: "", message, code: "route_not_found" }]), 404);
}
