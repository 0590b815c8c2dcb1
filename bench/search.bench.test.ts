/**
 * Cost of global search (`/search` and its sub-routes) in one account of 100,000 messages (10,000
 * conversations of 10 messages, 10,000 contacts, 40 articles), beside GET /api: round trips and rows
 * read from the Server-Timing header, what each answer found, median wall time and its ratio to GET /api.
 * An administrator reaches everything; the agent is a member of one of the two inboxes (half the
 * conversations).
 */
import { it } from "vitest";
import { call } from "../test/support/http";
import { createWorld } from "../test/support/world";
import { shardOf } from "../test/support/databases";
import { addInboxMember, createContactInbox, createInbox } from "../test/support/fixtures";
import { seedContacts } from "../test/support/contact-fixtures";

const RUNS = 9;
const CONVERSATIONS = 10_000;
const PER_CONVERSATION = 10;

type Sample = { ms: number; roundTrips: number; rowsRead: number };

function parseTiming(header: string | null) {
  const value = (name: string) => Number(new RegExp(`${name};desc="(\\d+)"`).exec(header ?? "")?.[1] ?? 0);
  return { roundTrips: value("db-round-trips"), rowsRead: value("db-rows-read") };
}

async function measure(path: string, key: string | null): Promise<{ samples: Sample[]; body: any }> {
  const samples: Sample[] = [];
  let body: any;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const res = await call("GET", path, { key });
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    body = res.body;
    samples.push({ ms, ...parseTiming(res.headers.get("server-timing")) });
  }
  return { samples, body };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const progress = (text: string) => console.log(`[search bench] ${new Date().toISOString().slice(11, 19)} ${text}`);

/** How many of each kind the answer holds (contacts/conversations/messages/articles). */
const shown = (body: any) =>
  ["contacts", "conversations", "messages", "articles"]
    .filter((k) => body.payload[k] !== undefined)
    .map((k) => `${k[0]}${body.payload[k].length}`)
    .join(" ");

/**
 * TEST SETUP, straight to the database in chunks of 1,000 conversations: conversation n belongs to
 * contact n, sits in inbox A when n is even and B when odd, and holds 10 messages "Order <n>-<k> shipped
 * to Lisbon" (one message in 1,000 says "Zanzibar" instead), with their search index rows.
 */
async function seedConversations(accountId: number, inboxes: [number, number], contactInboxId: number, firstContactId: number) {
  const at = Date.now() - CONVERSATIONS * PER_CONVERSATION * 1000;
  const shard = await shardOf(accountId);
  for (let from = 1; from <= CONVERSATIONS; from += 1000) {
    await shard.prepare(
      `WITH RECURSIVE seq(n) AS (SELECT ?1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1 + 999)
       INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, status, last_activity_at, created_at, updated_at)
       SELECT ?2, n, 'search-bench-' || ?2 || '-' || n, CASE WHEN n % 2 = 0 THEN ?3 ELSE ?4 END, ?5 + n - 1, ?6, 0,
         ?7 + n * 10000, ?7 + n * 10000, ?7 + n * 10000 FROM seq`,
    )
      .bind(from, accountId, inboxes[0], inboxes[1], firstContactId, contactInboxId, at)
      .run();
    await shard.prepare(
      `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?4)
       INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, sender_type, sender_id, created_at, updated_at)
       SELECT c.account_id, c.inbox_id, c.id, 0,
         'Order ' || c.display_id || '-' || k.i || ' shipped to ' || CASE WHEN (c.display_id * 10 + k.i) % 1000 = 7 THEN 'Zanzibar' ELSE 'Lisbon' END,
         'Contact', c.contact_id, c.created_at + k.i * 1000, c.created_at + k.i * 1000
       FROM conversations c CROSS JOIN k WHERE c.account_id = ?1 AND c.display_id BETWEEN ?2 AND ?3 ORDER BY c.id, k.i`,
    )
      .bind(accountId, from, from + 999, PER_CONVERSATION)
      .run();
    progress(`${(from + 999) * PER_CONVERSATION} messages`);
  }
  await shard.prepare(
    `INSERT INTO message_search (rowid, account_key, conversation_id, content)
     SELECT id, '<a' || account_id || '>', conversation_id, content FROM messages WHERE account_id = ?1`,
  )
    .bind(accountId)
    .run();
  progress("message search index filled");
}

it("records the cost of global search at 100,000 messages", async () => {
  const world = await createWorld("Search bench");
  const inboxA = await createInbox(world.accountId, { name: "A" });
  const inboxB = await createInbox(world.accountId, { name: "B" });
  await addInboxMember(world.accountId, inboxA, world.agent.id);
  progress("seeding 10,000 contacts");
  await seedContacts(world.accountId, CONVERSATIONS);
  const shard = await shardOf(world.accountId);
  const first = await shard.prepare("SELECT min(id) AS id FROM contacts WHERE account_id = ?").bind(world.accountId).first<{ id: number }>();
  // one in 1,000 contacts is a Zanzibar traveller (the seeded names are "Contact <n>")
  await shard.prepare("UPDATE contacts SET name = 'Zanzibar Traveller ' || id WHERE account_id = ?1 AND (id - ?2) % 1000 = 6").bind(world.accountId, first!.id).run();
  await shard.prepare(
    `UPDATE contact_search SET name = (SELECT name FROM contacts WHERE contacts.id = contact_search.rowid)
     WHERE rowid IN (SELECT id FROM contacts WHERE account_id = ?1 AND name LIKE 'Zanzibar%')`,
  )
    .bind(world.accountId)
    .run();
  const { id: contactInboxId } = await createContactInbox(world.accountId, first!.id, inboxA);
  await seedConversations(world.accountId, [inboxA, inboxB], contactInboxId, first!.id);
  const slug = `bench-${crypto.randomUUID().slice(0, 8)}`;
  await call("POST", `${world.base}/portals`, { key: world.admin.key, body: { name: "Docs", slug } });
  for (let i = 1; i <= 40; i++) {
    const title = i % 10 === 7 ? `Shipping to Zanzibar ${i}` : `Shipping to Lisbon ${i}`;
    await call("POST", `${world.base}/portals/${slug}/articles`, { key: world.admin.key, body: { title, content: `How order ${i} ships.`, status: 1 } });
  }
  progress("seeded; measuring");

  const s = `${world.base}/search`;
  const admin = world.admin.key;
  const agent = world.agent.key;
  const cases: Array<[string, string, string | null]> = [
    ["GET /api (baseline)", "/api", null],
    ["messages q=zanzibar (100 matches)", `${s}/messages?q=zanzibar`, admin],
    ["messages q=zanzibar page 7", `${s}/messages?q=zanzibar&page=7`, admin],
    ["messages q=lisbon (99,900 matches)", `${s}/messages?q=lisbon`, admin],
    ["messages q=lisbon page 100", `${s}/messages?q=lisbon&page=100`, admin],
    ["messages q=nowhere (none)", `${s}/messages?q=nowhere`, admin],
    ["messages q=zanzibar, agent (half the inboxes)", `${s}/messages?q=zanzibar`, agent],
    ["messages q=lisbon, agent", `${s}/messages?q=lisbon`, agent],
    ["conversations q=zanzibar (10 contacts)", `${s}/conversations?q=zanzibar`, admin],
    ["conversations q=4242 (display ids)", `${s}/conversations?q=4242`, admin],
    ["conversations q=123 (display ids)", `${s}/conversations?q=123`, admin],
    ["conversations q=contact (most contacts)", `${s}/conversations?q=contact`, admin],
    ["conversations q=zanzibar, agent", `${s}/conversations?q=zanzibar`, agent],
    ["contacts q=zanzibar", `${s}/contacts?q=zanzibar`, admin],
    ["contacts q=bench.test (7 in 10)", `${s}/contacts?q=bench.test`, admin],
    ["articles q=zanzibar", `${s}/articles?q=zanzibar`, admin],
    ["articles q=shipping (all 40)", `${s}/articles?q=shipping`, admin],
    ["all four q=zanzibar", `${s}?q=zanzibar`, admin],
    ["all four q=zanzibar, agent", `${s}?q=zanzibar`, agent],
  ];
  const rows: string[] = [];
  let baseline = 0;
  for (const [name, path, key] of cases) {
    const { samples, body } = await measure(path, key);
    const ms = median(samples.map((x) => x.ms));
    if (path === "/api") baseline = ms;
    const found = path === "/api" ? "" : shown(body);
    rows.push(
      `| ${name} | ${median(samples.map((x) => x.roundTrips))} | ${median(samples.map((x) => x.rowsRead))} | ${found} | ${ms.toFixed(1)} | ${(ms / baseline).toFixed(1)} |`,
    );
  }
  console.log(["| request (100,000 messages) | round trips | rows read | shown | median ms | × GET /api |", "|---|---|---|---|---|---|", ...rows].join("\n"));
});
