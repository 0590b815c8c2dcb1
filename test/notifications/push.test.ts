/**
 * Push notifications through the configured push relay (PUSH_RELAY_URL, set for the tests in
 * vitest.config.ts and answered here by a receiver): one signed, retried delivery per device of the
 * notification's user, with Chatwoot's push message, and nothing for anyone else.
 */
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createDb } from "../../src/db/client";
import { hmacSha256Hex } from "../../src/domain/identity/keys";
import { FORBIDDEN_TARGET_MESSAGE } from "../../src/domain/kernel/target-url";
import { attemptDelivery } from "../../src/jobs/deliveries";
import { pushDeliveries } from "../../src/jobs/fan-out";
import { del, get, post, put } from "../support/http";
import { type Received, receiver } from "../support/receivers";
import { addToAccount, createUser, createWorld, type Person } from "../support/world";
import { shardOf } from "../support/databases";
import { addInboxMember, createContact, createInbox } from "../support/fixtures";

const world = await createWorld("Push Relay Co");
/** The database holding this account's rows. */
const shard = await shardOf(world.accountId);
const db = createDb(shard);
const { base, admin, agent } = world;
const inbox = await createInbox(world.accountId, { name: "Front desk" });
await addInboxMember(world.accountId, inbox, agent.id);
const contactId = await createContact(world.accountId, { name: "Carla" });
/** an agent who wants assignments by e-mail, not by push */
const mailOnly = await createUser(world.platformKey, "Mail Only");
await addToAccount(world.platformKey, world.accountId, mailOnly.id, "agent");
await addInboxMember(world.accountId, inbox, mailOnly.id);
/** an agent with no device */
const deviceless = await createUser(world.platformKey, "No Device");
await addToAccount(world.platformKey, world.accountId, deviceless.id, "agent");
await addInboxMember(world.accountId, inbox, deviceless.id);

const relay = receiver(env.PUSH_RELAY_URL);
const SUBSCRIPTIONS = "/api/v1/notification_subscriptions";

async function register(person: Person, token: string, platform = "android") {
  const res = await post(SUBSCRIPTIONS, person.key, {
    subscription_type: "fcm",
    subscription_attributes: { push_token: token, device_id: `device-${token}`, deviceName: "Phone", devicePlatform: platform },
  });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

async function openConversation() {
  const res = await post(`${base}/conversations`, admin.key, { inbox_id: inbox, contact_id: contactId });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

/** The admin assigns a new conversation to `person`; answers its display id and the notification's id. */
async function assignTo(person: Person) {
  const displayId = await openConversation();
  const res = await post(`${base}/conversations/${displayId}/assignments`, admin.key, { assignee_id: person.id });
  expect(res.status).toBe(200);
  const list = await get(`${base}/notifications`, person.key);
  const notification = list.body.data.payload.find((n: { primary_actor: { id: number } }) => n.primary_actor.id === displayId);
  expect(notification?.notification_type).toBe("conversation_assignment");
  return { displayId, notificationId: notification.id as number, conversationId: notification.primary_actor_id as number };
}

/** The notification's `notification_created` event, once the queue has handled it (its fan-out is done). */
async function handledEvent(notificationId: number) {
  const query = "SELECT * FROM event_outbox WHERE event_name = 'notification_created' AND subject_id = ?";
  await vi.waitUntil(async () => (await shard.prepare(query).bind(notificationId).first<{ consumed_at: number | null }>())?.consumed_at, { timeout: 10_000, interval: 20 });
  const row = (await shard.prepare(query).bind(notificationId).first<Record<string, any>>())!;
  return { id: row.id, accountId: row.account_id, eventName: row.event_name, subjectType: row.subject_type, subjectId: row.subject_id, data: JSON.parse(row.data), causedByAutomation: Boolean(row.caused_by_automation), createdAt: row.created_at, dispatchedAt: row.dispatched_at, consumedAt: row.consumed_at };
}

const pushRows = async (notificationId: number) =>
  (await shard.prepare("SELECT * FROM webhook_deliveries WHERE target_type = 'push' AND subject_id = ? ORDER BY id").bind(notificationId).all<Record<string, any>>()).results;

const sentTo = (token: string) => relay.received.filter((r) => JSON.parse(r.body).push_token === token);

async function expectSigned(request: Received) {
  const secret = env.PUSH_RELAY_SECRET!;
  expect(() => new Webhook(secret).verify(request.body, Object.fromEntries(request.headers))).not.toThrow();
  const timestamp = request.headers.get("x-chatwoot-timestamp")!;
  expect(request.headers.get("x-chatwoot-signature")).toBe(`sha256=${await hmacSha256Hex(secret, `${timestamp}.${request.body}`)}`);
  // and a receiver with another secret would refuse it
  expect(() => new Webhook("b3RoZXItc2VjcmV0").verify(request.body, Object.fromEntries(request.headers))).toThrow();
}

beforeAll(async () => {
  const res = await put(`${base}/notification_settings`, mailOnly.key, {
    notification_settings: { selected_email_flags: ["email_conversation_assignment"], selected_push_flags: [] },
  });
  expect(res.status).toBe(200);
});

describe("push notifications", () => {
  it("push an assignment to each device of the assignee, signed, with Chatwoot's push message", async () => {
    await register(agent, "agent-phone", "android");
    await register(agent, "agent-tablet", "ios");
    await register(admin, "admin-phone");
    const { displayId, notificationId, conversationId } = await assignTo(agent);
    await vi.waitUntil(() => sentTo("agent-phone").length + sentTo("agent-tablet").length >= 2, { timeout: 10_000, interval: 20 });
    await handledEvent(notificationId);

    expect(sentTo("agent-phone")).toHaveLength(1);
    expect(sentTo("agent-tablet")).toHaveLength(1);
    expect(sentTo("admin-phone")).toEqual([]); // the admin acted; their device gets nothing of the agent's
    for (const request of [...sentTo("agent-phone"), ...sentTo("agent-tablet")]) await expectSigned(request);

    const body = JSON.parse(sentTo("agent-phone")[0].body);
    const notification = {
      id: notificationId,
      notification_type: "conversation_assignment",
      primary_actor_id: conversationId,
      primary_actor_type: "Conversation",
      primary_actor: { id: displayId, conversation_id: displayId },
      account_id: world.accountId,
    };
    const title = `[Assigned to you] - #${displayId} has been assigned to you`;
    expect(body).toMatchObject({
      push_token: "agent-phone",
      subscription_type: "fcm",
      platform: "android",
      account_id: world.accountId,
      user_id: agent.id,
      title: "Conversation Assignment",
      body: title,
      notification,
      fcm_options: {
        token: "agent-phone",
        notification: { title: "Conversation Assignment", body: title },
        android: { priority: "high" },
      },
    });
    // as Chatwoot's mobile app reads it: data.payload (FCM v1) or data.notification (legacy), both JSON
    expect(JSON.parse(body.fcm_options.data.payload)).toEqual({ data: { notification } });
    expect(JSON.parse(body.fcm_options.data.notification)).toEqual(notification);
    expect(JSON.parse(sentTo("agent-tablet")[0].body)).toMatchObject({ push_token: "agent-tablet", platform: "ios", fcm_options: { token: "agent-tablet" } });

    // each device has its own delivery, with its own id, delivered
    const rows = await pushRows(notificationId);
    expect(rows.map((r) => r.status)).toEqual(["delivered", "delivered"]);
    expect(new Set([...sentTo("agent-phone"), ...sentTo("agent-tablet")].map((r) => r.headers.get("webhook-id")))).toEqual(new Set(rows.map((r) => r.delivery_uuid)));
  });

  it("push nothing when the user's push flag for the type is off (the e-mail flag keeps the notification)", async () => {
    await register(mailOnly, "mail-only-phone");
    const { notificationId } = await assignTo(mailOnly);
    await handledEvent(notificationId);
    expect(await pushRows(notificationId)).toEqual([]);
    expect(sentTo("mail-only-phone")).toEqual([]);
  });

  it("push nothing for a user without devices", async () => {
    const { notificationId } = await assignTo(deviceless);
    await handledEvent(notificationId);
    expect(await pushRows(notificationId)).toEqual([]);
    expect(relay.received.filter((r) => JSON.parse(r.body).user_id === deviceless.id)).toEqual([]);
  });

  it("push nothing while no relay is configured", async () => {
    await register(agent, "agent-watch");
    const { notificationId } = await assignTo(agent);
    const event = await handledEvent(notificationId);
    // the same event, with and without a relay
    expect((await pushDeliveries(db, env, event)).map((d) => d.targetType)).toContain("push");
    expect(await pushDeliveries(db, { ...env, PUSH_RELAY_URL: "" }, event)).toEqual([]);
  });

  it("refuse a relay URL that the webhook target policy refuses (a private address), at the attempt", async () => {
    const { notificationId } = await assignTo(agent);
    await handledEvent(notificationId);
    let rows: Array<Record<string, any>> = [];
    await vi.waitUntil(async () => (rows = await pushRows(notificationId)).length > 0 && rows.every((r) => r.status === "delivered"), { timeout: 10_000, interval: 20 });
    const row = rows[0];
    await shard.prepare("UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ? WHERE id = ?").bind(Date.now(), row.id).run();
    const privateRelay = { ...env, PUSH_RELAY_URL: "http://10.0.0.5/push" };
    expect(await attemptDelivery(db, privateRelay, { kind: "delivery", deliveryId: row.id, accountId: row.account_id, attempt: row.attempts })).toEqual({ done: true });
    const [after] = (await pushRows(notificationId)).filter((r) => r.id === row.id);
    expect(after).toMatchObject({ status: "failed", last_error: `the URL ${FORBIDDEN_TARGET_MESSAGE}` });
  });

  it("never push to a device another user has taken over, or one removed before the push is attempted", async () => {
    await register(agent, "shared-phone");
    await register(agent, "old-phone");
    const { notificationId } = await assignTo(agent);
    await handledEvent(notificationId);
    await vi.waitUntil(() => sentTo("shared-phone").length > 0 && sentTo("old-phone").length > 0, { timeout: 10_000, interval: 20 });
    const rows = await pushRows(notificationId);
    const rowFor = (token: string) => rows.find((r) => JSON.parse(r.body).push_token === token)!;

    // the admin signs in on the shared phone; the agent removes the old one
    await register(admin, "shared-phone");
    expect((await del(SUBSCRIPTIONS, agent.key, { push_token: "old-phone" })).status).toBe(200);
    // a redelivery of each push now reaches nobody, and says why
    const before = relay.received.length;
    for (const token of ["shared-phone", "old-phone"]) {
      const row = rowFor(token);
      await shard.prepare("UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ? WHERE id = ?").bind(Date.now(), row.id).run();
      expect(await attemptDelivery(db, env, { kind: "delivery", deliveryId: row.id, accountId: row.account_id, attempt: row.attempts })).toEqual({ done: true });
    }
    expect(relay.received.length).toBe(before);
    const after = await pushRows(notificationId);
    for (const token of ["shared-phone", "old-phone"]) {
      expect(after.find((r) => r.id === rowFor(token).id)).toMatchObject({ status: "cancelled", last_error: "the device is no longer registered to the notification's user" });
    }
    // and the agent's next notification goes to the agent's other devices only
    const next = await assignTo(agent);
    await handledEvent(next.notificationId);
    const tokens = (await pushRows(next.notificationId)).map((r) => JSON.parse(r.body).push_token);
    expect(tokens).toContain("agent-phone");
    expect(tokens).not.toContain("shared-phone");
    expect(tokens).not.toContain("old-phone");
  });

  it("retry a failing relay as webhooks are retried, with the same delivery id", async () => {
    const answers = new Map<string, number>();
    relay.answer((request) => {
      const token = JSON.parse(request.body).push_token;
      if (token !== "flaky-phone") return 200;
      const seen = (answers.get(token) ?? 0) + 1;
      answers.set(token, seen);
      return seen === 1 ? 503 : 200;
    });
    const flaky = await createUser(world.platformKey, "Flaky");
    await addToAccount(world.platformKey, world.accountId, flaky.id, "agent");
    await addInboxMember(world.accountId, inbox, flaky.id);
    await register(flaky, "flaky-phone");
    const { notificationId } = await assignTo(flaky);
    await vi.waitUntil(() => sentTo("flaky-phone").length >= 1, { timeout: 10_000, interval: 20 });
    let row: Record<string, any> | undefined;
    await vi.waitUntil(async () => (row = (await pushRows(notificationId))[0])?.attempts === 1 && row.last_status_code === 503, { timeout: 10_000, interval: 20 });
    expect(row).toMatchObject({ status: "pending", attempts: 1, last_error: "HTTP 503" });
    expect(row!.next_attempt_at - row!.last_attempt_at).toBeGreaterThanOrEqual(24_000); // 30 s ± 20 %, as for webhooks

    // the retry, when it falls due
    const step = await attemptDelivery(db, env, { kind: "delivery", deliveryId: row!.id, accountId: row!.account_id, attempt: 1 }, { at: row!.next_attempt_at });
    expect(step).toEqual({ done: true });
    expect(sentTo("flaky-phone")).toHaveLength(2);
    const [first, second] = sentTo("flaky-phone");
    expect(second.headers.get("webhook-id")).toBe(first.headers.get("webhook-id"));
    expect(second.body).toBe(first.body);
    expect((await pushRows(notificationId))[0]).toMatchObject({ status: "delivered", attempts: 2 });
    relay.answer(200);
  });
});
