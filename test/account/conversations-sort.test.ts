/**
 * `sort_by` on the conversation list: Chatwoot's names for activity, creation, priority and waiting-time
 * order, each walked through a list index with cursors; counts do not move; unknown names are a 422.
 */
import { describe, expect, it } from "vitest";
import { shardOf } from "../support/databases";
import { get, post } from "../support/http";
import { createWorld } from "../support/world";
import { addInboxMember, connectAgentBot, createContact, createInbox } from "../support/fixtures";
import { and, eq, sql } from "drizzle-orm";
import { createDb, schema } from "../../src/db/client";
import { SORTS, beyond, listOrder, walkIds } from "../../src/domain/conversations/order";

const world = await createWorld("Sorted Co");
const inbox = await createInbox(world.accountId, { name: "Sorted" });
await addInboxMember(world.accountId, inbox, world.agent.id);
const contactId = await createContact(world.accountId);

const TOTAL = 60;
const created: number[] = [];
for (let i = 0; i < TOTAL; i++) {
  created.push((await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inbox, contact_id: contactId })).body.id);
}
// new activity on the three oldest brings them to the top of the activity order
const bumped = created.slice(0, 3);
for (const id of bumped) await post(`${world.base}/conversations/${id}/messages`, world.admin.key, { content: `news for ${id}` });

const byActivity = [...bumped.slice().reverse(), ...created.slice(3).reverse()];
const byCreation = created;

type Page = { ids: number[]; next: string | null; meta: any; rowsRead: number; roundTrips: number };

async function page(query: string, key = world.admin.key, base = world.base): Promise<Page> {
  const res = await get(`${base}/conversations?${query}`, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const timing = res.headers.get("server-timing")!;
  return {
    ids: res.body.data.payload.map((c: { id: number }) => c.id),
    next: res.body.data.meta.next_cursor ?? null,
    meta: res.body.data.meta,
    rowsRead: Number(/db-rows-read;desc="(\d+)"/.exec(timing)![1]),
    roundTrips: Number(/db-round-trips;desc="(\d+)"/.exec(timing)![1]),
  };
}

/** Every page of the list with `sort_by` (and `extra` filters), following the cursors. */
async function walk(sortBy: string, key = world.admin.key, base = world.base, extra = "") {
  const pages: Page[] = [];
  let query = `sort_by=${sortBy}${extra}`;
  for (;;) {
    const p = await page(query, key, base);
    pages.push(p);
    if (!p.next) break;
    query = `sort_by=${sortBy}${extra}&cursor=${encodeURIComponent(p.next)}`;
  }
  return { ids: pages.flatMap((p) => p.ids), pages };
}

/** Every page of the list with `sort_by`, by page number. */
async function walkPages(sortBy: string, base: string, key = world.admin.key) {
  const ids: number[] = [];
  for (let n = 1; ; n++) {
    const p = await page(`sort_by=${sortBy}&page=${n}`, key, base);
    ids.push(...p.ids);
    if (p.ids.length < 25) return ids;
  }
}

type Stored = { display_id: number; id: number; inbox_id: number; status: number; priority: number | null; waiting_since: number | null; last_activity_at: number; created_at: number };

/** The account's conversations as stored, to order them here by Chatwoot's rules independently of the service. */
async function stored(accountId: number) {
  const { results } = await (await shardOf(accountId)).prepare(
    "SELECT display_id, id, inbox_id, status, priority, waiting_since, last_activity_at, created_at FROM conversations WHERE account_id = ?",
  )
    .bind(accountId)
    .all<Stored>();
  return results;
}

/**
 * Chatwoot's orders (its SortHandler): priority either way with no priority last, ties by latest activity;
 * waiting since either way with nobody waiting last, ties by creation, oldest first; then the id, as the
 * service adds to make the order total (the id's direction follows the tie column's).
 */
const model: Record<string, (a: Stored, b: Stored) => number> = {
  priority_desc: (a, b) => nullsLast(a.priority, b.priority, true) || b.last_activity_at - a.last_activity_at || b.id - a.id,
  priority_asc: (a, b) => nullsLast(a.priority, b.priority, false) || b.last_activity_at - a.last_activity_at || b.id - a.id,
  waiting_since_asc: (a, b) => nullsLast(a.waiting_since, b.waiting_since, false) || a.created_at - b.created_at || a.id - b.id,
  waiting_since_desc: (a, b) => nullsLast(a.waiting_since, b.waiting_since, true) || a.created_at - b.created_at || a.id - b.id,
};
model.sort_on_priority = model.priority_desc;
model.sort_on_waiting_since = model.waiting_since_asc;

function nullsLast(a: number | null, b: number | null, descending: boolean) {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return descending ? b - a : a - b;
}

const modelOrder = (rows: Stored[], sortBy: string) => rows.slice().sort(model[sortBy]).map((r) => r.display_id);

describe("sort_by on GET /conversations", () => {
  it("orders by activity or creation, either way, with Chatwoot's names and legacy names", async () => {
    for (const [sortBy, expected] of [
      ["latest", byActivity],
      ["last_activity_at_desc", byActivity],
      ["last_activity_at_asc", byActivity.slice().reverse()],
      ["sort_on_created_at", byCreation],
      ["created_at_asc", byCreation],
      ["created_at_desc", byCreation.slice().reverse()],
    ] as const) {
      expect((await walk(sortBy)).ids, sortBy).toEqual(expected);
    }
    // no sort_by is the activity order, as before
    expect((await page("")).ids).toEqual(byActivity.slice(0, 25));
    // `page` follows the order too
    expect((await page("sort_by=created_at_asc&page=2")).ids).toEqual(byCreation.slice(25, 50));
  });

  it("applies to an agent's list of their inboxes and keeps the counts of the whole list", async () => {
    const agentPages = await walk("created_at_desc", world.agent.key);
    expect(agentPages.ids).toEqual(byCreation.slice().reverse());
    const unsorted = await page("");
    for (const sortBy of ["created_at_asc", "last_activity_at_asc"]) {
      expect((await page(`sort_by=${sortBy}`)).meta).toMatchObject({ all_count: TOTAL, mine_count: unsorted.meta.mine_count, unassigned_count: unsorted.meta.unassigned_count });
    }
    const meta = await get(`${world.base}/conversations/meta?sort_by=created_at_desc`, world.admin.key);
    expect(meta.body.meta).toEqual((await get(`${world.base}/conversations/meta`, world.admin.key)).body.meta);
  });

  it("costs per page what the default order costs, however far down the page is", async () => {
    const baseline = await walk("last_activity_at_desc");
    // (every conversation here has no priority, and all but three wait: one long tie of the sort key; that
    // a cursor skips it by an index range, not by reading it, the query plan test below shows)
    for (const sortBy of ["created_at_asc", "created_at_desc", "last_activity_at_asc", "priority_desc", "priority_asc", "waiting_since_asc", "waiting_since_desc"]) {
      const { pages } = await walk(sortBy);
      for (const [i, p] of pages.entries()) expect(p.roundTrips, `${sortBy} page ${i + 1}`).toBeLessThanOrEqual(baseline.pages[0].roundTrips);
      // the dearest page reads what the default order's dearest page reads (the pages differ in which
      // conversations, with how many messages, they hold), give or take the index walk's few extra rows
      // (a priority order's page also passes its ids through the merge of its walks and reads them by id:
      // a few times the page's 26 rows more, whatever the page)
      const merge = sortBy.startsWith("priority") ? 4 * 26 : 5;
      expect(Math.max(...pages.map((p) => p.rowsRead)), sortBy).toBeLessThanOrEqual(Math.max(...baseline.pages.map((p) => p.rowsRead)) + merge);
      // a full page further down (by cursor) reads what the first one reads
      expect(pages[1].rowsRead, sortBy).toBeLessThanOrEqual(pages[0].rowsRead + 5);
    }
  });

  it("orders the single-tie account by priority and waiting time as Chatwoot does", async () => {
    const rows = await stored(world.accountId);
    for (const sortBy of Object.keys(model)) {
      const expected = modelOrder(rows, sortBy);
      expect((await walk(sortBy)).ids, sortBy).toEqual(expected);
      expect(await walkPages(sortBy, world.base), sortBy).toEqual(expected);
    }
    // the three that had a reply wait no more: last in either waiting order
    expect((await walk("waiting_since_asc")).ids.slice(-3).sort()).toEqual(bumped.slice().sort());
    expect((await walk("waiting_since_desc")).ids.slice(-3).sort()).toEqual(bumped.slice().sort());
  });

  it("refuses an unknown sort_by and another order's cursor with a 422, and changes nothing", async () => {
    const before = await stored(world.accountId);
    for (const sortBy of ["oldest_first", "priority", "waiting_since", "PRIORITY_DESC"]) {
      const unknown = await get(`${world.base}/conversations?sort_by=${sortBy}`, world.admin.key);
      expect(unknown.status, sortBy).toBe(422);
      expect(unknown.body.description).toEqual(expect.any(String));
      expect(unknown.body.errors[0]).toMatchObject({ field: "sort_by", code: "invalid_value" });
      expect(unknown.body.errors[0].message).toContain("waiting_since_desc");
    }
    for (const [made, used] of [
      ["created_at_asc", ""],
      ["priority_desc", "sort_by=priority_asc&"],
      ["waiting_since_asc", "sort_by=waiting_since_desc&"],
      ["priority_desc", "sort_by=last_activity_at_desc&"],
    ]) {
      const first = await page(`sort_by=${made}`);
      const crossed = await get(`${world.base}/conversations?${used}cursor=${encodeURIComponent(first.next!)}`, world.admin.key);
      expect(crossed.status, `${made} -> ${used}`).toBe(422);
      expect(crossed.body.errors[0]).toMatchObject({ field: "cursor", code: "invalid_cursor" });
    }
    expect(await stored(world.accountId)).toEqual(before);
  });
});

describe("priority and waiting-time orders over mixed conversations", async () => {
  const mixed = await createWorld("Triage Co");
  const api = await createInbox(mixed.accountId, { name: "Triage API" });
  const widget = await createInbox(mixed.accountId, { name: "Triage widget", channel: "Channel::WebWidget" });
  const customer = await createContact(mixed.accountId);
  const PRIORITIES = ["urgent", "high", "medium", "low", null];
  const ids: number[] = [];
  for (let i = 0; i < 40; i++) {
    const id = (await post(`${mixed.base}/conversations`, mixed.admin.key, { inbox_id: i % 4 === 3 ? widget : api, contact_id: customer })).body.id;
    ids.push(id);
    const priority = PRIORITIES[i % 5];
    if (priority) await post(`${mixed.base}/conversations/${id}/toggle_priority`, mixed.admin.key, { priority });
    // a third answered (nobody waits); of those in the API inbox, every other one written to again (a new wait)
    if (i % 3 === 0) {
      await post(`${mixed.base}/conversations/${id}/messages`, mixed.admin.key, { content: "On it" });
      if (i % 4 !== 3 && i % 2 === 0) await post(`${mixed.base}/conversations/${id}/messages`, mixed.admin.key, { content: "And now?", message_type: "incoming" });
    }
  }
  // long ties: the conversations of no priority share one activity time, those nobody waits on one creation
  // time, so pages end inside ties of the sort key and of the tie column alike
  await (await shardOf(mixed.accountId)).prepare("UPDATE conversations SET last_activity_at = 1700000000000 WHERE account_id = ? AND priority IS NULL").bind(mixed.accountId).run();
  await (await shardOf(mixed.accountId)).prepare("UPDATE conversations SET created_at = 1600000000000 WHERE account_id = ? AND waiting_since IS NULL").bind(mixed.accountId).run();
  // some resolved (resolving ends the wait), for status=all
  for (const id of ids.slice(30, 34)) await post(`${mixed.base}/conversations/${id}/toggle_status`, mixed.admin.key, { status: "resolved" });

  it("walks each order by cursor and by page, with no repeats and no gaps, as Chatwoot orders it", async () => {
    const rows = await stored(mixed.accountId);
    const open = rows.filter((r) => r.status === 0);
    expect(new Set(open.map((r) => r.priority)).size).toBe(5);
    expect(open.some((r) => r.waiting_since === null) && open.some((r) => r.waiting_since !== null)).toBe(true);
    for (const sortBy of Object.keys(model)) {
      const expected = modelOrder(open, sortBy);
      const byCursor = await walk(sortBy, mixed.admin.key, mixed.base);
      expect(byCursor.ids, sortBy).toEqual(expected);
      expect(byCursor.pages.length, sortBy).toBe(2);
      expect(await walkPages(sortBy, mixed.base, mixed.admin.key), sortBy).toEqual(expected);
      // status=all and one inbox walk their own indexes in the same order
      expect((await walk(sortBy, mixed.admin.key, mixed.base, "&status=all")).ids, `${sortBy} all`).toEqual(modelOrder(rows, sortBy));
      const inApi = open.filter((r) => r.inbox_id === api);
      expect((await walk(sortBy, mixed.admin.key, mixed.base, `&inbox_id=${api}`)).ids, `${sortBy} inbox`).toEqual(modelOrder(inApi, sortBy));
    }
    // a search (of any status) in the same orders: a short `q` is a paged scan of the order, a longer one
    // orders what the message index found
    const replied = new Set(ids.filter((_, i) => i % 3 === 0));
    for (const sortBy of ["priority_desc", "priority_asc", "waiting_since_asc", "waiting_since_desc"]) {
      const expected = modelOrder(rows.filter((r) => replied.has(r.display_id)), sortBy);
      for (const q of ["on", "on it"]) expect((await walk(sortBy, mixed.admin.key, mixed.base, `&q=${encodeURIComponent(q)}`)).ids, `${sortBy} q=${q}`).toEqual(expected);
    }
    // the counts are the list's, whatever the order
    const unsorted = await page("", mixed.admin.key, mixed.base);
    expect((await page("sort_by=priority_asc", mixed.admin.key, mixed.base)).meta).toMatchObject({ all_count: unsorted.meta.all_count, mine_count: unsorted.meta.mine_count });
  });

  it("reads each order's page through its index, with the cursor as an index range", async () => {
    // the page query as the list builds it (order.ts's walk, ORDER BY and cursor range), planned by SQLite
    const shard = await shardOf(mixed.accountId);
    const db = createDb(shard);
    const c = schema.conversations;
    const planOf = async (query: { sql: string; params: unknown[] }) =>
      (await shard.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).bind(...query.params).all<{ detail: string }>()).results.map((r) => r.detail);
    const variants = [
      [and(eq(c.accountId, mixed.accountId), eq(c.status, 0)), "conversations_account_status_"],
      [eq(c.accountId, mixed.accountId), "conversations_account_"],
      [and(eq(c.inboxId, api), eq(c.status, 0)), "conversations_inbox_status_"],
    ] as const;
    for (const [sortBy, sort] of Object.entries(SORTS).filter(([, sort]) => sort.key)) {
      for (const [where, prefix] of variants) {
        const page = db.select({ id: c.id }).from(c).where(and(where, beyond(sort, { key: [1, 1], id: 1 }))).orderBy(...listOrder(sort)).limit(26);
        const detail = (await planOf(page.toSQL())).join(" | ");
        expect(detail, sortBy).toMatch(new RegExp(`USING (COVERING )?INDEX ${prefix}${sort.key!.replace("sort_", "")} \\(`));
        expect(detail, sortBy).toContain(`(${sort.key},created_at)`);
        expect(detail, sortBy).not.toContain("TEMP B-TREE");
      }
    }
    // a priority order: one walk per priority value from the cursor's on, the cursor's one by an index
    // range on activity; only the merged few are sorted
    for (const [sortBy, sort] of Object.entries(SORTS).filter(([, sort]) => sort.priority)) {
      for (const [where, prefix] of variants) {
        const medium = sort.priority === "desc" ? 1 : -1;
        const page = db.select({ id: c.id }).from(c).where(sql`${c.id} IN (${walkIds(where, { key: [medium, 5], id: 1 }, sort, 26)})`);
        const walks = (await planOf(page.toSQL())).filter((line) => line.includes("SCAN") || line.includes("SEARCH"));
        const indexWalks = walks.filter((line) => new RegExp(`USING (COVERING )?INDEX ${prefix}priority_activity \\(`).test(line));
        // medium and what follows it: low and none (desc), or high, urgent and none (asc)
        expect(indexWalks.length, `${sortBy} ${walks.join(" | ")}`).toBe(sort.priority === "desc" ? 3 : 4);
        expect(indexWalks.filter((line) => /last_activity_at[<>]/.test(line)).length, sortBy).toBe(1);
        // nothing else is scanned but the walks' own few results
        expect(walks.filter((line) => line.startsWith("SCAN") && !line.includes("subquery")), `${sortBy} ${walks.join(" | ")}`).toEqual([]);
      }
    }
  });

  it("keeps waiting_since as Chatwoot does: set by the contact, ended by a person's public reply or by resolving", async () => {
    const bot = (await post(`${mixed.base}/agent_bots`, mixed.admin.key, { name: "Triage bot" })).body;
    await connectAgentBot(mixed.accountId, api, bot.id);
    const id = (await post(`${mixed.base}/conversations`, mixed.admin.key, { inbox_id: api, contact_id: customer })).body.id;
    const waiting = async () => (await get(`${mixed.base}/conversations/${id}`, mixed.admin.key)).body.waiting_since;
    const say = (body: object, key = mixed.admin.key) => post(`${mixed.base}/conversations/${id}/messages`, key, body);
    const stillWaiting = async (since: number | null, what: string) => expect(await waiting(), what).toBe(since);
    // a new conversation starts waiting (Chatwoot's ensure_waiting_since); a person's reply ends it
    expect(await waiting()).toBeGreaterThan(0);
    expect((await say({ content: "Hello" })).status).toBe(200);
    await stillWaiting(null, "after the first reply");
    // an incoming message starts a wait
    const first = (await say({ content: "Where is my parcel?", message_type: "incoming" })).body;
    await stillWaiting(first.created_at, "after the contact wrote");
    // another incoming message, a private note, an activity line and a bot's reply leave it as it was
    await new Promise((r) => setTimeout(r, 1100));
    expect((await say({ content: "Hello??", message_type: "incoming" })).status).toBe(200);
    await stillWaiting(first.created_at, "after the contact wrote again");
    expect((await say({ content: "checking with the carrier", private: true })).status).toBe(200);
    await stillWaiting(first.created_at, "after a private note");
    // (the bot made the conversation pending; opening it writes an activity line)
    expect((await post(`${mixed.base}/conversations/${id}/toggle_status`, mixed.admin.key, { status: "open" })).status).toBe(200);
    const lines = (await get(`${mixed.base}/conversations/${id}/messages`, mixed.admin.key)).body.payload;
    expect(lines.at(-1)).toMatchObject({ message_type: 2, content: expect.stringContaining("reopened") });
    await stillWaiting(first.created_at, "after an activity line");
    expect((await say({ content: "A person will answer soon" }, bot.access_token)).status).toBe(200);
    await stillWaiting(first.created_at, "after a bot's message");
    // the waiting order has it among the waiting, by its wait
    const rows = await stored(mixed.accountId);
    expect((await walk("waiting_since_asc", mixed.admin.key, mixed.base, "&status=all")).ids).toEqual(modelOrder(rows, "waiting_since_asc"));
    // an agent's public reply ends it
    expect((await say({ content: "Your parcel left today" })).status).toBe(200);
    await stillWaiting(null, "after the agent replied");
    // resolving ends a wait too
    expect((await say({ content: "Thanks!", message_type: "incoming" })).status).toBe(200);
    expect(await waiting()).toBeGreaterThan(0);
    expect((await post(`${mixed.base}/conversations/${id}/toggle_status`, mixed.admin.key, { status: "resolved" })).status).toBe(200);
    await stillWaiting(null, "after resolving");
  });
});
