/**
 * The request's databases (docs/shards.md): opened here and nowhere else, so that the scopes built in
 * scopes.ts are the only way a route reaches them. Every request has the directory; the shard of the
 * account it acts in is chosen once that account is known: by accountAuth from the key's batch, or by
 * a public route's key (an inbox identifier, a portal slug, a survey's uuid) through src/http/public-route.ts.
 */
import { createMiddleware } from "hono/factory";
import { connectDirectory, isShard } from "../db/connect";
import { QueryMeter } from "../db/metering";
import { shardPool } from "../db/shards";
import { unavailable } from "../domain/kernel/errors";
import { dispatchPendingEvents } from "../events/dispatch";
import { CommitFrames } from "../feed/commit";
import type { AppContext, AppEnv } from "./app-env";

/** The name of the header that carries a shard's D1 bookmark both ways, as `<shard>:<bookmark>`. */
export const BOOKMARK_HEADER = "x-d1-bookmark";

/** `<shard>:<bookmark>` split; anything else (no shard, a shard number out of range) is no bookmark. */
function parseBookmark(env: Env, header: string | undefined): { shard: number; bookmark: string } | null {
  const match = /^(\d{1,2}):(.+)$/.exec(header ?? "");
  if (!match) return null;
  const shard = Number(match[1]);
  return isShard(env, shard) ? { shard, bookmark: match[2] } : null;
}

/**
 * Every request gets metered databases; the cost goes out in the Server-Timing header, with the shard
 * the request ran on, to the callers src/http/server-timing.ts shows it to. On D1 a shard's connection is a session that starts from the client's bookmark
 * when the bookmark names that shard (a bookmark of another shard is ignored), and hands the new one
 * back, so a client reads its own writes even when a read replica answers.
 *
 * Each batch that commits outbox rows starts its live feed frames at once (src/feed/commit.ts); the
 * response waits until they are sent, so a subscribed socket has its frame no later than the writer its
 * answer, and Server-Timing counts the reads that built them.
 */
export const requestDatabase = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    const meter = new QueryMeter();
    const writes = !["GET", "HEAD", "OPTIONS"].includes(c.req.method);
    const given = parseBookmark(c.env, c.req.header(BOOKMARK_HEADER));
    const frames = new CommitFrames(c.env);
    const directory = connectDirectory(c.env, { meter, onCommit: frames.committed });
    const shards = shardPool(c.env, directory.db, (shard) => ({ meter, writes, bookmark: given?.shard === shard ? given.bookmark : null, onCommit: frames.committed }));
    c.set("meter", meter);
    c.set("directory", directory.db);
    c.set("shards", shards);
    c.set("db", directory.db);
    c.set("rider", directory.rider);
    c.set("shard", null);
    await next();
    await frames.settled();
    const shard = c.var.shard;
    // a refused request wrote nothing to read back, and its answer must not name the shard of an
    // account the caller may not reach (a 403 for another account)
    const bookmark = shard === null || c.res.status >= 400 ? null : shards.connections.get(shard)?.bookmark();
    if (bookmark) c.header(BOOKMARK_HEADER, `${shard}:${bookmark}`);
  });

/** From here on the request acts on shard `shard`: the account's database, as the directory placed it. */
export function useShard(c: AppContext, shard: number) {
  if (!isShard(c.env, shard)) {
    // a directory entry that names a shard this deploy lacks: a configuration fault, never a guess
    console.error(JSON.stringify({ level: "error", requestId: c.var.requestId, unknownShard: shard }));
    throw unavailable("The account's database is not reachable from this deployment", "shard_unavailable");
  }
  const db = c.var.shards.open(shard);
  c.set("db", db);
  c.set("rider", c.var.shards.connections.get(shard)!.rider);
  c.set("shard", shard);
}

/**
 * After a change that wrote events, move them from the outbox to the queue once the response is on its
 * way (the live feeds were shown them at the commit). Requests that wrote no event (reads, read-only
 * POSTs, refused writes) pay nothing. The cron trigger sweeps up anything this misses.
 */
export const dispatchOutboxAfterResponse = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    await next();
    if (c.var.meter.eventsWritten === 0) return;
    for (const connection of c.var.shards.connections.values()) {
      c.executionCtx.waitUntil(
        dispatchPendingEvents(connection.db, c.env.EVENTS).catch((error) =>
          console.error(JSON.stringify({ level: "error", requestId: c.var.requestId, dispatch: String(error) })),
        ),
      );
    }
  });
