/**
 * Cost of the automation engine for one event at 1, 10 and 50 active rules for that event: round trips,
 * rows read and time, measured on a metered D1 around `runAutomationForEvent`.
 * - "no match": every rule is evaluated and none acts (the engine's own cost);
 * - "one match": the last rule (highest id) matches and adds a label (plus what that action costs).
 */
import { env } from "cloudflare:workers";
import { it } from "vitest";
import { createDb } from "../src/db/client";
import { QueryMeter, meterD1 } from "../src/db/metering";
import { runAutomationForEvent } from "../src/jobs/automation";
import { call } from "../test/support/http";
import { createContact, createInbox } from "../test/support/fixtures";
import { shardOf } from "../test/support/databases";
import { createWorld } from "../test/support/world";

const RUNS = 9;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(accountId: number, eventId: number) {
  const meter = new QueryMeter();
  const db = createDb(meterD1(await shardOf(accountId), meter));
  const started = performance.now();
  await runAutomationForEvent(db, env, { accountId, eventId });
  return { ms: performance.now() - started, roundTrips: meter.roundTrips, rowsRead: meter.rowsRead, rowsWritten: meter.rowsWritten };
}

it("records the engine's cost per event at 1, 10 and 50 rules", async () => {
  const lines: string[] = [];
  for (const rules of [1, 10, 50]) {
    const world = await createWorld(`Automation bench ${rules}`);
    const shard = await shardOf(world.accountId);
    const inboxId = await createInbox(world.accountId);
    const contactId = await createContact(world.accountId, { email: "casey@bigcorp.com" });
    await call("POST", `${world.base}/labels`, { key: world.admin.key, body: { title: "vip" } });
    const rule = (matching: boolean) => ({
      name: "Bench rule",
      event_name: "conversation_updated",
      conditions: [
        { attribute_key: "email", filter_operator: "contains", values: [matching ? "@bigcorp.com" : "@nomatch.org"], query_operator: "AND" },
        { attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: "OR" },
        { attribute_key: "labels", filter_operator: "equal_to", values: ["vip"], query_operator: "AND" },
        { attribute_key: "priority", filter_operator: "attribute_changed", values: { from: [], to: [matching ? "urgent" : "low"] } },
      ],
      actions: [{ action_name: "add_label", action_params: ["vip"] }],
    });
    for (let i = 0; i < rules; i++) {
      const res = await call("POST", `${world.base}/automation_rules`, { key: world.admin.key, body: rule(false) });
      if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    }
    const conversation = (await call("POST", `${world.base}/conversations`, { key: world.admin.key, body: { inbox_id: inboxId, contact_id: contactId } })).body.id;

    const events: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await call("POST", `${world.base}/conversations/${conversation}/toggle_priority`, { key: world.admin.key, body: { priority: i % 2 ? "low" : "urgent" } });
      const row = await shard.prepare("SELECT max(id) AS id FROM event_outbox WHERE account_id = ? AND event_name = 'conversation_updated'").bind(world.accountId).first<{ id: number }>();
      events.push(row!.id);
    }
    const none = [];
    for (const id of events) none.push(await measure(world.accountId, id));
    lines.push(`| ${rules} | no match | ${median(none.map((s) => s.roundTrips))} | ${median(none.map((s) => s.rowsRead))} | ${median(none.map((s) => s.rowsWritten))} | ${median(none.map((s) => s.ms)).toFixed(1)} |`);

    // make the newest rule match the "urgent" changes, and measure fresh events that it acts on
    const list = (await call("GET", `${world.base}/automation_rules`, { key: world.admin.key })).body.payload;
    await call("PATCH", `${world.base}/automation_rules/${list.at(-1).id}`, { key: world.admin.key, body: { conditions: rule(true).conditions } });
    const acting = [];
    for (let i = 0; i < RUNS; i++) {
      await call("POST", `${world.base}/conversations/${conversation}/toggle_priority`, { key: world.admin.key, body: { priority: "low" } });
      await call("POST", `${world.base}/conversations/${conversation}/labels`, { key: world.admin.key, body: { labels: [] } });
      await call("POST", `${world.base}/conversations/${conversation}/toggle_priority`, { key: world.admin.key, body: { priority: "urgent" } });
      const row = await shard.prepare("SELECT max(id) AS id FROM event_outbox WHERE account_id = ? AND event_name = 'conversation_updated' AND caused_by_automation = 0").bind(world.accountId).first<{ id: number }>();
      // the queue consumer may have run it already; measure on a copy of the event so the run is fresh
      const copy = await shard.prepare("INSERT INTO event_outbox (account_id, event_name, subject_type, subject_id, data, caused_by_automation, created_at, dispatched_at) SELECT account_id, event_name, subject_type, subject_id, data, 0, created_at, created_at FROM event_outbox WHERE id = ? RETURNING id").bind(row!.id).first<{ id: number }>();
      await shard.prepare("DELETE FROM taggings WHERE taggable_type = 'Conversation' AND account_id = ?").bind(world.accountId).run();
      acting.push(await measure(world.accountId, copy!.id));
    }
    lines.push(`| ${rules} | one match (add_label) | ${median(acting.map((s) => s.roundTrips))} | ${median(acting.map((s) => s.rowsRead))} | ${median(acting.map((s) => s.rowsWritten))} | ${median(acting.map((s) => s.ms)).toFixed(1)} |`);
  }
  console.log(["| active rules | case | round trips | rows read | rows written | median ms |", "|---|---|---|---|---|---|", ...lines].join("\n"));
});
