/**
 * Cost of bulk actions (each change through its route's domain function, as one by one): round trips,
 * rows read and written (the Server-Timing header) and wall time of a request over 25 conversations (the
 * most changed in the request) for a status change, labels, and assignee + team + priority together, and
 * over 25 contacts' labels; the same changes one by one for comparison; then 1,000 conversations and
 * 1,000 contacts, which go to the queue in slices of 25: the request's cost, and the time until the last
 * is changed (the contacts last, deleted, as that empties the account).
 */
import { it } from "vitest";
import { call } from "../test/support/http";
import { shardOf } from "../test/support/databases";
import { createWorld } from "../test/support/world";
import { addInboxMember, createInbox, createTeam } from "../test/support/fixtures";

const SIZE = 1_000;
const IN_REQUEST = 25;

function parseTiming(header: string | null) {
  const value = (name: string) => Number(new RegExp(`${name};desc="(\\d+)"`).exec(header ?? "")?.[1] ?? 0);
  return { roundTrips: value("db-round-trips"), rowsRead: value("db-rows-read"), rowsWritten: value("db-rows-written") };
}

/**
 * `count` contacts, each with a contact inbox and one open conversation (display ids 1..count), and the
 * counters the changes move. One contact each: a conversation's record shows its contact, whose view
 * reads that contact's conversations, so a single contact for all would make every load read them all.
 */
async function seed(accountId: number, inboxId: number, count: number) {
  const at = Date.now() - count * 1000;
  const shard = await shardOf(accountId);
  await shard.prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
     INSERT INTO contacts (account_id, name, email, blocked, resolved, created_at, updated_at)
     SELECT ?2, 'Bench ' || n, 'bench.' || ?2 || '.' || n || '@example.com', 0, 1, ?3, ?3 FROM seq`,
  )
    .bind(count, accountId, at)
    .run();
  await shard.prepare(
    `INSERT INTO contact_inboxes (account_id, contact_id, inbox_id, source_id, pubsub_token, created_at, updated_at)
     SELECT account_id, id, ?2, 'bench-' || id, 'bench-pubsub-' || id, created_at, created_at FROM contacts WHERE account_id = ?1`,
  )
    .bind(accountId, inboxId)
    .run();
  await shard.prepare(
    `INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, status, additional_attributes,
       custom_attributes, last_activity_at, waiting_since, created_at, updated_at)
     SELECT account_id, row_number() OVER (ORDER BY id), account_id || '-' || id, inbox_id, contact_id, id, 0, '{}', '{}',
       created_at, created_at, created_at, created_at FROM contact_inboxes WHERE account_id = ?1`,
  )
    .bind(accountId)
    .run();
  const keys = ["conversations.a.0.all", "conversations.a.0.unassigned", `conversations.i:${inboxId}.0.all`, `conversations.i:${inboxId}.0.unassigned`];
  await shard.batch(keys.map((key) => shard.prepare("INSERT INTO counters (account_id, key, value) VALUES (?, ?, ?)").bind(accountId, key, count)));
  const contacts = await shard.prepare("SELECT id FROM contacts WHERE account_id = ? ORDER BY id").bind(accountId).all<{ id: number }>();
  return contacts.results.map((r) => r.id);
}

it("records the cost of bulk actions over 1,000 conversations and 1,000 contacts", async () => {
  const world = await createWorld("Bulk bench");
  const inboxId = await createInbox(world.accountId);
  await addInboxMember(world.accountId, inboxId, world.agent.id);
  const teamId = await createTeam(world.accountId, "bench");
  const contactIds = await seed(world.accountId, inboxId, SIZE);
  const ids = Array.from({ length: IN_REQUEST }, (_, i) => i + 1);

  const cases: Array<[string, unknown]> = [
    ["25 conversations: status resolved", { type: "Conversation", ids, fields: { status: "resolved" } }],
    ["25 conversations: labels add 1", { type: "Conversation", ids, labels: { add: ["bulk"] } }],
    ["25 conversations: assignee + team + priority", { type: "Conversation", ids, fields: { assignee_id: world.agent.id, team_id: teamId, priority: "high" } }],
    ["25 contacts: labels add 1", { type: "Contact", ids: contactIds.slice(0, IN_REQUEST), labels: { add: ["bulk"] } }],
  ];
  const lines: string[] = [];
  for (const [name, body] of cases) {
    const started = performance.now();
    const res = await call("POST", `${world.base}/bulk_actions`, { key: world.admin.key, body });
    const ms = performance.now() - started;
    if (res.status !== 200 || res.body.payload.ids.length !== IN_REQUEST) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    const t = parseTiming(res.headers.get("server-timing"));
    lines.push(`| ${name} | ${t.roundTrips} | ${t.rowsRead} | ${t.rowsWritten} | ${ms.toFixed(0)} |`);
  }
  // the same changes one by one, on one conversation (contact) of the same account, for comparison
  const c = `${world.base}/conversations/1`;
  const single: Array<[string, string, unknown]> = [
    ["one by one: POST toggle_status", `${c}/toggle_status`, { status: "pending" }],
    ["one by one: POST labels", `${c}/labels`, { labels: ["bulk", "one"] }],
    ["one by one: POST assignments (team)", `${c}/assignments`, { team_id: null }],
    ["one by one: POST contact labels", `${world.base}/contacts/${contactIds[0]}/labels`, { labels: ["bulk", "one"] }],
  ];
  for (const [name, path, body] of single) {
    const started = performance.now();
    const res = await call("POST", path, { key: world.admin.key, body });
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    const t = parseTiming(res.headers.get("server-timing"));
    lines.push(`| ${name} | ${t.roundTrips} | ${t.rowsRead} | ${t.rowsWritten} | ${ms.toFixed(0)} |`);
  }
  // the whole selections, on the queue: the request, then the wait until the last one is changed
  const queued = async (name: string, body: unknown, done: () => Promise<boolean>) => {
    const started = performance.now();
    const res = await call("POST", `${world.base}/bulk_actions`, { key: world.admin.key, body });
    const ms = performance.now() - started;
    if (res.status !== 200 || res.body.payload.queued !== SIZE) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    const t = parseTiming(res.headers.get("server-timing"));
    while (!(await done())) {
      if (performance.now() - started > 600_000) throw new Error(`${name}: not done after 10 minutes`);
      await new Promise((r) => setTimeout(r, 500));
    }
    lines.push(`| ${name} (queued) | ${t.roundTrips} | ${t.rowsRead} | ${t.rowsWritten} | ${ms.toFixed(0)}; all done after ${(performance.now() - started).toFixed(0)} |`);
  };
  const shard = await shardOf(world.accountId);
  const count = async (sql: string) => (await shard.prepare(sql).bind(world.accountId).first<{ n: number }>())!.n;
  await queued("1,000 conversations: status resolved", { type: "Conversation", ids: Array.from({ length: SIZE }, (_, i) => i + 1), fields: { status: "resolved" } }, async () =>
    (await count("SELECT count(*) AS n FROM conversations WHERE account_id = ? AND status = 1")) === SIZE,
  );
  // last, as it empties the account: each contact goes with its conversation, as DELETE /contacts/{id} does it
  await queued("1,000 contacts: delete (each with its conversation)", { type: "Contact", ids: contactIds, action_name: "delete" }, async () =>
    (await count("SELECT count(*) AS n FROM contacts WHERE account_id = ?")) === 0,
  );
  console.log(["| bulk action | round trips | rows read | rows written | ms |", "|---|---|---|---|---|", ...lines].join("\n"));
});
