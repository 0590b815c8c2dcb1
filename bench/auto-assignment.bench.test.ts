/**
 * Auto-assignment under load: 1,000 conversations arriving at 50 a second in one inbox with 10 online
 * member agents (each live on the account's feed, sending update_presence as Chatwoot's apps do). Records
 * how evenly they were spread (max ÷ mean of conversations per agent), how long the last one waited, and
 * what auto-assignment adds per conversation: round trips, rows read and written, measured on a metered
 * D1 around the job's function for conversations created while the inbox's flag was off.
 */
import { env } from "cloudflare:workers";
import { it } from "vitest";
import { createDb } from "../src/db/client";
import { QueryMeter, meterD1 } from "../src/db/metering";
import { autoAssignConversation } from "../src/domain/assignment/auto-assignment";
import { jobScope } from "../src/jobs/scope";
import { shardOf } from "../test/support/databases";
import { get, patch } from "../test/support/http";
import { addInboxMember } from "../test/support/fixtures";
import { addToAccount, createUser } from "../test/support/world";
import { visitorConversation, widgetWorld } from "../test/public/widget-support";
import { type Listener, settle, subscribe } from "../test/feed/cable-support";

const AGENTS = 10;
const CONVERSATIONS = 1000;
const PER_SECOND = 50;
const IN_FLIGHT = 8;
const COST_SAMPLES = 21;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

it("spreads 1,000 conversations arriving at 50 a second over 10 online agents, and records the cost", async () => {
  const w = await widgetWorld("Auto-assignment bench");
  const agents = [w.agent];
  for (let i = 1; i < AGENTS; i++) {
    const agent = await createUser(w.platformKey, `Bench agent ${i}`);
    await addToAccount(w.platformKey, w.accountId, agent.id, "agent");
    await addInboxMember(w.accountId, w.inbox.id, agent.id);
    agents.push(agent);
  }
  const listeners: Listener[] = [];
  for (const agent of agents) listeners.push(await subscribe(agent, w.accountId));
  const heartbeat = setInterval(() => listeners.forEach((l) => l.perform("update_presence")), 3000);

  // paced at 50 a second, with at most IN_FLIGHT creations at a time: a machine that cannot keep up
  // falls behind the pace rather than sending a burst
  const started = Date.now();
  const inFlight = new Set<Promise<unknown>>();
  for (let i = 0; i < CONVERSATIONS; i++) {
    const due = started + (i * 1000) / PER_SECOND;
    if (due > Date.now()) await settle(due - Date.now());
    while (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
    const arrival: Promise<unknown> = visitorConversation(w.inbox).finally(() => inFlight.delete(arrival));
    inFlight.add(arrival);
    if ((i + 1) % 200 === 0) console.log(`  ${i + 1} conversations sent (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  await Promise.all(inFlight);
  const sentIn = (Date.now() - started) / 1000;

  const shard = await shardOf(w.accountId);
  const unassigned = async () =>
    (await shard.prepare("SELECT count(*) AS n FROM conversations WHERE inbox_id = ? AND assignee_id IS NULL").bind(w.inbox.id).first<{ n: number }>())!.n;
  for (let left = await unassigned(); left > 0; left = await unassigned()) {
    if (Date.now() - started > 300_000) throw new Error(`${left} conversations still unassigned`);
    console.log(`  waiting for ${left} assignments`);
    await settle(1000);
  }
  const doneIn = (Date.now() - started) / 1000;

  const { results } = await shard.prepare("SELECT assignee_id AS id, count(*) AS n FROM conversations WHERE inbox_id = ? GROUP BY assignee_id").bind(w.inbox.id).all<{ id: number; n: number }>();
  const counts = results.map((r) => r.n);
  const mean = CONVERSATIONS / AGENTS;
  console.log(`\n| agents | conversations | sent in | all assigned after | per agent (min–max) | max ÷ mean |`);
  console.log(`|---|---|---|---|---|---|`);
  console.log(`| ${results.length} | ${CONVERSATIONS} | ${sentIn.toFixed(1)} s | ${doneIn.toFixed(1)} s | ${Math.min(...counts)}–${Math.max(...counts)} | ${(Math.max(...counts) / mean).toFixed(3)} |`);

  // the job's own cost: conversations made while the flag was off, then offered one by one on a metered D1
  // (the agents stay online throughout, so no arrival hands them out first)
  await patch(`${w.base}/inboxes/${w.inbox.id}`, w.admin.key, { enable_auto_assignment: false });
  const waiting: number[] = [];
  for (let i = 0; i < COST_SAMPLES; i++) {
    const c = await visitorConversation(w.inbox);
    const row = await shard.prepare("SELECT id FROM conversations WHERE account_id = ? AND display_id = ?").bind(w.accountId, c.displayId).first<{ id: number }>();
    waiting.push(row!.id);
  }
  await patch(`${w.base}/inboxes/${w.inbox.id}`, w.admin.key, { enable_auto_assignment: true });
  const samples = [];
  for (const id of waiting) {
    const meter = new QueryMeter();
    const begun = performance.now();
    const chosen = await autoAssignConversation(jobScope(createDb(meterD1(shard, meter)), env), w.accountId, id);
    // (one an agent's return handed out first is not a sample of this path)
    if (chosen === null) continue;
    samples.push({ ms: performance.now() - begun, roundTrips: meter.roundTrips, rowsRead: meter.rowsRead, rowsWritten: meter.rowsWritten });
  }
  const baseline: number[] = [];
  for (let i = 0; i < COST_SAMPLES; i++) {
    const begun = performance.now();
    await get("/api");
    baseline.push(performance.now() - begun);
  }
  clearInterval(heartbeat);
  listeners.forEach((l) => l.close());
  if (samples.length < COST_SAMPLES / 2) throw new Error(`only ${samples.length} of ${COST_SAMPLES} conversations were assigned by the measured call`);
  const ms = median(samples.map((s) => s.ms));
  console.log(`\n| per conversation | round trips | rows read | rows written | median ms | × GET /api |`);
  console.log(`|---|---|---|---|---|---|`);
  console.log(
    `| auto-assignment job | ${median(samples.map((s) => s.roundTrips))} | ${median(samples.map((s) => s.rowsRead))} | ${median(samples.map((s) => s.rowsWritten))} | ${ms.toFixed(1)} | ${(ms / median(baseline)).toFixed(1)} |`,
  );
});
