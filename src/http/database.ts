/**
 * The request's database: opened once per request, here and nowhere else, so that the scopes built in
 * scopes.ts are the only way a route reaches it.
 */
import { createMiddleware } from "hono/factory";
import { BOOKMARK_HEADER, connect } from "../db/connect";
import { QueryMeter } from "../db/metering";
import { dispatchEvents } from "../feed/forward";
import type { AppEnv } from "./app-env";

/**
 * Every request gets a metered database; the cost goes out in the Server-Timing header. On D1 it is a
 * session that starts from the client's bookmark and hands the new one back (src/db/connect.ts), so a
 * client reads its own writes even when a read replica answers.
 */
export const requestDatabase = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    const meter = new QueryMeter();
    const writes = !["GET", "HEAD", "OPTIONS"].includes(c.req.method);
    const connection = connect(c.env, { meter, bookmark: c.req.header(BOOKMARK_HEADER), writes });
    c.set("meter", meter);
    c.set("rider", connection.rider);
    c.set("db", connection.db);
    await next();
    c.header("Server-Timing", meter.serverTiming());
    const bookmark = connection.bookmark();
    if (bookmark) c.header(BOOKMARK_HEADER, bookmark);
  });

/**
 * After a change that wrote events, move them from the outbox to the queue once the response is on its
 * way, and show them on the account's live feed (src/feed/forward.ts). Requests that wrote no event
 * (reads, read-only POSTs, refused writes) pay nothing. The cron trigger sweeps up anything this misses.
 */
export const dispatchOutboxAfterResponse = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    await next();
    if (c.var.meter.eventsWritten === 0) return;
    c.executionCtx.waitUntil(
      dispatchEvents(c.var.db, c.env).catch((error) =>
        console.error(JSON.stringify({ level: "error", requestId: c.var.requestId, dispatch: String(error) })),
      ),
    );
  });
