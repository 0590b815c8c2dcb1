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
 * its own. Then one call per account hands the frames to the account's feed, which sends each to the
 * sockets open for its users and visitors. A feed that cannot be reached costs its subscribers
 * the frames, never the change: failures are logged and swallowed. Rows keep their order within an account.
 */
import type { Database } from "../db/client";
import type { OutboxRow } from "../domain/kernel/outbox";
import { type FeedFrame, accountFeed } from "../realtime/account-feed";
import { noVisitors } from "./audience";
import { FEED_EVENTS, toVisitors } from "./registry";

/**
 * Who has a socket open on an account's feed: its users, and its visitors by contact inbox; null when
 * the feed was not asked (the frames are built for the whole audience, and the feed sends only to open
 * sockets).
 */
type Listening = { users: ReadonlySet<number>; contactInboxes: ReadonlySet<number> } | null;

/** The frames of one row: the agents', and the visitors' when they hear it and some may be listening. */
async function framesOf(db: Database, row: OutboxRow, listening: Listening): Promise<FeedFrame[]> {
  const entry = FEED_EVENTS[row.eventName];
  if (!entry) return [];
  const visitorsMayListen = listening === null || listening.contactInboxes.size > 0;
  const visitorEntry = entry.visitors && visitorsMayListen && (entry.visitors.heard?.(row) ?? true) ? entry.visitors : null;
  const visitors = visitorEntry ? toVisitors(db, row) : noVisitors(db, row.accountId);
  const built = await entry.payload(db, row, entry.audience(db, row), visitors);
  if (!built) return [];
  const frames: FeedFrame[] = [];
  const userIds = listening ? built.userIds.filter((id) => listening.users.has(id)) : built.userIds;
  const performer = row.data.performer;
  if (userIds.length > 0) {
    frames.push({ event: entry.event, data: { ...built.data, account_id: row.accountId, ...(performer ? { performer } : {}) }, userIds, except: entry.except?.(row) });
  }
  const audienceInboxes = built.contactInboxIds ?? [];
  const contactInboxIds = listening ? audienceInboxes.filter((id) => listening.contactInboxes.has(id)) : audienceInboxes;
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

/** Frames ready for one account's feed, and the contacts whose visitors' subscriptions end. */
export type AccountFrames = { accountId: number; frames: FeedFrame[]; goneContacts: number[] };

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
      const goneContacts = accountRows.flatMap(contactsGoneBy);
      try {
        let listening: Listening = null;
        if (!listened.has(accountId)) {
          const listeners = await accountFeed(env, accountId).listening();
          listening = { users: new Set(listeners.users), contactInboxes: new Set(listeners.contactInboxes) };
          heardFrom(accountId, listening.users.size + listening.contactInboxes.size > 0);
          if (listening.users.size === 0 && listening.contactInboxes.size === 0) return { accountId, frames: [], goneContacts };
        }
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

/**
 * Hands built frames to their accounts' feeds, one call each; each call answers once the frames are on
 * their way to every client (src/realtime/account-feed.ts, `deliver`), and whether anyone still listens.
 */
export async function deliverFrames(env: Env, accounts: AccountFrames[]): Promise<void> {
  await Promise.all(
    accounts.map(async ({ accountId, frames, goneContacts }) => {
      try {
        const feed = accountFeed(env, accountId);
        if (frames.length > 0) heardFrom(accountId, (await feed.deliver(frames)).listening > 0);
        // after the frames: a deleted contact's visitor was never sent anything of it, and needs nothing more
        if (goneContacts.length > 0) await feed.contactsGone(goneContacts);
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
