/**
 * Forwards committed changes to the live account feeds: the outbox rows a dispatch claimed for the first
 * time (src/events/dispatch.ts), so every change reaches the feed once, whoever made it (a request, the
 * queue consumer's automation, the cron's wake-ups), and a stale row the cron sends again does not repeat
 * on the feed. Typing, which has no outbox row, comes through the same function from src/ports.ts.
 *
 * For each row with an entry in FEED_EVENTS: its data and its audience are read (one query for the
 * audience, so a membership removed a moment ago already counts), then one call per account hands the
 * frames to the account's feed. A feed that cannot be reached costs its subscribers the frames, never
 * the change: failures are logged and swallowed. Rows keep their order within an account.
 */
import type { Database } from "../db/client";
import type { OutboxRow } from "../domain/kernel/outbox";
import { claimAndSendEvents } from "../events/dispatch";
import { type FeedFrame, accountFeed } from "../realtime/account-feed";
import { FEED_EVENTS } from "./registry";

async function frameOf(db: Database, row: OutboxRow, listening: ReadonlySet<number>): Promise<FeedFrame | null> {
  const entry = FEED_EVENTS[row.eventName];
  if (!entry) return null;
  const built = await entry.payload(db, row);
  if (!built) return null;
  const userIds = (await entry.audience(db, row, built)).filter((id) => listening.has(id));
  if (userIds.length === 0) return null;
  const performer = row.data.performer;
  return {
    event: entry.event,
    data: { ...built.data, account_id: row.accountId, ...(performer ? { performer } : {}) },
    userIds,
    except: entry.except?.(row),
  };
}

/**
 * Shows `rows` on their accounts' feeds. An account's feed is asked first who is listening: with nobody,
 * its rows cost no read at all; otherwise each row's data and audience are read, and the frames go to the
 * feed in one call.
 */
export async function forwardToFeeds(db: Database, env: Env, rows: OutboxRow[]): Promise<void> {
  const byAccount = new Map<number, OutboxRow[]>();
  for (const row of rows) if (FEED_EVENTS[row.eventName]) byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), row]);
  await Promise.all(
    [...byAccount].map(async ([accountId, accountRows]) => {
      try {
        const feed = accountFeed(env, accountId);
        const listening = new Set(await feed.listeningUsers());
        if (listening.size === 0) return;
        const frames = await Promise.all(
          accountRows.map((row) =>
            frameOf(db, row, listening).catch((error) => {
              console.error(JSON.stringify({ level: "error", feed: row.eventName, eventId: row.id, error: String(error) }));
              return null;
            }),
          ),
        );
        const shown = frames.filter((frame): frame is FeedFrame => frame !== null);
        if (shown.length > 0) await feed.deliver(shown);
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
