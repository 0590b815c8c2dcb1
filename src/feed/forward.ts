/**
 * Shows events on the live account feeds: the outbox rows of a committed batch (src/feed/commit.ts,
 * told by the connection that committed it) and typing changes, which have no outbox row
 * (src/ports.ts). Each change is shown once, by whoever committed it (a request, the queue consumer's
 * automation, the cron's wake-ups); the outbox's dispatch to the queue shows nothing, so a row the cron
 * sends again, or sends for the first time after a lost dispatch, never repeats on the feed.
 *
 * For each row with an entry in FEED_EVENTS: its data and its audience are read in one batch (the
 * audience is read then, so a membership removed a moment ago already counts; a message's frame costs
 * one round trip), and, where visitors listen and hear the event, the conversation's visitors in the
 * same batch: the visitors' frame is cut from the agents' data (src/feed/visitors.ts), with no read of
 * its own. Then one call per account hands the frames to the account's feed. A feed that cannot be reached costs its subscribers
 * the frames, never the change: failures are logged and swallowed. Rows keep their order within an account.
 */
import type { Database } from "../db/client";
import type { OutboxRow } from "../domain/kernel/outbox";
import { type FeedFrame, accountFeed } from "../realtime/account-feed";
import { noVisitors } from "./audience";
import { FEED_EVENTS, toVisitors } from "./registry";

/** Who has a socket open on an account's feed: its users, and its visitors by contact inbox. */
type Listening = { users: ReadonlySet<number>; contactInboxes: ReadonlySet<number> };

/** The frames of one row: the agents', and the visitors' when they hear it and some are listening. */
async function framesOf(db: Database, row: OutboxRow, listening: Listening): Promise<FeedFrame[]> {
  const entry = FEED_EVENTS[row.eventName];
  if (!entry) return [];
  const visitorEntry = entry.visitors && listening.contactInboxes.size > 0 && (entry.visitors.heard?.(row) ?? true) ? entry.visitors : null;
  const visitors = visitorEntry ? toVisitors(db, row) : noVisitors(db, row.accountId);
  const built = await entry.payload(db, row, entry.audience(db, row), visitors);
  if (!built) return [];
  const frames: FeedFrame[] = [];
  const userIds = built.userIds.filter((id) => listening.users.has(id));
  const performer = row.data.performer;
  if (userIds.length > 0) {
    frames.push({ event: entry.event, data: { ...built.data, account_id: row.accountId, ...(performer ? { performer } : {}) }, userIds, except: entry.except?.(row) });
  }
  const contactInboxIds = (built.contactInboxIds ?? []).filter((id) => listening.contactInboxes.has(id));
  const shown = visitorEntry && contactInboxIds.length > 0 ? visitorEntry.view(built.data) : null;
  if (shown) frames.push({ event: entry.event, data: { ...shown, account_id: row.accountId }, userIds: [], contactInboxIds });
  return frames;
}

/**
 * The contacts a row says are gone (deleted, or merged into another): their visitors' subscriptions
 * end, and subscribe again checked afresh.
 */
function contactsGoneBy(row: OutboxRow): number[] {
  if (row.eventName === "contact_deleted") return [row.subjectId];
  if (row.eventName === "contact_merged" && typeof row.data.mergee_id === "number") return [row.data.mergee_id];
  return [];
}

/** Frames ready for one account's feed, and the contacts whose visitors' subscriptions end. */
export type AccountFrames = { accountId: number; frames: FeedFrame[]; goneContacts: number[] };

/** Whether the feed shows an event of this name. */
export const shownOnFeed = (row: Pick<OutboxRow, "eventName">) => FEED_EVENTS[row.eventName] !== undefined;

/**
 * Builds the frames of `rows`, per account. An account's feed is asked first who is listening: with
 * nobody, its rows cost no read at all; otherwise each row's data and audience are read.
 */
export async function buildFrames(db: Database, env: Env, rows: OutboxRow[]): Promise<AccountFrames[]> {
  const byAccount = new Map<number, OutboxRow[]>();
  for (const row of rows) if (shownOnFeed(row)) byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), row]);
  const built = await Promise.all(
    [...byAccount].map(async ([accountId, accountRows]) => {
      const goneContacts = accountRows.flatMap(contactsGoneBy);
      try {
        const listeners = await accountFeed(env, accountId).listening();
        const listening = { users: new Set(listeners.users), contactInboxes: new Set(listeners.contactInboxes) };
        if (listening.users.size === 0 && listening.contactInboxes.size === 0) return { accountId, frames: [], goneContacts };
        const frames = await Promise.all(
          accountRows.map((row) =>
            framesOf(db, row, listening).catch((error) => {
              console.error(JSON.stringify({ level: "error", feed: row.eventName, eventId: row.id, error: String(error) }));
              return [];
            }),
          ),
        );
        return { accountId, frames: frames.flat(), goneContacts };
      } catch (error) {
        console.error(JSON.stringify({ level: "error", feed: accountId, error: String(error) }));
        return { accountId, frames: [], goneContacts };
      }
    }),
  );
  return built.filter((account) => account.frames.length > 0 || account.goneContacts.length > 0);
}

/** Hands built frames to their accounts' feeds, one call each (and one more where contacts went). */
export async function deliverFrames(env: Env, accounts: AccountFrames[]): Promise<void> {
  await Promise.all(
    accounts.map(async ({ accountId, frames, goneContacts }) => {
      try {
        const feed = accountFeed(env, accountId);
        if (frames.length > 0) await feed.deliver(frames);
        // after the frames: a deleted contact's visitor was never sent anything of it, and needs nothing more
        if (goneContacts.length > 0) await feed.contactsGone(goneContacts);
      } catch (error) {
        console.error(JSON.stringify({ level: "error", feed: accountId, error: String(error) }));
      }
    }),
  );
}

/** Shows `rows` on their accounts' feeds now. */
export async function forwardToFeeds(db: Database, env: Env, rows: OutboxRow[]): Promise<void> {
  await deliverFrames(env, await buildFrames(db, env, rows));
}
