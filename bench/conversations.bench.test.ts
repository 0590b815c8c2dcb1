/**
 * Cost of create-message, the conversation list and meta at 1,000 and 100,000 conversations, beside
 * GET /api, measured in one run. Round trips and rows come from the Server-Timing header.
 */
import { env } from "cloudflare:workers";
import { it } from "vitest";
import { call } from "../test/support/http";
import { createWorld } from "../test/support/world";
import { createContact, createContactInbox, createInbox } from "../test/support/fixtures";

const RUNS = 15;

type Sample = { ms: number; roundTrips: number; rowsRead: number; rowsWritten: number };

function parseTiming(header: string | null) {
  const value = (name: string) => Number(new RegExp(`${name};desc="(\\d+)"`).exec(header ?? "")?.[1] ?? 0);
  return { roundTrips: value("db-round-trips"), rowsRead: value("db-rows-read"), rowsWritten: value("db-rows-written") };
}

async function measure(method: string, path: string, key: string | null, body?: unknown): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const res = await call(method, path, { key, body });
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    samples.push({ ms, ...parseTiming(res.headers.get("server-timing")) });
  }
  return samples;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Seeds `count` open conversations (recursive CTE: a handful of bound parameters) and their counter. */
async function seed(accountId: number, inboxId: number, contactId: number, contactInboxId: number, count: number) {
  const at = Date.now() - count * 1000;
  await env.DB.prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
     INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, status, last_activity_at, waiting_since, created_at, updated_at)
     SELECT ?2, 1000000 + n, ?2 || '-' || n, ?3, ?4, ?5, 0, ?6 + n * 1000, ?6 + n * 1000, ?6 + n * 1000, ?6 + n * 1000 FROM seq`,
  )
    .bind(count, accountId, inboxId, contactId, contactInboxId, at)
    .run();
  const keys = ["conversations.a.0.all", "conversations.a.0.unassigned", `conversations.i:${inboxId}.0.all`, `conversations.i:${inboxId}.0.unassigned`];
  await env.DB.batch(
    keys.map((key) =>
      env.DB.prepare("INSERT INTO counters (account_id, key, value) VALUES (?, ?, ?) ON CONFLICT (account_id, key) DO UPDATE SET value = value + excluded.value").bind(accountId, key, count),
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
    await seed(world.accountId, inboxId, contactId, contactInboxId, size);
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
