/** Deliveries: retries over 3 days, one delivery id, Retry-After, 410, disabling, duplicates, and the payloads. */
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb, schema } from "../../src/db/client";
import { hmacSha256Hex } from "../../src/domain/identity/keys";
import { type DeliveryMessage, type DeliveryRow } from "../../src/webhooks/deliveries";
import { attemptDelivery } from "../../src/jobs/deliveries";
import { fanOut } from "../../src/jobs/fan-out";
import { DAY, HOUR, MAX_QUEUE_DELAY_S, RETRY_WINDOW_MS } from "../../src/webhooks/schedule";
import { createContact, createContactInbox } from "../support/fixtures";
import { get, patch, post } from "../support/http";
import { type Received, type Receiver, receiver } from "../support/receivers";
import { createWorld } from "../support/world";
import { shardOf } from "../support/databases";

const world = await createWorld("Hooks Co");
/** This file's account's shard, where its webhooks and deliveries are. */
const db = createDb(await shardOf(world.accountId));
const { webhookDeliveries, webhookDeliveryAttempts } = schema;

async function verifySignature(secret: string, request: Received) {
  const timestamp = request.headers.get("x-chatwoot-timestamp")!;
  expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
  expect(request.headers.get("x-chatwoot-signature")).toBe(`sha256=${await hmacSha256Hex(secret, `${timestamp}.${request.body}`)}`);
}

async function webhookFor(target: Receiver, subscriptions = ["inbox_created"]) {
  const res = await post(`${world.base}/webhooks`, world.admin.key, { url: target.url, subscriptions });
  expect(res.status).toBe(200);
  return res.body.payload.webhook;
}

/** A delivery due at `at`, as fan-out leaves it (inserted here so that no queue message races the test). */
async function pendingDelivery(target: Receiver, at = Date.now(), webhookId?: number) {
  const hookId = webhookId ?? (await webhookFor(target)).id;
  const [rows] = await db.batch([
    db
      .insert(webhookDeliveries)
      .values({
        accountId: world.accountId,
        targetType: "webhook",
        targetId: hookId,
        eventId: 0,
        eventName: "inbox_created",
        deliveryUuid: crypto.randomUUID(),
        body: '{"event":"inbox_created"}',
        nextAttemptAt: at,
        retryUntil: at + RETRY_WINDOW_MS,
        createdAt: at,
        updatedAt: at,
      })
      .returning(),
  ]);
  return { delivery: rows[0], webhookId: hookId };
}

const firstMessage = (d: DeliveryRow): DeliveryMessage => ({ kind: "delivery", deliveryId: d.id, accountId: d.accountId, attempt: 0 });
const deliveryRow = async (id: number) => (await db.batch([db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id))]))[0][0];
const attemptRows = async (id: number) =>
  (await db.batch([db.select().from(webhookDeliveryAttempts).where(eq(webhookDeliveryAttempts.deliveryId, id)).orderBy(webhookDeliveryAttempts.id)]))[0];
const webhookView = async (id: number) => (await get(`${world.base}/webhooks`, world.admin.key)).body.payload.webhooks.find((w: { id: number }) => w.id === id);

/** Plays a delivery as the queue would, jumping the clock to each due time; answers the attempt times and hop delays. */
async function playOut(delivery: DeliveryRow, start: number) {
  let message = firstMessage(delivery);
  let at = start;
  const times: number[] = [];
  const delays: number[] = [];
  for (let i = 0; i < 100; i++) {
    times.push(at);
    const step = await attemptDelivery(db, env, message, { at });
    if (step.done) break;
    delays.push(step.delaySeconds);
    at = (await deliveryRow(delivery.id)).nextAttemptAt!;
    message = step.next;
  }
  return { times, delays };
}

describe("retries", () => {
  it("back off exponentially with jitter for 3 days, keep one delivery id, and leave a dead delivery failed in the log", async () => {
    const target = receiver().answer(500);
    const start = Date.now();
    const { delivery, webhookId } = await pendingDelivery(target, start);
    const { times, delays } = await playOut(delivery, start);

    const gaps = times.slice(1).map((t, i) => t - times[i]);
    expect(gaps[0]).toBeGreaterThanOrEqual(24_000); // 30 s ± 20 %
    expect(gaps[0]).toBeLessThanOrEqual(36_000);
    for (let i = 1; i < 5; i++) expect(gaps[i]).toBeGreaterThan(gaps[i - 1] * 2); // growing
    expect(Math.max(...gaps)).toBeLessThanOrEqual(12 * HOUR * 1.2);
    expect(times.at(-1)! - start).toBe(RETRY_WINDOW_MS); // the last attempt ends the 3 days
    expect(RETRY_WINDOW_MS).toBeGreaterThanOrEqual(3 * DAY);
    expect(Math.max(...delays)).toBeLessThanOrEqual(MAX_QUEUE_DELAY_S); // longer waits are chained hops

    expect(target.received).toHaveLength(times.length);
    expect(new Set(target.received.map((r) => r.headers.get("webhook-id")))).toEqual(new Set([delivery.deliveryUuid]));
    expect(new Set(target.received.map((r) => r.headers.get("x-chatwoot-delivery")))).toEqual(new Set([delivery.deliveryUuid]));
    expect(await deliveryRow(delivery.id)).toMatchObject({ status: "failed", attempts: times.length, lastStatusCode: 500, nextAttemptAt: null });
    const attempts = await attemptRows(delivery.id);
    expect(attempts.map((a) => a.outcome)).toEqual([...Array(times.length - 1).fill("retry"), "failed"]);
    // a dead delivery is not attempted again
    expect(await attemptDelivery(db, env, { ...firstMessage(delivery), attempt: times.length }, { at: times.at(-1)! + DAY })).toEqual({ done: true });
    // and 3 days of nothing but failures disable the webhook, saying why
    expect(await webhookView(webhookId)).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining("Every delivery failed for 3 days (last: HTTP 500") });
  });

  it("deliver once, with one delivery id, to a receiver that fails 3 times and then succeeds", async () => {
    const target = receiver().answer(500, "network-error", 503, 200);
    const start = Date.now();
    const { delivery, webhookId } = await pendingDelivery(target, start);
    const { times } = await playOut(delivery, start);
    expect(times).toHaveLength(4);
    expect(target.received.map((r) => r.headers.get("webhook-id"))).toEqual(Array(4).fill(delivery.deliveryUuid));
    expect(await deliveryRow(delivery.id)).toMatchObject({ status: "delivered", attempts: 4, lastStatusCode: 200 });
    expect((await attemptRows(delivery.id)).map((a) => [a.outcome, a.statusCode])).toEqual([
      ["retry", 500],
      ["retry", null],
      ["retry", 503],
      ["delivered", 200],
    ]);
    expect(await webhookView(webhookId)).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it("honour Retry-After on 429 and 503", async () => {
    for (const status of [429, 503]) {
      const target = receiver().answer(new Response("busy", { status, headers: { "retry-after": "600" } }));
      const at = Date.now();
      const { delivery } = await pendingDelivery(target, at);
      const step = await attemptDelivery(db, env, firstMessage(delivery), { at });
      expect(step).toMatchObject({ done: false, delaySeconds: 600 });
      expect((await deliveryRow(delivery.id)).nextAttemptAt).toBe(at + 600_000);
    }
  });
});

describe("a webhook that answers 410 Gone", () => {
  it("is disabled at once with the reason shown, gets nothing more until re-enabled", async () => {
    const target = receiver().answer(410);
    const { delivery, webhookId } = await pendingDelivery(target);
    expect(await attemptDelivery(db, env, firstMessage(delivery))).toEqual({ done: true });
    expect(await deliveryRow(delivery.id)).toMatchObject({ status: "failed", lastStatusCode: 410 });
    expect(await webhookView(webhookId)).toMatchObject({ enabled: false, disabled_at: expect.any(String), disabled_reason: expect.stringContaining("410 Gone") });

    const next = await pendingDelivery(target, Date.now(), webhookId);
    await attemptDelivery(db, env, firstMessage(next.delivery));
    expect(target.received).toHaveLength(1);
    expect(await deliveryRow(next.delivery.id)).toMatchObject({ status: "failed", lastError: expect.stringContaining("disabled") });

    const enabled = await patch(`${world.base}/webhooks/${webhookId}`, world.admin.key, { enabled: true });
    expect(enabled.body.payload.webhook).toMatchObject({ enabled: true, disabled_at: null, disabled_reason: null });
    target.answer(200);
    const third = await pendingDelivery(target, Date.now(), webhookId);
    expect(await attemptDelivery(db, env, firstMessage(third.delivery))).toEqual({ done: true });
    expect((await deliveryRow(third.delivery.id)).status).toBe("delivered");
    const stopped = await patch(`${world.base}/webhooks/${webhookId}`, world.admin.key, { enabled: false });
    expect(stopped.body.payload.webhook).toMatchObject({ enabled: false, disabled_reason: "Disabled by an administrator" });
  });
});

describe("duplicates", () => {
  it("a delivery message that arrives twice makes one attempt; an early one waits another hop", async () => {
    const target = receiver().answer(200);
    const { delivery, webhookId } = await pendingDelivery(target);
    const steps = await Promise.all([attemptDelivery(db, env, firstMessage(delivery)), attemptDelivery(db, env, firstMessage(delivery))]);
    expect(steps).toEqual([{ done: true }, { done: true }]);
    expect(target.received).toHaveLength(1);
    expect(await attemptRows(delivery.id)).toHaveLength(1);

    const at = Date.now();
    const later = await pendingDelivery(target, at + 20 * HOUR, webhookId);
    expect(await attemptDelivery(db, env, firstMessage(later.delivery), { at })).toEqual({ done: false, next: firstMessage(later.delivery), delaySeconds: MAX_QUEUE_DELAY_S });
    expect(target.received).toHaveLength(1);
  });

  it("an event fanned out twice keeps one delivery per webhook, with the same id", async () => {
    const world = await createWorld("Twice Co");
    const db = createDb(await shardOf(world.accountId));
    const target = receiver();
    await post(`${world.base}/webhooks`, world.admin.key, { url: target.url, subscriptions: ["inbox_created"] });
    const inbox = await post(`${world.base}/inboxes`, world.admin.key, { name: "Twice", channel: { type: "api" } });
    await target.waitFor(1);
    const [events] = await db.batch([
      db.select().from(schema.eventOutbox).where(and(eq(schema.eventOutbox.subjectType, "Inbox"), eq(schema.eventOutbox.subjectId, inbox.body.id))),
    ]);
    expect(await fanOut(db, env, { accountId: events[0].accountId, eventId: events[0].id })).toEqual([]);
    const [rows] = await db.batch([db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, events[0].id))]);
    expect(rows.map((r) => r.deliveryUuid)).toEqual([target.received[0].headers.get("webhook-id")]);
  });

  it("an event nobody subscribes to builds no payload and writes no delivery", async () => {
    const world = await createWorld("Quiet Co");
    const db = createDb(await shardOf(world.accountId));
    await post(`${world.base}/webhooks`, world.admin.key, { url: receiver().url, subscriptions: ["contact_created"] });
    const inbox = await post(`${world.base}/inboxes`, world.admin.key, { name: "Quiet", channel: { type: "api" } });
    const [events] = await db.batch([
      db.select().from(schema.eventOutbox).where(and(eq(schema.eventOutbox.subjectType, "Inbox"), eq(schema.eventOutbox.subjectId, inbox.body.id))),
    ]);
    expect(await fanOut(db, env, { accountId: events[0].accountId, eventId: events[0].id })).toEqual([]);
    const [rows] = await db.batch([db.select().from(webhookDeliveries).where(eq(webhookDeliveries.accountId, world.accountId))]);
    expect(rows).toEqual([]);
  });
});

describe("from a change to the subscribed webhooks", () => {
  it("delivers each event once to each webhook subscribed to it, signed with that webhook's secret", async () => {
    const world = await createWorld("Fan-out Co");
    const target = receiver();
    const seen = target.received;
    const subscribed = await post(`${world.base}/webhooks`, world.admin.key, {
      url: target.url,
      subscriptions: ["inbox_created", "inbox_updated"],
    });
    await post(`${world.base}/webhooks`, world.admin.key, { url: receiver().url, subscriptions: ["contact_created"] });
    const neighbour = await createWorld("Neighbour Co");
    await post(`${neighbour.base}/webhooks`, neighbour.admin.key, { url: target.url, subscriptions: ["inbox_created"] });

    const inbox = await post(`${world.base}/inboxes`, world.admin.key, { name: "Support", channel: { type: "api" } });
    expect(inbox.status).toBe(200);
    await target.waitFor(1);
    await patch(`${world.base}/inboxes/${inbox.body.id}`, world.admin.key, { name: "Support desk" });
    await target.waitFor(2);

    expect(seen.map((s) => s.url)).toEqual([target.url, target.url]);
    const [created, updated] = seen.map((s) => JSON.parse(s.body));
    expect(created).toMatchObject({ event: "inbox_created", id: inbox.body.id, name: "Support", channel_type: "Channel::Api" });
    expect(created).not.toHaveProperty("hmac_token");
    expect(updated).toMatchObject({
      event: "inbox_updated",
      name: "Support desk",
      changed_attributes: [{ name: { previous_value: "Support", current_value: "Support desk" } }],
    });
    for (const request of seen) await verifySignature(subscribed.body.payload.webhook.secret, request);
  });
});

describe("conversation and message events", () => {
  it("carry Chatwoot's payloads: the conversation, and the message with its conversation and sender", async () => {
    const world = await createWorld("Payload Co");
    const target = receiver();
    const seen = target.received;
    await post(`${world.base}/webhooks`, world.admin.key, {
      url: target.url,
      subscriptions: ["conversation_created", "message_created", "conversation_status_changed"],
    });
    const inbox = await post(`${world.base}/inboxes`, world.admin.key, { name: "API desk", channel: { type: "api" } });
    const contactId = await createContact(world.accountId, { name: "Casey", email: "casey@example.com" });
    const { sourceId } = await createContactInbox(world.accountId, contactId, inbox.body.id);

    const conversation = await post(`${world.base}/conversations`, world.admin.key, { source_id: sourceId });
    await post(`${world.base}/conversations/${conversation.body.id}/messages`, world.admin.key, { content: "Hello Casey" });
    await post(`${world.base}/conversations/${conversation.body.id}/toggle_status`, world.admin.key, { status: "resolved" });
    await target.waitFor(3);

    const byEvent = Object.fromEntries(seen.map((s) => JSON.parse(s.body)).map((p) => [p.event, p]));
    expect(Object.keys(byEvent).sort()).toEqual(["conversation_created", "conversation_status_changed", "message_created"]);
    expect(byEvent.conversation_created).toMatchObject({ id: conversation.body.id, inbox_id: inbox.body.id, meta: { sender: { id: contactId } } });
    expect(byEvent.message_created).toMatchObject({
      content: "Hello Casey",
      message_type: "outgoing",
      content_type: "text",
      private: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      account: { id: world.accountId, name: "Payload Co" },
      inbox: { id: inbox.body.id, name: "API desk" },
      sender: { id: world.admin.id, type: "user" },
      conversation: { id: conversation.body.id },
    });
    expect(byEvent.conversation_status_changed).toMatchObject({
      status: "resolved",
      changed_attributes: expect.arrayContaining([{ status: { previous_value: "open", current_value: "resolved" } }]),
    });
  });
});

describe("contact events", () => {
  it("carry the contact, and for updates what changed", async () => {
    const world = await createWorld("Contact Hooks Co");
    const target = receiver();
    const seen = target.received;
    await post(`${world.base}/webhooks`, world.admin.key, { url: target.url, subscriptions: ["contact_created", "contact_updated"] });
    const created = await post(`${world.base}/contacts`, world.agent.key, { name: "Robin", email: "robin@example.com" });
    const id = created.body.payload.contact.id;
    await target.waitFor(1);
    await patch(`${world.base}/contacts/${id}`, world.agent.key, { name: "Robin Hood" });
    await target.waitFor(2);

    const [first, second] = seen.map((s) => JSON.parse(s.body));
    expect(first).toEqual({
      event: "contact_created",
      account: { id: world.accountId, name: "Contact Hooks Co" },
      additional_attributes: {},
      avatar: "",
      custom_attributes: {},
      email: "robin@example.com",
      id,
      identifier: null,
      name: "Robin",
      phone_number: null,
      thumbnail: "",
      blocked: false,
    });
    expect(second).toMatchObject({
      event: "contact_updated",
      name: "Robin Hood",
      changed_attributes: [{ name: { previous_value: "Robin", current_value: "Robin Hood" } }],
    });
  });
});
