/**
 * Complete answers at any size: `q` through the message search index (kept in the batch of every message
 * write), `labels[]` through the taggings' label index, `/conversations/filter` through an index per key
 * or a paged scan that says `has_more`, and cursor paging beside `page`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { shardOf } from "../support/databases";
import { call, del, get, post } from "../support/http";
import { createWorld } from "../support/world";
import { createContact, createContactInbox, createInbox, createTeam, defineConversationAttribute } from "../support/fixtures";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let inboxId: number;
let contactId: number;
let contactInboxId: number;

/** The database of the world's account. */
const shard = () => shardOf(world.accountId);
const list = (query: string, key = world.admin.key) => get(`${world.base}/conversations?${query}`, key);
const ids = async (query: string, key = world.admin.key) => (await list(query, key)).body.data.payload.map((c: { id: number }) => c.id);
const meta = async (query: string) => (await get(`${world.base}/conversations/meta?${query}`, world.admin.key)).body.meta;
const filter = (payload: unknown[], query = "") => post(`${world.base}/conversations/filter${query}`, world.admin.key, { payload });
const cond = (attribute_key: string, filter_operator: string, values: unknown[], query_operator?: string) => ({
  attribute_key,
  filter_operator,
  values,
  ...(query_operator && { query_operator }),
});
const open = async (extra: object = {}) =>
  (await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inboxId, contact_id: contactId, ...extra })).body.id as number;
const say = (id: number, content: string, extra: object = {}) => post(`${world.base}/conversations/${id}/messages`, world.admin.key, { content, ...extra });

/**
 * TEST SETUP: `count` open conversations with display ids from `from`, each with one incoming message
 * "filler <n>", written straight to the database and older than anything the test creates through the
 * API. Their messages are not in the search index (they match no search of this file); their activity
 * times run from `base`, one second apart, newest last.
 */
async function seedConversations(from: number, count: number, base: number) {
  await (await shard()).prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1 - 1)
     INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, status, last_activity_at, created_at, updated_at)
     SELECT ?2, ?3 + n, 'seed-' || ?3 || '-' || n, ?4, ?5, ?6, 0, ?7 + n * 1000, ?7 + n * 1000, ?7 + n * 1000 FROM seq`,
  )
    .bind(count, world.accountId, from, inboxId, contactId, contactInboxId, base)
    .run();
  await (await shard()).prepare(
    `INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, sender_type, sender_id, created_at, updated_at)
     SELECT account_id, inbox_id, id, 0, 'filler ' || display_id, 'Contact', contact_id, created_at, created_at
     FROM conversations WHERE account_id = ?1 AND display_id >= ?2 AND display_id < ?2 + ?3`,
  )
    .bind(world.accountId, from, count)
    .run();
}

const YEAR_AGO = Date.now() - 365 * 86_400_000;
let oldest: number;

beforeAll(async () => {
  world = await createWorld("Complete answers");
  inboxId = await createInbox(world.accountId);
  contactId = await createContact(world.accountId);
  ({ id: contactInboxId } = await createContactInbox(world.accountId, contactId, inboxId));
  // The oldest conversation of the account, through the API, with a message the index holds ...
  oldest = await open();
  await say(oldest, "The parcel reached Zanzibar safely");
  await (await shard()).prepare("UPDATE conversations SET last_activity_at = ?, created_at = ? WHERE account_id = ? AND display_id = ?")
    .bind(YEAR_AGO - 1_000, YEAR_AGO - 1_000, world.accountId, oldest)
    .run();
  // ... then 6,000 newer messages in 1,100 conversations: more than any former window (5,000 messages,
  // 2,000 conversations, 1,000 taggings) and more than one scan budget (1,000 conversations).
  await seedConversations(100_000, 1_100, YEAR_AGO);
  await (await shard()).prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 4900)
     INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, created_at, updated_at)
     SELECT ?1, ?2, (SELECT id FROM conversations WHERE account_id = ?1 AND display_id = 100000), 1, 'more filler', ?3 + n, ?3 + n FROM seq`,
  )
    .bind(world.accountId, inboxId, YEAR_AGO)
    .run();
  await (await shard()).prepare(
    `INSERT INTO taggings (account_id, taggable_type, taggable_id, tag, created_at)
     SELECT account_id, 'Conversation', id, 'bulk', created_at FROM conversations WHERE account_id = ?1 AND display_id >= 100000 AND display_id < 101050`,
  )
    .bind(world.accountId)
    .run();
});

describe("q: the message search index", () => {
  it("finds a message in the oldest conversation, whatever the number of newer messages, with complete counts", async () => {
    expect(await ids("q=zanzibar")).toEqual([oldest]);
    expect(await ids("q=ZANZIBAR")).toEqual([oldest]);
    expect(await ids("q=el reached")).toEqual([oldest]);
    expect(await meta("q=zanzibar")).toEqual({ mine_count: 0, assigned_count: 0, unassigned_count: 1, all_count: 1 });
    // Chatwoot ignores the status when searching
    await post(`${world.base}/conversations/${oldest}/toggle_status`, world.admin.key, { status: "resolved" });
    expect(await ids("q=zanzibar&status=open")).toEqual([oldest]);
    await post(`${world.base}/conversations/${oldest}/toggle_status`, world.admin.key, { status: "open" });
  });

  it("matches substrings in any script and treats FTS syntax and LIKE wildcards as text", async () => {
    const id = await open();
    await say(id, "東京太郎さん: ÉMILE's order 100% \"done\" OR NOT *");
    expect(await ids("q=京太郎")).toEqual([id]);
    expect(await ids("q=émile")).toEqual([id]);
    expect(await ids(`q=${encodeURIComponent('100% "done" OR NOT *')}`)).toEqual([id]);
    expect(await ids("q=NOT *")).toEqual([id]);
    expect(await ids("q=no such words here")).toEqual([]);
  });

  it("searches incoming and outgoing messages, private notes included, and not activity lines", async () => {
    const id = await open();
    await say(id, "internal note about Quokka", { private: true });
    expect(await ids("q=quokka")).toEqual([id]);
    await post(`${world.base}/conversations/${id}/toggle_status`, world.admin.key, { status: "pending" });
    // "Conversation was marked pending by ..." is an activity line
    const activity = await ids("q=marked pending");
    expect(activity).not.toContain(id);
  });

  it("keeps the index in the batch of every message write: create, delete, contact and conversation delete", async () => {
    const id = await open();
    const message = (await say(id, "Ocelot sighting reported")).body.id;
    expect(await ids("q=ocelot")).toEqual([id]);
    expect((await del(`${world.base}/conversations/${id}/messages/${message}`, world.admin.key)).status).toBe(200);
    expect(await ids("q=ocelot")).toEqual([]);
    expect(await ids("q=message was deleted")).toContain(id);

    const leaving = await createContact(world.accountId);
    const theirs = (await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inboxId, contact_id: leaving })).body.id;
    await say(theirs, "Narwhal tusk return");
    expect(await ids("q=narwhal")).toEqual([theirs]);
    expect((await del(`${world.base}/contacts/${leaving}`, world.admin.key)).status).toBe(200);
    expect(await ids("q=narwhal")).toEqual([]);
    const dropped = await open();
    await say(dropped, "Axolotl care guide");
    expect(await ids("q=axolotl")).toEqual([dropped]);
    expect((await del(`${world.base}/conversations/${dropped}`, world.admin.key)).status).toBe(200);
    expect(await ids("q=axolotl")).toEqual([]);
    const orphans = await (await shard()).prepare("SELECT count(*) AS n FROM message_search WHERE rowid NOT IN (SELECT id FROM messages)").first<{ n: number }>();
    expect(orphans!.n).toBe(0);
  });

  it("keeps an agent to the conversations they reach", async () => {
    expect(await ids("q=zanzibar", world.agent.key)).toEqual([]);
  });

  it("scans, paged, for one or two characters, and says where to continue", async () => {
    const first = await list("q=zz");
    // 1,000 conversations examined, the match is older: nothing yet, but more to come
    expect(first.body.data.payload).toEqual([]);
    expect(first.body.data.meta).toMatchObject({ all_count: 0, has_more: true, next_cursor: expect.any(String) });
    const id = await open();
    await say(id, "zz top");
    const fresh = await list("q=zz");
    expect(fresh.body.data.payload.map((c: { id: number }) => c.id)).toEqual([id]);
    let cursor: string | undefined = fresh.body.data.meta.next_cursor;
    const found: number[] = [id];
    for (let i = 0; cursor && i < 5; i++) {
      const next = await list(`q=zz&cursor=${cursor}`);
      found.push(...next.body.data.payload.map((c: { id: number }) => c.id));
      cursor = next.body.data.meta.next_cursor;
    }
    expect(cursor).toBeUndefined();
    expect(found).toEqual([id]);
  });
});

describe("labels[]: the taggings' label index", () => {
  it("answers every tagged conversation, case-insensitively, with complete counts", async () => {
    expect(await meta("labels[]=bulk")).toMatchObject({ all_count: 1_050, unassigned_count: 1_050 });
    expect(await meta("labels[]=BULK")).toMatchObject({ all_count: 1_050 });
    const tagged = await open();
    await post(`${world.base}/conversations/${tagged}/labels`, world.admin.key, { labels: ["Refund"] });
    expect(await ids("labels[]=refund")).toEqual([tagged]);
    expect(await ids("labels[]=refund&labels[]=nothing")).toEqual([tagged]);
    expect(await ids("labels[]=refund&q=zanzibar")).toEqual([]);
  });

  it("pages by cursor through every tagged conversation", async () => {
    const seen = new Set<number>();
    let res = await list("labels[]=bulk");
    for (let i = 0; i < 50; i++) {
      for (const c of res.body.data.payload) seen.add(c.id);
      const cursor = res.body.data.meta.next_cursor;
      if (!cursor) break;
      expect(res.headers.get("link")).toContain(`cursor=${cursor}`);
      res = await list(`labels[]=bulk&cursor=${cursor}`);
    }
    expect(seen.size).toBe(1_050);
  });
});

describe("/conversations/filter", () => {
  it("serves each allow-listed key from an index, with complete counts and has_more", async () => {
    const teamId = await createTeam(world.accountId, "filters");
    const id = await open({ team_id: teamId, assignee_id: world.admin.id, additional_attributes: { browser_language: "pt", referer: "https://x.example/a" } });
    await call("POST", `${world.base}/conversations/${id}/toggle_priority`, { key: world.admin.key, body: { priority: "urgent" } });
    const found = async (payload: unknown[]) => {
      const res = await filter(payload);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res;
    };
    for (const payload of [
      [cond("team_id", "equal_to", [teamId])],
      [cond("priority", "equal_to", ["urgent"])],
      [cond("assignee_id", "equal_to", [world.admin.id])],
      [cond("browser_language", "equal_to", ["pt"])],
      [cond("referer", "equal_to", ["https://x.example/a"])],
      [cond("display_id", "equal_to", [id])],
    ]) {
      const res = await found(payload);
      expect(res.body.payload.map((c: { id: number }) => c.id), JSON.stringify(payload)).toEqual([id]);
      expect(res.body.meta).toEqual({ mine_count: 1, unassigned_count: 0, all_count: 1, has_more: false });
    }
    const old = await found([cond("created_at", "is_less_than", [Math.floor(YEAR_AGO / 1000)])]);
    expect(old.body.payload.map((c: { id: number }) => c.id)).toEqual([oldest]);
    const labelled = await found([cond("labels", "equal_to", ["bulk"])]);
    expect(labelled.body.meta).toMatchObject({ all_count: 1_050, has_more: true, next_cursor: expect.any(String) });
    // an OR of two indexed conditions: both index paths, unioned
    const either = await found([cond("team_id", "equal_to", [teamId], "OR"), cond("display_id", "equal_to", [oldest])]);
    expect(either.body.payload.map((c: { id: number }) => c.id)).toEqual([id, oldest]);
  });

  it("scans in pages where no index serves a branch, and continues where it stopped", async () => {
    await defineConversationAttribute(world.accountId, "plan", 0);
    const oldPlan = (await call("POST", `${world.base}/conversations/${oldest}/custom_attributes`, { key: world.admin.key, body: { custom_attributes: { plan: "gold" } } })).status;
    expect(oldPlan).toBe(200);
    // The attribute changed no activity time: the oldest conversation stays behind the 1,100 seeded ones.
    const payload = [{ ...cond("plan", "equal_to", ["gold"]), custom_attribute_type: "conversation_attribute" }];
    const first = await filter(payload);
    expect(first.body.payload).toEqual([]);
    expect(first.body.meta).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    const link = first.headers.get("link")!;
    expect(link).toMatch(/rel="next"/);
    const second = await filter(payload, `?cursor=${first.body.meta.next_cursor}`);
    expect(second.body.payload.map((c: { id: number }) => c.id)).toEqual([oldest]);
    expect(second.body.meta).toMatchObject({ all_count: 1, has_more: false });
    expect(second.body.meta).not.toHaveProperty("next_cursor");
    // by page number: page 2 scans twice the budget from the start
    const byPage = await post(`${world.base}/conversations/filter`, world.admin.key, { payload, page: 2 });
    expect(byPage.body.meta).toMatchObject({ has_more: false });
  });

  it("refuses a cursor of another list and a forged one with a 422 on cursor", async () => {
    for (const cursor of ["bm90LWpzb24", btoa(JSON.stringify({ s: "name", k: "a", i: 1 })).replace(/=+$/, ""), btoa(JSON.stringify({ s: "-last_activity_at", k: "x", i: 1 })).replace(/=+$/, "")]) {
      const res = await list(`cursor=${cursor}`);
      expect(res.status, cursor).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ field: "cursor", code: "invalid_cursor" });
    }
  });
});

describe("cursor paging on the list", () => {
  it("continues after the last conversation of a page, as page numbers do, with a Link header", async () => {
    const byPage = [...(await ids("page=3")), ...(await ids("page=4"))];
    const page2 = await list("page=2");
    const cursor = page2.body.data.meta.next_cursor;
    expect(page2.headers.get("link")).toMatch(new RegExp(`cursor=${cursor}>; rel="next"$`));
    expect(page2.headers.get("link")).not.toContain("page=");
    const third = await list(`cursor=${cursor}`);
    const fourth = await list(`cursor=${third.body.data.meta.next_cursor}`);
    expect([...third.body.data.payload, ...fourth.body.data.payload].map((c: { id: number }) => c.id)).toEqual(byPage);
    // the counts stay those of the whole list
    expect(third.body.data.meta.all_count).toBe(page2.body.data.meta.all_count);
  });
});
