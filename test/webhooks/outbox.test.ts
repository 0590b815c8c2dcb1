/** Nothing lost, nothing doubled: an outage of the receiver, a request killed before its dispatch, pruning. */
import { env } from "cloudflare:workers";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { createDb, schema } from "../../src/db/client";
import { runScheduledWork } from "../../src/jobs/cron";
import { OUTBOX_RETENTION_MS, dispatchPendingEvents, pruneOutbox } from "../../src/events/dispatch";
import { eventStatement } from "../../src/domain/kernel/outbox";
import { enqueueWebhookDelivery } from "../../src/webhooks/deliveries";
import { resendOverdueDeliveries, pruneDeliveryLog, LOG_RETENTION_MS } from "../../src/webhooks/sweep";
import { post } from "../support/http";
import { receiver } from "../support/receivers";
import { createWorld } from "../support/world";
import { shardOf } from "../support/databases";

const { eventOutbox, webhookDeliveries, webhookDeliveryAttempts } = schema;

describe("a receiver that is down for a while", () => {
  it("gets all 20 changes made meanwhile once it is back, each once", async () => {
    const world = await createWorld("Outage Co");
    const db = createDb(await shardOf(world.accountId));
    const target = receiver().stop();
    await post(`${world.base}/webhooks`, world.admin.key, { url: target.url, subscriptions: ["contact_created"] });
    const names = Array.from({ length: 20 }, (_, i) => `Customer ${i + 1}`);
    for (const name of names) expect((await post(`${world.base}/contacts`, world.admin.key, { name, email: `${name.replace(" ", ".")}@example.com` })).status).toBe(200);

    // every first attempt fails while the receiver is down
    const pendingFailed = async () =>
      (await db.batch([db.select().from(webhookDeliveries).where(eq(webhookDeliveries.accountId, world.accountId))]))[0].filter((d) => d.attempts >= 1);
    await vi.waitUntil(async () => (await pendingFailed()).length === 20, { timeout: 10_000, interval: 50 });
    expect(target.received).toHaveLength(0);

    target.start();
    // The clock jumps to the retries' due time: make them due now, and let the minute cron find them.
    await db.batch([db.update(webhookDeliveries).set({ nextAttemptAt: Date.now() - 1 }).where(eq(webhookDeliveries.accountId, world.accountId))]);
    expect(await resendOverdueDeliveries(db, env, Date.now(), 0)).toBeGreaterThanOrEqual(20);
    await target.waitFor(20);
    await new Promise((r) => setTimeout(r, 500)); // anything doubled would arrive now
    const received = target.payloads();
    expect(received).toHaveLength(20);
    expect(received.map((p) => p.name).sort()).toEqual([...names].sort());
    expect(new Set(target.received.map((r) => r.headers.get("webhook-id"))).size).toBe(20);
  });
});

describe("an event left in the outbox", () => {
  it("by a request killed before its dispatch is delivered by the next minute's cron", async () => {
    const world = await createWorld("Killed Co");
    const db = createDb(await shardOf(world.accountId));
    const target = receiver();
    await post(`${world.base}/webhooks`, world.admin.key, { url: target.url, subscriptions: ["contact_created"] });
    const contact = await post(`${world.base}/contacts`, world.admin.key, { name: "Kim", email: "kim@example.com" });
    await target.waitFor(1);
    // The same event again, written as a change writes it, but never dispatched (the Worker died).
    await db.batch([eventStatement(db, { accountId: world.accountId, eventName: "contact_created", subjectType: "Contact", subjectId: contact.body.payload.contact.id })]);
    await new Promise((r) => setTimeout(r, 200));
    expect(target.received).toHaveLength(1);
    await runScheduledWork(env);
    await target.waitFor(2);
    expect(target.payloads()[1]).toMatchObject({ event: "contact_created", name: "Kim" });
  });

  it("whose dispatch was lost after its claim is sent again after a while, and pruned once consumed", async () => {
    const world = await createWorld("Lost Co");
    const shard = await shardOf(world.accountId);
    const db = createDb(shard);
    const target = receiver();
    const hook = await post(`${world.base}/webhooks`, world.admin.key, { url: target.url, subscriptions: ["contact_created"] });
    const contact = await post(`${world.base}/contacts`, world.admin.key, { name: "Lee", email: "lee@example.com" });
    await target.waitFor(1);
    const at = Date.now() - 10 * 60 * 1000;
    // the event below happened 10 minutes ago, and its receivers are those of that moment: the webhook was there
    await shard.prepare("UPDATE webhooks SET created_at = ? WHERE id = ?").bind(at - 60_000, hook.body.payload.webhook.id).run();
    const [[row]] = await db.batch([
      db
        .insert(eventOutbox)
        .values({ accountId: world.accountId, eventName: "contact_created", subjectType: "Contact", subjectId: contact.body.payload.contact.id, data: {}, createdAt: at, dispatchedAt: at })
        .returning(),
    ]);
    expect(await dispatchPendingEvents(db, env.EVENTS)).toBe(0); // a request's dispatch leaves it to the cron
    expect(await dispatchPendingEvents(db, env.EVENTS, { includeStale: true })).toBe(1);
    await target.waitFor(2);
    await vi.waitUntil(async () => (await db.batch([db.select().from(eventOutbox).where(eq(eventOutbox.id, row.id))]))[0][0]?.consumedAt, { timeout: 5000 });
    expect(await pruneOutbox(db, Date.now())).toBe(0); // kept a few minutes
    expect(await pruneOutbox(db, Date.now() + OUTBOX_RETENTION_MS + 1)).toBeGreaterThanOrEqual(1);
    expect((await db.batch([db.select().from(eventOutbox).where(eq(eventOutbox.id, row.id))]))[0]).toEqual([]);
  });
});

describe("the delivery log", () => {
  it("is pruned 30 days after a delivery's last attempt", async () => {
    const world = await createWorld("Prune Co");
    const db = createDb(await shardOf(world.accountId));
    const target = receiver();
    const result = await enqueueWebhookDelivery(db, env, { accountId: world.accountId, url: target.url, payload: { hello: "world" }, eventName: "automation_event.test", secret: "s3cret" });
    await target.waitFor(1);
    await vi.waitUntil(async () => (await db.batch([db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, result!.deliveryId))]))[0][0]?.status === "delivered");
    // other files' deliveries share this database: the count may include theirs, so the row itself is checked
    await pruneDeliveryLog(db, Date.now() + LOG_RETENTION_MS - 60_000);
    expect((await db.batch([db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, result!.deliveryId))]))[0]).toHaveLength(1);
    expect(await pruneDeliveryLog(db, Date.now() + LOG_RETENTION_MS + 60_000)).toBeGreaterThanOrEqual(1);
    const [deliveries, attempts] = await db.batch([
      db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, result!.deliveryId)),
      db.select().from(webhookDeliveryAttempts).where(inArray(webhookDeliveryAttempts.deliveryId, [result!.deliveryId])),
    ]);
    expect([deliveries, attempts]).toEqual([[], []]);
  });
});

describe("enqueueWebhookDelivery (automation's send_webhook_event)", () => {
  it("delivers a payload to a URL, signed, once per dedupe key", async () => {
    const world = await createWorld("Automation Co");
    const db = createDb(await shardOf(world.accountId));
    const target = receiver();
    const input = { accountId: world.accountId, url: target.url, payload: { event: "automation_event.x" }, eventName: "automation_event.x", secret: "s3cret", dedupeKey: "rule:1:event:9" };
    const first = await enqueueWebhookDelivery(db, env, input);
    const again = await enqueueWebhookDelivery(db, env, input);
    expect(again).toEqual(first);
    await target.waitFor(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(target.received).toHaveLength(1);
    expect(target.received[0].headers.get("webhook-id")).toBe(first!.deliveryUuid);
    expect(target.received[0].headers.get("x-chatwoot-signature")).toMatch(/^sha256=/);
  });
});
