/**
 * Global search (`/search` and its four sub-routes), as an agent's app uses it: what each kind finds and
 * shows, pages of 15, conversations and messages kept to the caller's inboxes and teams, and refusals.
 * Every account here is this file's own (the indexes confine a search to its account), so the
 * assertions name only rows this file made.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { shardOf } from "../support/databases";
import { get, post } from "../support/http";
import { createWorld } from "../support/world";
import { addInboxMember, createInbox, createTeam } from "../support/fixtures";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let shared: number; // the agent's inbox
let closed: number; // an inbox the agent is not a member of
let zephyr: number; // a listed contact
let conversation: number; // display id, in the agent's inbox
let hidden: number; // display id, in the closed inbox
let slug: string;

const must = async (res: Promise<{ status: number; body: any }>) => {
  const r = await res;
  if (r.status !== 200) throw new Error(`setup failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};
const search = (path: string, key: string | null = world.admin.key) => get(`${world.base}/search${path}`, key);
const found = async (path: string, kind: string, key = world.admin.key) => {
  const res = await search(path, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.payload[kind] as any[];
};
const open = async (inboxId: number, contactId: number) => (await must(post(`${world.base}/conversations`, world.admin.key, { inbox_id: inboxId, contact_id: contactId }))).id as number;
const say = (displayId: number, content: string, messageType = "outgoing") =>
  must(post(`${world.base}/conversations/${displayId}/messages`, world.admin.key, { content, message_type: messageType }));

beforeAll(async () => {
  world = await createWorld("Search Co");
  shared = await createInbox(world.accountId, { name: "Shared" });
  closed = await createInbox(world.accountId, { name: "Closed" });
  await addInboxMember(world.accountId, shared, world.agent.id);
  zephyr = (await must(post(`${world.base}/contacts`, world.admin.key, { name: "Zephyr Quill", email: "zq@example.com", phone_number: "+15550001234" }))).payload.contact.id;
  // no email, phone number or identifier: not a listed contact, so contact search leaves it out
  const unlisted = (await must(post(`${world.base}/contacts`, world.admin.key, { name: "Zephyr Unlisted" }))).payload.contact.id;
  conversation = await open(shared, zephyr);
  await say(conversation, "Where is my marmalade order?", "incoming");
  await say(conversation, "Your marmalade ships tomorrow.");
  hidden = await open(closed, unlisted);
  await say(hidden, "Secret marmalade recipe");
  slug = `search-${crypto.randomUUID().slice(0, 8)}`;
  await must(post(`${world.base}/portals`, world.admin.key, { name: "Docs", slug }));
  await must(post(`${world.base}/portals/${slug}/categories`, world.admin.key, { name: "Orders", slug: "orders" }));
  const categories = (await get(`${world.base}/portals/${slug}/categories`, world.admin.key)).body.payload;
  await must(post(`${world.base}/portals/${slug}/articles`, world.admin.key, { title: "Marmalade shipping", content: "How orders ship.", status: 1, category_id: categories[0].id }));
  await must(post(`${world.base}/portals/${slug}/articles`, world.admin.key, { title: "Marmalade draft", content: "Not yet.", status: 0 }));
});

describe("what each kind finds and shows", () => {
  it("contacts: listed contacts whose name, email, phone number or identifier contain the text, in Chatwoot's slim shape", async () => {
    const byName = await found("/contacts?q=ZEPHYR", "contacts");
    expect(byName).toEqual([
      { email: "zq@example.com", id: zephyr, name: "Zephyr Quill", phone_number: "+15550001234", identifier: null, additional_attributes: {}, last_activity_at: expect.any(Number) },
    ]);
    expect((await found("/contacts?q=0001234", "contacts")).map((c) => c.id)).toEqual([zephyr]);
    expect((await found("/contacts?q=zq@ex", "contacts")).map((c) => c.id)).toEqual([zephyr]);
  });

  it("conversations: those of a matching contact (listed or not), newest first, with their first message, contact, inbox and assignee", async () => {
    await must(post(`${world.base}/conversations/${conversation}/assignments`, world.admin.key, { assignee_id: world.agent.id }));
    const hits = await found("/conversations?q=zephyr", "conversations");
    expect(hits.map((c) => c.id)).toEqual([hidden, conversation]);
    const hit = hits[1];
    expect(hit).toMatchObject({
      id: conversation,
      account_id: world.accountId,
      created_at: expect.any(Number),
      message: { content: "Where is my marmalade order?", conversation_id: conversation, message_type: 0 },
      contact: { id: zephyr, name: "Zephyr Quill" },
      inbox: { id: shared, name: "Shared", channel_type: "Channel::Api" },
      assignee_type: "User",
      agent: { id: world.agent.id, email: world.agent.email, role: "agent" },
    });
    expect(hits[0]).not.toHaveProperty("agent");
  });

  it("conversations: those whose display id contains the text", async () => {
    // TEST SETUP: display ids 1000 to 1129 written straight to the database (contact and inbox reused)
    const shard = await shardOf(world.accountId);
    const row = await shard.prepare("SELECT contact_id, contact_inbox_id FROM conversations WHERE account_id = ? AND display_id = ?").bind(world.accountId, conversation).first<{ contact_id: number; contact_inbox_id: number }>();
    await shard.prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 129)
       INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, status, last_activity_at, created_at, updated_at)
       SELECT ?1, 1000 + n, 'search-seed-' || ?1 || '-' || n, ?2, ?3, ?4, 0, 1000 + n, 1000 + n, 1000 + n FROM seq`,
    )
      .bind(world.accountId, shared, row!.contact_id, row!.contact_inbox_id)
      .run();
    const all = (await shard.prepare("SELECT display_id FROM conversations WHERE account_id = ?").bind(world.accountId).all<{ display_id: number }>()).results.map((r) => r.display_id);
    const expected = all.filter((id) => String(id).includes("112")).sort((a, b) => b - a);
    expect(expected).toEqual([1129, 1128, 1127, 1126, 1125, 1124, 1123, 1122, 1121, 1120, 1112]);
    expect((await found("/conversations?q=112", "conversations")).map((c) => c.id)).toEqual(expected);
    expect(await found("/conversations?q=99999", "conversations")).toEqual([]);
  });

  it("messages: content containing the text (any case), newest first, as the Message record", async () => {
    const hits = await found("/messages?q=MARMALADE", "messages");
    expect(hits.map((m) => m.content)).toEqual(["Secret marmalade recipe", "Your marmalade ships tomorrow.", "Where is my marmalade order?"]);
    expect(hits[1]).toMatchObject({ conversation_id: conversation, inbox_id: shared, message_type: 1, sender: { id: world.admin.id, type: "user" } });
    expect(hits[2]).toMatchObject({ sender: { id: zephyr, type: "contact" }, conversation: { contact_inbox: { source_id: expect.any(String) } } });
  });

  it("articles: the account's published articles, with their portal and category", async () => {
    const hits = await found("/articles?q=marma", "articles");
    expect(hits).toEqual([
      {
        id: expect.any(Number),
        title: "Marmalade shipping",
        locale: "en",
        content: "How orders ship.",
        slug: expect.any(String),
        portal_slug: slug,
        account_id: world.accountId,
        category_name: "Orders",
        status: "published",
        updated_at: expect.any(Number),
      },
    ]);
  });

  it("`/search` answers all four kinds; each sub-route only its own", async () => {
    const all = (await search("?q=marmalade")).body.payload;
    expect(Object.keys(all).sort()).toEqual(["articles", "contacts", "conversations", "messages"]);
    expect(all.messages).toHaveLength(3);
    expect(all.articles).toHaveLength(1);
    expect(all.contacts).toEqual([]);
    for (const kind of ["contacts", "conversations", "messages", "articles"]) {
      expect(Object.keys((await search(`/${kind}?q=marmalade`)).body.payload)).toEqual([kind]);
    }
  });

  it("takes the text literally: FTS syntax, quotes and % are plain characters", async () => {
    expect(await found('/messages?q=" OR "', "messages")).toEqual([]);
    expect(await found("/messages?q=%25%25%25", "messages")).toEqual([]);
    expect(await found("/messages?q=content:marmalade", "messages")).toEqual([]);
  });
});

describe("paging", () => {
  it("gives 15 a page, newest first, without overlap, and an empty page past the end", async () => {
    const target = await open(shared, zephyr);
    for (let i = 1; i <= 20; i++) await say(target, `pagination token ${String(i).padStart(2, "0")}`);
    const first = await found("/messages?q=pagination", "messages");
    const second = await found("/messages?q=pagination&page=2", "messages");
    expect(first.map((m) => m.content)).toEqual(Array.from({ length: 15 }, (_, i) => `pagination token ${String(20 - i).padStart(2, "0")}`));
    expect(second.map((m) => m.content)).toEqual(["05", "04", "03", "02", "01"].map((n) => `pagination token ${n}`));
    expect(await found("/messages?q=pagination&page=3", "messages")).toEqual([]);
  });
});

describe("who sees what", () => {
  it("an agent sees the conversations and messages of their inboxes only; contacts and articles are the account's", async () => {
    const agent = world.agent.key;
    expect((await found("/messages?q=marmalade", "messages", agent)).map((m) => m.conversation_id)).toEqual([conversation, conversation]);
    expect((await found("/conversations?q=zephyr", "conversations", agent)).map((c) => c.id)).not.toContain(hidden);
    expect((await found("/conversations?q=zephyr", "conversations", agent)).map((c) => c.id)).toContain(conversation);
    const all = (await search("?q=marmalade", agent)).body.payload;
    expect(all.messages.map((m: any) => m.content)).not.toContain("Secret marmalade recipe");
    expect(all.articles).toHaveLength(1);
    expect((await found("/contacts?q=zephyr", "contacts", agent)).map((c) => c.id)).toEqual([zephyr]);
  });

  it("an agent sees a conversation of another inbox once it is their team's", async () => {
    const team = await createTeam(world.accountId, "Jam team", [world.agent.id]);
    await must(post(`${world.base}/conversations/${hidden}/assignments`, world.admin.key, { team_id: team }));
    expect((await found("/messages?q=secret marm", "messages", world.agent.key)).map((m) => m.conversation_id)).toEqual([hidden]);
  });

  it("another account's member gets 403, no key 401, and an agent bot's key is refused", async () => {
    const other = await createWorld("Search Other");
    const foreign = await search("?q=marmalade", other.admin.key);
    expect(foreign.status).toBe(403);
    expect(foreign.body.errors[0].code).toBeTypeOf("string");
    // and the other account's own search does not reach this one's rows
    expect((await get(`${other.base}/search?q=marmalade`, other.admin.key)).body.payload).toEqual({ contacts: [], conversations: [], messages: [], articles: [] });
    expect((await search("/messages?q=marmalade", null)).status).toBe(401);
    const bot = await must(post(`${world.base}/agent_bots`, world.admin.key, { name: "Searcher", outgoing_url: "https://hooks.example.com/bot" }));
    expect(bot.access_token).toBeTypeOf("string");
    expect([401, 403]).toContain((await search("?q=marmalade", bot.access_token)).status);
  });
});

describe("refusals", () => {
  it("names a text of two characters too short (no index can find it)", async () => {
    const res = await search("/messages?q=%20ab%20");
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: "q", message: "must have at least 3 characters", code: "too_short" }]);
  });

  it.each([
    ["no q", "", "q"],
    ["a blank q", "?q=%20%20", "q"],
    ["a q of two characters", "?q=ab", "q"],
    ["a q over 255 characters", `?q=${"a".repeat(256)}`, "q"],
    ["a page that is not a number", "?q=marmalade&page=two", "page"],
    ["page 0", "?q=marmalade&page=0", "page"],
  ])("%s is a 422 on that field with the error body", async (_, query, field) => {
    for (const path of ["", "/contacts", "/conversations", "/messages", "/articles"]) {
      const res = await search(`${path}${query}`);
      expect(res.status).toBe(422);
      expect(res.body.description).toBeTypeOf("string");
      expect(res.body.errors).toContainEqual(expect.objectContaining({ field, message: expect.any(String), code: expect.any(String) }));
    }
  });
});
