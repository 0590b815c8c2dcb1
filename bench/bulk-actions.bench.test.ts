/**
 * Cost of one bulk action over 1,000 conversations (each change through its route's domain function, as
 * one by one): round trips, rows read and written (the Server-Timing header) and wall time, for a status
 * change, labels, and assignee + team + priority together; then labels on 1,000 contacts.
 */
import { env } from "cloudflare:workers";
import { it } from "vitest";
import { call } from "../test/support/http";
import { createWorld } from "../test/support/world";
import { addInboxMember, createContact, createContactInbox, createInbox, createTeam } from "../test/support/fixtures";

const SIZE = 1_000;

function parseTiming(header: string | null) {
  const value = (name: string) => Number(new RegExp(`${name};desc="(\\d+)"`).exec(header ?? "")?.[1] ?? 0);
  return { roundTrips: value("db-round-trips"), rowsRead: value("db-rows-read"), rowsWritten: value("db-rows-written") };
}

/** `count` open conversations (display ids 1..count) and the counters the changes move. */
async function seed(accountId: number, inboxId: number, contactId: number, contactInboxId: number, count: number) {
  const at = Date.now() - count * 1000;
  await env.DB.prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
     INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, status, additional_attributes,
       custom_attributes, last_activity_at, waiting_since, created_at, updated_at)
     SELECT ?2, n, ?2 || '-' || n, ?3, ?4, ?5, 0, '{}', '{}', ?6 + n * 1000, ?6 + n * 1000, ?6 + n * 1000, ?6 + n * 1000 FROM seq`,
  )
    .bind(count, accountId, inboxId, contactId, contactInboxId, at)
    .run();
  const keys = ["conversations.a.0.all", "conversations.a.0.unassigned", `conversations.i:${inboxId}.0.all`, `conversations.i:${inboxId}.0.unassigned`];
  await env.DB.batch(keys.map((key) => env.DB.prepare("INSERT INTO counters (account_id, key, value) VALUES (?, ?, ?)").bind(accountId, key, count)));
}

it("records the cost of bulk actions over 1,000 conversations and 1,000 contacts", async () => {
  const world = await createWorld("Bulk bench");
  const inboxId = await createInbox(world.accountId);
  await addInboxMember(world.accountId, inboxId, world.agent.id);
  const contactId = await createContact(world.accountId);
  const { id: contactInboxId } = await createContactInbox(world.accountId, contactId, inboxId);
  const teamId = await createTeam(world.accountId, "bench");
  await seed(world.accountId, inboxId, contactId, contactInboxId, SIZE);
  const ids = Array.from({ length: SIZE }, (_, i) => i + 1);
  const contactIds: number[] = [];
  for (let i = 0; i < SIZE; i++) contactIds.push(await createContact(world.accountId, { name: `Bench ${i}` }));

  const cases: Array<[string, unknown]> = [
    ["1,000 conversations: status resolved", { type: "Conversation", ids, fields: { status: "resolved" } }],
    ["1,000 conversations: labels add 1", { type: "Conversation", ids, labels: { add: ["bulk"] } }],
    ["1,000 conversations: assignee + team + priority", { type: "Conversation", ids, fields: { assignee_id: world.agent.id, team_id: teamId, priority: "high" } }],
    ["1,000 contacts: labels add 1", { type: "Contact", ids: contactIds, labels: { add: ["bulk"] } }],
  ];
  const lines: string[] = [];
  for (const [name, body] of cases) {
    const started = performance.now();
    const res = await call("POST", `${world.base}/bulk_actions`, { key: world.admin.key, body });
    const ms = performance.now() - started;
    if (res.status !== 200 || res.body.payload.ids.length !== SIZE) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    const t = parseTiming(res.headers.get("server-timing"));
    lines.push(`| ${name} | ${t.roundTrips} | ${t.rowsRead} | ${t.rowsWritten} | ${ms.toFixed(0)} |`);
  }
  console.log(["| bulk action | round trips | rows read | rows written | ms |", "|---|---|---|---|---|", ...lines].join("\n"));
});
