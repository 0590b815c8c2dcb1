/**
 * Cost of create-message, the conversation list and meta at 1,000 and 100,000 conversations, beside
 * GET /api, measured in one run; then search (`q`), `labels[]`, each key of `/conversations/filter` and
 * the last page by `page` and by `cursor`, with what each answer found (all_count, rows, has_more).
 * Round trips and rows come from the Server-Timing header.
 */
import { it } from "vitest";
import { call } from "../test/support/http";
import { shardOf } from "../test/support/databases";
import { createWorld } from "../test/support/world";
import { createContact, createContactInbox, createInbox, createTeam } from "../test/support/fixtures";

const RUNS = 15;

type Sample = { ms: number; roundTrips: number; rowsRead: number; rowsWritten: number };

function parseTiming(header: string | null) {
  const value = (name: string) => Number(new RegExp(`${name};desc="(\\d+)"`).exec(header ?? "")?.[1] ?? 0);
  return { roundTrips: value("db-round-trips"), rowsRead: value("db-rows-read"), rowsWritten: value("db-rows-written") };
}

async function measure(method: string, path: string, key: string | null, body?: unknown, runs = RUNS): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const res = await call(method, path, { key, body });
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    samples.push({ ms, ...parseTiming(res.headers.get("server-timing")) });
  }
  return samples;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Seeds `count` open conversations (recursive CTE: a handful of bound parameters) and their counter. Every
 * conversation has one incoming message ("Order <n> shipped to Lisbon"; one in 1,000 goes to "Zanzibar"),
 * a priority, a browser language, a referer and a mail subject; one in 100 has the label `vip`, one in 7 a
 * team, one in 3 the custom attribute plan=pro. The oldest conversations are the ones that match rarely.
 */
async function seed(accountId: number, inboxId: number, contactId: number, contactInboxId: number, count: number, teamId: number) {
  const at = Date.now() - count * 1000;
  const shard = await shardOf(accountId);
  await shard.prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
     INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, status, priority, team_id,
       additional_attributes, custom_attributes, last_activity_at, waiting_since, created_at, updated_at)
     SELECT ?2, 1000000 + n, ?2 || '-' || n, ?3, ?4, ?5, 0, n % 4, CASE WHEN n % 7 = 0 THEN ?7 END,
       json_object('browser_language', CASE n % 2 WHEN 0 THEN 'en' ELSE 'fr' END, 'conversation_language', 'en',
         'referer', 'https://shop.example/p/' || n, 'mail_subject', 'Order ' || n),
       CASE WHEN n % 3 = 0 THEN json_object('plan', 'pro') ELSE '{}' END,
       ?6 + n * 1000, ?6 + n * 1000, ?6 + n * 1000, ?6 + n * 1000 FROM seq`,
  )
    .bind(count, accountId, inboxId, contactId, contactInboxId, at, teamId)
    .run();
  await shard.prepare(
    `INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, processed_message_content, sender_type, sender_id, created_at, updated_at)
     SELECT account_id, inbox_id, id, 0, 'Order ' || display_id || ' shipped to ' || CASE WHEN display_id % 1000 = 7 THEN 'Zanzibar' ELSE 'Lisbon' END,
       NULL, 'Contact', contact_id, created_at, created_at FROM conversations WHERE account_id = ?1`,
  )
    .bind(accountId)
    .run();
  await shard.prepare(
    `INSERT INTO taggings (account_id, taggable_type, taggable_id, tag, created_at)
     SELECT account_id, 'Conversation', id, 'vip', created_at FROM conversations WHERE account_id = ?1 AND display_id % 100 = 0`,
  )
    .bind(accountId)
    .run();
  // the message search index, where this version of the schema has one (the bench also measures the version before it)
  const fts = await shard.prepare("SELECT 1 FROM sqlite_master WHERE name = 'message_search'").first();
  if (fts) {
    await shard.prepare(
      `INSERT INTO message_search (rowid, account_key, conversation_id, content)
       SELECT id, '<a' || account_id || '>', conversation_id, content FROM messages WHERE account_id = ?1`,
    )
      .bind(accountId)
      .run();
  }
  const keys = ["conversations.a.0.all", "conversations.a.0.unassigned", `conversations.i:${inboxId}.0.all`, `conversations.i:${inboxId}.0.unassigned`];
  await shard.batch(
    keys.map((key) =>
      shard.prepare("INSERT INTO counters (account_id, key, value) VALUES (?, ?, ?) ON CONFLICT (account_id, key) DO UPDATE SET value = value + excluded.value").bind(accountId, key, count),
    ),
  );
}

it("records the cost of the conversation endpoints", async () => {
  const lines: string[] = [];
  for (const size of [1_000, 100_000]) {
    const world = await createWorld(`Bench ${size}`);
    const inboxId = await createInbox(world.accountId);
    const contactId = await createContact(world.accountId);
    const { id: contactInboxId } = await createContactInbox(world.accountId, contactId, inboxId);
    const teamId = await createTeam(world.accountId, "bench");
    await seed(world.accountId, inboxId, contactId, contactInboxId, size, teamId);
    const target = (await call("GET", `${world.base}/conversations`, { key: world.admin.key })).body.data.payload[0].id;

    const cases: Array<[string, Sample[]]> = [
      ["GET /api (baseline)", await measure("GET", "/api", null)],
      ["POST messages (create)", await measure("POST", `${world.base}/conversations/${target}/messages`, world.admin.key, { content: "Benchmark reply" })],
      ["GET conversations (list)", await measure("GET", `${world.base}/conversations`, world.admin.key)],
      ["GET conversations/meta", await measure("GET", `${world.base}/conversations/meta`, world.admin.key)],
    ];
    for (const [name, samples] of cases) {
      lines.push(
        `| ${size.toLocaleString("en")} | ${name} | ${median(samples.map((s) => s.roundTrips))} | ${median(samples.map((s) => s.rowsRead))} | ${median(samples.map((s) => s.rowsWritten))} | ${median(samples.map((s) => s.ms)).toFixed(1)} |`,
      );
    }
  }
  console.log(["| conversations | endpoint | round trips | rows read | rows written | median ms |", "|---|---|---|---|---|---|", ...lines].join("\n"));
});

const cond = (attribute_key: string, filter_operator: string, values: unknown[]) => ({ attribute_key, filter_operator, values });

/** What an answer found: all_count, the rows on the page, and has_more when the answer says it. */
function found(body: { meta?: Record<string, unknown>; data?: { meta: Record<string, unknown>; payload: unknown[] }; payload?: unknown[] }) {
  const meta = body.data?.meta ?? body.meta ?? {};
  const rows = (body.data?.payload ?? body.payload ?? []).length;
  return `${meta.all_count} / ${rows}${meta.has_more === undefined ? "" : ` / ${meta.has_more}`}`;
}

it("records the cost of search, labels, each filter key and the last page", async () => {
  const lines: string[] = [];
  for (const size of [1_000, 100_000]) {
    const world = await createWorld(`Search bench ${size}`);
    const inboxId = await createInbox(world.accountId);
    const contactId = await createContact(world.accountId);
    const { id: contactInboxId } = await createContactInbox(world.accountId, contactId, inboxId);
    const teamId = await createTeam(world.accountId, "bench");
    await seed(world.accountId, inboxId, contactId, contactInboxId, size, teamId);
    await (await shardOf(world.accountId)).prepare("UPDATE conversations SET assignee_id = ?1 WHERE account_id = ?2 AND display_id % 10 = 0").bind(world.admin.id, world.accountId).run();
    const lastPage = Math.ceil(size / 25);
    const list = `${world.base}/conversations`;
    const beforeLast = (await call("GET", `${list}?page=${lastPage - 1}`, { key: world.admin.key })).body.data.meta.next_cursor as string | undefined;
    const oldest = 1_000_001;
    const filters: Array<[string, unknown[]]> = [
      ["status = open", [cond("status", "equal_to", ["open"])]],
      ["priority = urgent", [cond("priority", "equal_to", ["urgent"])]],
      ["assignee_id = admin", [cond("assignee_id", "equal_to", [world.admin.id])]],
      ["inbox_id = inbox", [cond("inbox_id", "equal_to", [inboxId])]],
      ["team_id = team", [cond("team_id", "equal_to", [teamId])]],
      ["campaign_id = 1", [cond("campaign_id", "equal_to", [1])]],
      ["labels = vip", [cond("labels", "equal_to", ["vip"])]],
      ["display_id = oldest", [cond("display_id", "equal_to", [oldest])]],
      ["browser_language = en", [cond("browser_language", "equal_to", ["en"])]],
      ["conversation_language = de", [cond("conversation_language", "equal_to", ["de"])]],
      ["referer = oldest", [cond("referer", "equal_to", [`https://shop.example/p/1`])]],
      ["mail_subject = oldest", [cond("mail_subject", "equal_to", ["Order 1"])]],
      ["created_at < oldest + 10 s", [cond("created_at", "is_less_than", [Math.floor((Date.now() - size * 1000) / 1000) + 10])]],
      ["last_activity_at days_before 1", [cond("last_activity_at", "days_before", [1])]],
      ["referer contains /p/1 (scan)", [cond("referer", "contains", ["/p/1"])]],
      ["custom plan = pro (scan)", [{ ...cond("plan", "equal_to", ["pro"]), custom_attribute_type: "conversation_attribute" }]],
    ];
    await call("POST", `${world.base}/custom_attribute_definitions`, {
      key: world.admin.key,
      body: { attribute_display_name: "Plan", attribute_key: "plan", attribute_display_type: "text", attribute_model: "conversation_attribute" },
    });
    const cases: Array<[string, string, string, unknown?]> = [
      ["list page 1", "GET", list],
      [`list page ${lastPage} by page`, "GET", `${list}?page=${lastPage}`],
      ...(beforeLast ? ([[`list page ${lastPage} by cursor`, "GET", `${list}?cursor=${beforeLast}`]] as Array<[string, string, string]>) : []),
      ["q=zanzibar (1 in 1,000)", "GET", `${list}?q=zanzibar`],
      ["q=lisbon (nearly all)", "GET", `${list}?q=lisbon`],
      ["q=li (2 characters)", "GET", `${list}?q=li`],
      ["meta q=zanzibar", "GET", `${list}/meta?q=zanzibar`],
      ["labels[]=vip (1 in 100)", "GET", `${list}?labels[]=vip`],
      ...filters.map(([name, payload]) => [`filter ${name}`, "POST", `${list}/filter`, { payload }] as [string, string, string, unknown]),
    ];
    for (const [name, method, path, body] of cases) {
      const answer = await call(method, path, { key: world.admin.key, body });
      const samples = await measure(method, path, world.admin.key, body, 5);
      lines.push(
        `| ${size.toLocaleString("en")} | ${name} | ${median(samples.map((s) => s.roundTrips))} | ${median(samples.map((s) => s.rowsRead))} | ${found(answer.body)} | ${median(samples.map((s) => s.ms)).toFixed(1)} |`,
      );
    }
  }
  console.log(["| conversations | request | round trips | rows read | all_count / rows / has_more | median ms |", "|---|---|---|---|---|---|", ...lines].join("\n"));
});
