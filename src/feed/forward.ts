/**
 * Forwards committed changes to the live account feeds: the outbox rows a dispatch claimed for the first
 * time (src/events/dispatch.ts), so every change reaches the feed once, whoever made it (a request, the
 * queue consumer's automation, the cron's wake-ups), and a stale row the cron sends again does not repeat
 * on the feed. Typing, which has no outbox row, comes through the same function from src/ports.ts.
 *
 * For each row with an entry in FEED_EVENTS: its data and its audience are read (one query for the
 * audience, so a membership removed a moment ago already counts), then one call per account hands the
 * frames to the account's feed. A feed that cannot be reached costs its subscribers the frames, never
 * the change: failures are logged and swallowed.
 */
import type { Database } from "../db/client";
import type { OutboxRow } from "../domain/kernel/outbox";
import { claimAndSendEvents } from "../events/dispatch";
import { type FeedFrame, accountFeed } from "../realtime/account-feed";
import { FEED_EVENTS } from "./registry";

async function frameOf(db: Database, row: OutboxRow): Promise<FeedFrame | null> {
  const entry = FEED_EVENTS[row.eventName];
  if (!entry) return null;
  const built = await entry.payload(db, row);
  if (!built) return null;
  const userIds = await entry.audience(db, row, built);
  if (userIds.length === 0) return null;
  const performer = row.data.performer;
  return {
    event: entry.event,
    data: { ...built.data, account_id: row.accountId, ...(performer ? { performer } : {}) },
    userIds,
    except: entry.except?.(row),
  };
}

export async function forwardToFeeds(db: Database, env: Env, rows: OutboxRow[]): Promise<void> {
  const shown = rows.filter((row) => FEED_EVENTS[row.eventName]);
  if (shown.length === 0) return;
  const frames = await Promise.all(
    shown.map((row) =>
      frameOf(db, row).catch((error) => {
        console.error(JSON.stringify({ level: "error", feed: row.eventName, eventId: row.id, error: String(error) }));
        return null;
      }),
    ),
  );
  const byAccount = new Map<number, FeedFrame[]>();
  shown.forEach((row, i) => {
    const frame = frames[i];
    if (frame) byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), frame]);
  });
  await Promise.all(
    [...byAccount].map(async ([accountId, accountFrames]) => {
      try {
        await accountFeed(env, accountId).deliver(accountFrames);
      } catch (error) {
        console.error(JSON.stringify({ level: "error", feed: accountId, error: String(error) }));
      }
    }),
  );
}

/** Moves due outbox rows to the queue, then shows the new ones on the live feeds. Every dispatch goes through here. */
export async function dispatchEvents(db: Database, env: Env, options: { includeStale?: boolean; at?: number } = {}): Promise<number> {
  const { sent, fresh } = await claimAndSendEvents(db, env.EVENTS, options);
  await forwardToFeeds(db, env, fresh);
  return sent;
}
