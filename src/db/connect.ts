/**
 * The database of a request or a background job, chosen by configuration: a libSQL server when the
 * LIBSQL_URL secret is set (with LIBSQL_AUTH_TOKEN), D1 otherwise.
 *
 * On D1 every connection is a session (`withSession`), so reads may be served by a read replica near
 * the Worker. A request that carries a bookmark (the `x-d1-bookmark` header of an earlier answer)
 * starts from it, so it reads at least what that answer had written; without one, reads may go to any
 * replica, and changing requests start at the primary, whose reads are current (what a change checks
 * before it writes). The bookmark after the request goes back to the client in the same header. Taking
 * a session and its bookmark costs no round trip: the bookmark travels with each answer D1 gives.
 */
import { createClient } from "@libsql/client/web";
import { type Database, createDb, createLibsqlDb } from "./client";
import { FirstWriteRider, QueryMeter, meterD1, meterLibsql } from "./metering";

export type DatabaseEnv = Pick<Env, "DB" | "LIBSQL_URL" | "LIBSQL_AUTH_TOKEN">;

export type Connection = {
  db: Database;
  /** the D1 session's bookmark after the calls so far; null on libSQL (one primary, always current) */
  bookmark: () => string | null;
  /**
   * Statements that join the first batch that writes (the Idempotency-Key claim, src/http/idempotency.ts);
   * D1 only, null on libSQL, where requests go through without one.
   */
  rider: FirstWriteRider | null;
};

/** The name of the header that carries a D1 bookmark both ways. */
export const BOOKMARK_HEADER = "x-d1-bookmark";

/** D1 bookmarks are short tokens of hex digits and dashes; anything else is ignored, not sent to D1. */
const BOOKMARK = /^[0-9a-f-]{1,128}$/i;

export function connect(env: DatabaseEnv, options: { meter?: QueryMeter; bookmark?: string | null; writes?: boolean } = {}): Connection {
  const meter = options.meter ?? new QueryMeter();
  if (env.LIBSQL_URL) {
    const client = createClient({ url: env.LIBSQL_URL, authToken: env.LIBSQL_AUTH_TOKEN });
    return { db: createLibsqlDb(meterLibsql(client, meter)), bookmark: () => null, rider: null };
  }
  const given = options.bookmark && BOOKMARK.test(options.bookmark) ? options.bookmark : null;
  const rider = new FirstWriteRider();
  const session = meterD1(env.DB.withSession(given ?? (options.writes ? "first-primary" : "first-unconstrained")), meter, rider);
  return { db: createDb(session), bookmark: () => session.getBookmark(), rider };
}
