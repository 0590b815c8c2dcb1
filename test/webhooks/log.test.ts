/** The delivery log over HTTP: list, filter, page, show with attempts, redeliver, reset the secret; who may. */
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { createDb, schema } from "../../src/db/client";
import { get, post } from "../support/http";
import { receiver } from "../support/receivers";
import { createWorld } from "../support/world";
import { shardOf } from "../support/databases";

const world = await createWorld("Log Co");
/** The shard of this file's account, where its delivery log is. */
const db = createDb(await shardOf(world.accountId));
const other = await createWorld("Other Log Co");

// Inboxes named "Bad ..." are refused by the receiver (404: failed at once); the others are taken.
const target = receiver().answer((request) => (JSON.parse(request.body).name.startsWith("Bad") ? 404 : 200));
const hook = (await post(`${world.base}/webhooks`, world.admin.key, { url: target.url, subscriptions: ["inbox_created", "inbox_updated"] })).body.payload.webhook;
for (const name of ["First", "Bad one", "Third"]) {
  expect((await post(`${world.base}/inboxes`, world.admin.key, { name, channel: { type: "api" } })).status).toBe(200);
}
await target.waitFor(3);
const log = `${world.base}/webhooks/${hook.id}/deliveries`;
await settled();

async function settled() {
  // the last attempt is recorded just after the receiver answered
  for (let i = 0; i < 100; i++) {
    const list = await get(log, world.admin.key);
    if (list.body.payload?.every((d: { status: string }) => d.status !== "pending")) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("the delivery log", () => {
  it("lists a webhook's deliveries newest first, filtered by status and event", async () => {
    const list = await get(log, world.admin.key);
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ current_page: 1, per_page: 25, has_more: false });
    expect(list.body.payload.map((d: { status: string }) => d.status)).toEqual(["delivered", "failed", "delivered"]);
    const ids = list.body.payload.map((d: { id: number }) => d.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(list.body.payload[1]).toEqual({
      id: expect.any(Number),
      delivery_id: target.received[1].headers.get("webhook-id"),
      event: "inbox_created",
      status: "failed",
      attempts: 1,
      last_status_code: 404,
      last_error: "HTTP 404",
      last_attempt_at: expect.stringMatching(/^\d{4}-/),
      next_attempt_at: null,
      created_at: expect.stringMatching(/^\d{4}-/),
    });
    const failed = await get(`${log}?status=failed`, world.admin.key);
    expect(failed.body.payload).toHaveLength(1);
    expect((await get(`${log}?event=inbox_updated`, world.admin.key)).body.payload).toEqual([]);
    expect((await get(`${log}?event=inbox_created&status=delivered`, world.admin.key)).body.payload).toHaveLength(2);
  });

  it("pages 25 at a time", async () => {
    const paged = await post(`${world.base}/webhooks`, world.admin.key, { url: receiver().url, subscriptions: ["contact_created"] });
    const id = paged.body.payload.webhook.id;
    const at = Date.now();
    const rows = Array.from({ length: 27 }, (_, i) => ({
      accountId: world.accountId,
      targetType: "webhook",
      targetId: id,
      eventId: 0,
      eventName: "contact_created",
      status: "delivered",
      deliveryUuid: crypto.randomUUID(),
      body: `{"n":${i}}`,
      createdAt: at,
      updatedAt: at,
    }));
    for (let i = 0; i < rows.length; i += 5) await db.batch([db.insert(schema.webhookDeliveries).values(rows.slice(i, i + 5))]);
    const first = await get(`${world.base}/webhooks/${id}/deliveries`, world.admin.key);
    const second = await get(`${world.base}/webhooks/${id}/deliveries?page=2`, world.admin.key);
    expect(first.body.payload).toHaveLength(25);
    expect(first.body.meta.has_more).toBe(true);
    expect(second.body.payload).toHaveLength(2);
    expect(second.body.meta).toEqual({ current_page: 2, per_page: 25, has_more: false });
    expect(second.body.payload[1].id).toBeLessThan(first.body.payload[24].id);
  });

  it("shows one delivery with its payload and every attempt, and redelivers it with the same delivery id", async () => {
    const failed = (await get(`${log}?status=failed`, world.admin.key)).body.payload[0];
    const shown = await get(`${log}/${failed.id}`, world.admin.key);
    expect(shown.status).toBe(200);
    expect(shown.body.payload).toMatchObject({ id: failed.id, delivery_id: failed.delivery_id, event: "inbox_created", payload: { event: "inbox_created", name: "Bad one" } });
    expect(shown.body.payload.attempt_log).toEqual([
      { attempted_at: expect.any(String), trigger: "automatic", outcome: "failed", status_code: 404, duration_ms: expect.any(Number), response_body: "ok", error: "HTTP 404" },
    ]);

    target.answer(200);
    const before = target.received.length;
    const redelivered = await post(`${log}/${failed.id}/redeliver`, world.admin.key);
    expect(redelivered.status).toBe(202);
    expect(redelivered.body.payload).toMatchObject({ id: failed.id, delivery_id: failed.delivery_id, status: "pending" });
    await target.waitFor(before + 1);
    expect(target.received.at(-1)!.headers.get("webhook-id")).toBe(failed.delivery_id);
    await settled();
    const after = await get(`${log}/${failed.id}`, world.admin.key);
    expect(after.body.payload).toMatchObject({ status: "delivered", attempts: 2, last_status_code: 200 });
    expect(after.body.payload.attempt_log.map((a: { trigger: string; outcome: string }) => [a.trigger, a.outcome])).toEqual([
      ["redelivery", "delivered"],
      ["automatic", "failed"],
    ]);
  });

  it("validates its parameters", async () => {
    const fields = (res: { body: { errors: Array<{ field: string }> } }) => res.body.errors.map((e) => e.field);
    expect(fields(await get(`${log}?page=0`, world.admin.key))).toEqual(["page"]);
    expect(fields(await get(`${log}?status=lost`, world.admin.key))).toEqual(["status"]);
    expect((await get(`${log}/abc`, world.admin.key)).status).toBe(422);
    expect((await get(`${log}/999999`, world.admin.key)).status).toBe(404);
    expect((await get(`${world.base}/webhooks/999999/deliveries`, world.admin.key)).status).toBe(404);
  });

  it("is for the account's administrators only: agents 403, another account's webhook 404, no key 401", async () => {
    const any = (await get(log, world.admin.key)).body.payload[0];
    for (const path of [log, `${log}/${any.id}`]) {
      expect((await get(path, world.agent.key)).status).toBe(403);
      expect((await get(path, other.admin.key)).status).toBe(403);
      expect((await get(path)).status).toBe(401);
    }
    expect((await post(`${log}/${any.id}/redeliver`, world.agent.key)).status).toBe(403);
    expect((await post(`${world.base}/webhooks/${hook.id}/reset_secret`, world.agent.key)).status).toBe(403);
    // another account's webhook, through one's own account
    const theirs = `${other.base}/webhooks/${hook.id}`;
    expect((await get(`${theirs}/deliveries`, other.admin.key)).status).toBe(404);
    expect((await get(`${theirs}/deliveries/${any.id}`, other.admin.key)).status).toBe(404);
    expect((await post(`${theirs}/deliveries/${any.id}/redeliver`, other.admin.key)).status).toBe(404);
    expect((await post(`${theirs}/reset_secret`, other.admin.key)).status).toBe(404);
    // another webhook's delivery, through one's own webhook
    const mine = (await post(`${other.base}/webhooks`, other.admin.key, { url: receiver().url })).body.payload.webhook;
    expect((await get(`${other.base}/webhooks/${mine.id}/deliveries/${any.id}`, other.admin.key)).status).toBe(404);
  });
});

describe("reset_secret", () => {
  it("gives the webhook a new secret that signs the next deliveries", async () => {
    const reset = await post(`${world.base}/webhooks/${hook.id}/reset_secret`, world.admin.key);
    expect(reset.status).toBe(200);
    const secret = reset.body.payload.webhook.secret;
    expect(secret).toMatch(/^[1-9A-HJ-NP-Za-km-z]{24}$/);
    expect(secret).not.toBe(hook.secret);
    const before = target.received.length;
    await post(`${world.base}/inboxes`, world.admin.key, { name: "After reset", channel: { type: "api" } });
    const [request] = (await target.waitFor(before + 1)).slice(before);
    const headers = Object.fromEntries(request.headers);
    expect(new Webhook(secret).verify(request.body, headers)).toMatchObject({ event: "inbox_created", name: "After reset" });
    expect(() => new Webhook(hook.secret).verify(request.body, headers)).toThrow();
  });
});
