import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDb, schema } from "../../src/db/client";
import { hmacSha256Hex } from "../../src/domain/identity/keys";
import { MAX_ATTEMPTS, RETRY_DELAYS_S, attemptDelivery } from "../../src/webhooks/deliveries";
import { postWebhook } from "../../src/webhooks/post";
import { createContact, createContactInbox } from "../support/fixtures";
import { patch, post } from "../support/http";
import { createWorld } from "../support/world";

const db = createDb(env.DB);
const world = await createWorld("Hooks Co");

afterEach(() => vi.restoreAllMocks());

type Seen = { url: string; headers: Headers; body: string };

/** A receiver standing in for the customer's server: records each request and answers `statuses` in turn. */
function receiver(...statuses: number[]) {
  const seen: Seen[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    seen.push({ url: request.url, headers: request.headers, body: await request.text() });
    const status = statuses[Math.min(seen.length - 1, statuses.length - 1)] ?? 200;
    return new Response(null, { status });
  }) as typeof fetch;
  return { seen, fetcher };
}

async function verifySignature(secret: string, request: Seen) {
  const timestamp = request.headers.get("x-chatwoot-timestamp")!;
  expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
  expect(request.headers.get("x-chatwoot-signature")).toBe(`sha256=${await hmacSha256Hex(secret, `${timestamp}.${request.body}`)}`);
}

describe("one attempt", () => {
  const attempt = { url: "https://hooks.example/in", secret: "s3cret", deliveryUuid: "d-1", body: '{"event":"x"}' };

  it("posts the body signed with Chatwoot's headers", async () => {
    const { seen, fetcher } = receiver(204);
    expect(await postWebhook(attempt, fetcher)).toEqual({ result: "delivered", status: 204, error: null });
    expect(seen[0].body).toBe('{"event":"x"}');
    expect(seen[0].headers.get("content-type")).toBe("application/json");
    expect(seen[0].headers.get("x-chatwoot-delivery")).toBe("d-1");
    await verifySignature("s3cret", seen[0]);
  });

  it("tells a passing failure from a refusal", async () => {
    expect((await postWebhook(attempt, receiver(503).fetcher)).result).toBe("retry");
    expect((await postWebhook(attempt, receiver(429).fetcher)).result).toBe("retry");
    expect((await postWebhook(attempt, receiver(410).fetcher)).result).toBe("rejected");
    expect((await postWebhook(attempt, receiver(301).fetcher)).result).toBe("rejected");
    const unreachable = (async () => {
      throw new TypeError("connection refused");
    }) as typeof fetch;
    expect(await postWebhook(attempt, unreachable)).toMatchObject({ result: "retry", status: null });
  });
});

async function pendingDelivery(url = "https://hooks.example/in") {
  const hook = await post(`${world.base}/webhooks`, world.admin.key, { url: `${url}?n=${Math.random()}`, subscriptions: ["inbox_created"] });
  const [rows] = await db.batch([
    db
      .insert(schema.webhookDeliveries)
      .values({
        accountId: world.accountId,
        webhookId: hook.body.payload.webhook.id,
        eventId: Math.floor(Math.random() * 1e9),
        eventName: "inbox_created",
        deliveryUuid: crypto.randomUUID(),
        body: '{"event":"inbox_created"}',
        createdAt: Date.now(),
        updatedAt: Date.now(),
      })
      .returning(),
  ]);
  return { delivery: rows[0], webhook: hook.body.payload.webhook };
}

const deliveryRow = async (id: number) =>
  (await db.batch([db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.id, id))]))[0][0];

describe("a delivery's attempts", () => {
  it("retries with growing waits, then gives up and records why", async () => {
    const { delivery } = await pendingDelivery();
    const { seen, fetcher } = receiver(500);
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      expect(await attemptDelivery(db, env, delivery.id, fetcher)).toEqual({ done: false, retryInSeconds: RETRY_DELAYS_S[attempt - 1] });
    }
    expect(await attemptDelivery(db, env, delivery.id, fetcher)).toEqual({ done: true });
    expect(await deliveryRow(delivery.id)).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, lastStatusCode: 500, lastError: "HTTP 500" });
    // every attempt carried the same delivery id
    expect(new Set(seen.map((s) => s.headers.get("x-chatwoot-delivery")))).toEqual(new Set([delivery.deliveryUuid]));
    // and a finished delivery is not attempted again
    expect(await attemptDelivery(db, env, delivery.id, fetcher)).toEqual({ done: true });
    expect(seen).toHaveLength(MAX_ATTEMPTS);
  });

  it("stops at once when the receiver refuses, and succeeds after a passing failure", async () => {
    const refused = await pendingDelivery();
    await attemptDelivery(db, env, refused.delivery.id, receiver(404).fetcher);
    expect(await deliveryRow(refused.delivery.id)).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: 404 });

    const flaky = await pendingDelivery();
    const { fetcher } = receiver(502, 200);
    await attemptDelivery(db, env, flaky.delivery.id, fetcher);
    expect(await attemptDelivery(db, env, flaky.delivery.id, fetcher)).toEqual({ done: true });
    expect(await deliveryRow(flaky.delivery.id)).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 200 });
  });

  it("is cancelled when its webhook was deleted meanwhile", async () => {
    const { delivery, webhook } = await pendingDelivery();
    await db.batch([db.delete(schema.webhooks).where(eq(schema.webhooks.id, webhook.id))]);
    const { seen, fetcher } = receiver(200);
    expect(await attemptDelivery(db, env, delivery.id, fetcher)).toEqual({ done: true });
    expect(seen).toHaveLength(0);
    expect((await deliveryRow(delivery.id)).status).toBe("cancelled");
  });
});

describe("from a change to the subscribed webhooks", () => {
  it("delivers each event once to each webhook subscribed to it, signed with that webhook's secret", async () => {
    const world = await createWorld("Fan-out Co");
    const { seen, fetcher } = receiver(200);
    vi.spyOn(globalThis, "fetch").mockImplementation(fetcher);
    const subscribed = await post(`${world.base}/webhooks`, world.admin.key, {
      url: "https://hooks.example/inboxes",
      subscriptions: ["inbox_created", "inbox_updated"],
    });
    await post(`${world.base}/webhooks`, world.admin.key, { url: "https://hooks.example/contacts-only", subscriptions: ["contact_created"] });
    const neighbour = await createWorld("Neighbour Co");
    await post(`${neighbour.base}/webhooks`, neighbour.admin.key, { url: "https://hooks.example/neighbour", subscriptions: ["inbox_created"] });

    const inbox = await post(`${world.base}/inboxes`, world.admin.key, { name: "Support", channel: { type: "api" } });
    expect(inbox.status).toBe(200);
    await vi.waitUntil(() => seen.length >= 1, { timeout: 10_000, interval: 50 });
    await patch(`${world.base}/inboxes/${inbox.body.id}`, world.admin.key, { name: "Support desk" });
    await vi.waitUntil(() => seen.length >= 2, { timeout: 10_000, interval: 50 });

    expect(seen.map((s) => s.url)).toEqual(["https://hooks.example/inboxes", "https://hooks.example/inboxes"]);
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
    const { seen, fetcher } = receiver(200);
    vi.spyOn(globalThis, "fetch").mockImplementation(fetcher);
    await post(`${world.base}/webhooks`, world.admin.key, {
      url: "https://hooks.example/desk",
      subscriptions: ["conversation_created", "message_created", "conversation_status_changed"],
    });
    const inbox = await post(`${world.base}/inboxes`, world.admin.key, { name: "API desk", channel: { type: "api" } });
    const contactId = await createContact(world.accountId, { name: "Casey", email: "casey@example.com" });
    const { sourceId } = await createContactInbox(world.accountId, contactId, inbox.body.id);

    const conversation = await post(`${world.base}/conversations`, world.admin.key, { source_id: sourceId });
    await post(`${world.base}/conversations/${conversation.body.id}/messages`, world.admin.key, { content: "Hello Casey" });
    await post(`${world.base}/conversations/${conversation.body.id}/toggle_status`, world.admin.key, { status: "resolved" });
    await vi.waitUntil(() => seen.length >= 3, { timeout: 10_000, interval: 50 });

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
    const { seen, fetcher } = receiver(200);
    vi.spyOn(globalThis, "fetch").mockImplementation(fetcher);
    await post(`${world.base}/webhooks`, world.admin.key, { url: "https://hooks.example/contacts", subscriptions: ["contact_created", "contact_updated"] });
    const created = await post(`${world.base}/contacts`, world.agent.key, { name: "Robin", email: "robin@example.com" });
    const id = created.body.payload.contact.id;
    await vi.waitUntil(() => seen.length >= 1, { timeout: 10_000, interval: 50 });
    await patch(`${world.base}/contacts/${id}`, world.agent.key, { name: "Robin Hood" });
    await vi.waitUntil(() => seen.length >= 2, { timeout: 10_000, interval: 50 });

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
