/**
 * `sort_by` on the conversation list: Chatwoot's names for activity and creation order, each walked
 * through a list index with cursors; counts do not move; the orders not built are a clear 422.
 */
import { describe, expect, it } from "vitest";
import { get, post } from "../support/http";
import { createWorld } from "../support/world";
import { addInboxMember, createContact, createInbox } from "../support/fixtures";

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

async function page(query: string, key = world.admin.key): Promise<Page> {
  const res = await get(`${world.base}/conversations?${query}`, key);
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

/** Every page of the list with `sort_by`, following the cursors. */
async function walk(sortBy: string, key = world.admin.key) {
  const pages: Page[] = [];
  let query = `sort_by=${sortBy}`;
  for (;;) {
    const p = await page(query, key);
    pages.push(p);
    if (!p.next) break;
    query = `sort_by=${sortBy}&cursor=${encodeURIComponent(p.next)}`;
  }
  return { ids: pages.flatMap((p) => p.ids), pages };
}

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
    for (const sortBy of ["created_at_asc", "created_at_desc", "last_activity_at_asc"]) {
      const { pages } = await walk(sortBy);
      for (const [i, p] of pages.entries()) expect(p.roundTrips, `${sortBy} page ${i + 1}`).toBeLessThanOrEqual(baseline.pages[0].roundTrips);
      // the dearest page reads what the default order's dearest page reads (the pages differ in which
      // conversations, with how many messages, they hold), give or take the index walk's few extra rows
      expect(Math.max(...pages.map((p) => p.rowsRead)), sortBy).toBeLessThanOrEqual(Math.max(...baseline.pages.map((p) => p.rowsRead)) + 5);
      // a full page further down (by cursor) reads what the first one reads
      expect(pages[1].rowsRead, sortBy).toBeLessThanOrEqual(pages[0].rowsRead + 5);
    }
  });

  it("refuses an unknown sort_by, an order not built yet and another order's cursor with a 422", async () => {
    const unknown = await get(`${world.base}/conversations?sort_by=oldest_first`, world.admin.key);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ field: "sort_by", code: "invalid_value" });
    expect(unknown.body.errors[0].message).toContain("created_at_asc");
    for (const sortBy of ["priority_desc", "sort_on_waiting_since"]) {
      const res = await get(`${world.base}/conversations?sort_by=${sortBy}`, world.admin.key);
      expect(res.status, sortBy).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ field: "sort_by", code: "not_supported" });
    }
    const first = await page("sort_by=created_at_asc");
    const crossed = await get(`${world.base}/conversations?cursor=${encodeURIComponent(first.next!)}`, world.admin.key);
    expect(crossed.status).toBe(422);
    expect(crossed.body.errors[0].field).toBe("cursor");
  });
});
