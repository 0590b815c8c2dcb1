/**
 * Shows events on the live account feeds: the outbox rows of a committed batch (src/feed/commit.ts,
 * told by the connection that committed it) and typing changes, which have no outbox row
 * (src/ports.ts). Each change is shown once, by whoever committed it (a request, the queue consumer's
 * automation, the cron's wake-ups); the outbox's dispatch to the queue shows nothing, so a row the cron
 * sends again, or sends for the first time after a lost dispatch, never repeats on the feed.
 *
 * For each row with an entry in FEED_EVENTS: its data and its audience are read in one batch (the
 * audience is read then, so a membership removed a moment ago already counts; a message's frame costs
 * one round trip), then one call per account hands the frames to the account's feed, which sends each
 * to the sockets open for its users. A feed that cannot be reached costs its subscribers
 * the frames, never the change: failures are logged and swallowed. Rows keep their order within an account.
 */
import type { Database } from "../db/client";
import type { OutboxRow } from "../domain/kernel/outbox";
import { type FeedFrame, accountFeed } from "../realtime/account-feed";
import { FEED_EVENTS } from "./registry";

/** A row's frame for everyone its audience names (the feed sends it only to those with a socket open). */
async function frameOf(db: Database, row: OutboxRow): Promise<FeedFrame | null> {
  const entry = FEED_EVENTS[row.eventName];
  if (!entry) return null;
  const built = await entry.payload(db, row, entry.audience(db, row));
  if (!built || built.userIds.length === 0) return null;
  const performer = row.data.performer;
  return {
    event: entry.event,
    data: { ...built.data, account_id: row.accountId, ...(performer ? { performer } : {}) },
    userIds: built.userIds,
    except: entry.except?.(row),
  };
}

/**
 * Accounts whose feed, when this isolate last heard from it, had a socket open. Their rows are read at
 * once, with no call before the read to ask who listens: the feed sends only to open sockets anyway,
 * and its answer to the delivery says whether anyone still listens. An account not in here (nobody
 * listened, or never heard of) is asked first, so an account with nobody online costs no read; a
 * listener who left since costs one read, once. Memory only, bounded: forgetting costs one call.
 */
const listened = new Set<number>();
const LISTENED_MAX = 10_000;

function heardFrom(accountId: number, listening: boolean) {
  if (!listening) return void listened.delete(accountId);
  if (listened.size >= LISTENED_MAX) listened.clear();
  listened.add(accountId);
}

/** Frames ready for one account's feed. */
export type AccountFrames = { accountId: number; frames: FeedFrame[] };

/** Whether the feed shows an event of this name. */
export const shownOnFeed = (row: Pick<OutboxRow, "eventName">) => FEED_EVENTS[row.eventName] !== undefined;

/**
 * Builds the frames of `rows`, per account. Unless its feed had a socket open when last heard from, an
 * account's feed is asked first who is listening: with nobody, its rows cost no read at all.
 */
export async function buildFrames(db: Database, env: Env, rows: OutboxRow[]): Promise<AccountFrames[]> {
  const byAccount = new Map<number, OutboxRow[]>();
  for (const row of rows) if (shownOnFeed(row)) byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), row]);
  const built = await Promise.all(
    [...byAccount].map(async ([accountId, accountRows]) => {
      try {
        if (!listened.has(accountId)) {
          const listening = (await accountFeed(env, accountId).listeningUsers()).length > 0;
          heardFrom(accountId, listening);
          if (!listening) return { accountId, frames: [] };
        }
        const frames = await Promise.all(
          accountRows.map((row) =>
            frameOf(db, row).catch((error) => {
              console.error(JSON.stringify({ level: "error", feed: row.eventName, eventId: row.id, error: String(error) }));
              return null;
            }),
          ),
        );
        return { accountId, frames: frames.filter((frame): frame is FeedFrame => frame !== null) };
      } catch (error) {
        console.error(JSON.stringify({ level: "error", feed: accountId, error: String(error) }));
        return { accountId, frames: [] };
      }
    }),
  );
  return built.filter((account) => account.frames.length > 0);
}

/**
 * Hands built frames to their accounts' feeds, one call each; each call answers once the frames are on
 * their way to every client (src/realtime/account-feed.ts, `deliver`), and whether anyone still listens.
 */
export async function deliverFrames(env: Env, accounts: AccountFrames[]): Promise<void> {
  await Promise.all(
    accounts.map(async ({ accountId, frames }) => {
      try {
        const { listening } = await accountFeed(env, accountId).deliver(frames);
        heardFrom(accountId, listening > 0);
      } catch (error) {
        heardFrom(accountId, false);
        console.error(JSON.stringify({ level: "error", feed: accountId, error: String(error) }));
      }
    }),
  );
}

/** Shows `rows` on their accounts' feeds now. */
export async function forwardToFeeds(db: Database, env: Env, rows: OutboxRow[]): Promise<void> {
  await deliverFrames(env, await buildFrames(db, env, rows));
}
