import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { systemScope } from "../../src/domain/kernel/scope";
import { jobScope } from "../../src/jobs/scope";
import { createWebhook, updateWebhook } from "../../src/domain/settings/webhooks";
import { shardOf } from "../support/databases";
import { del, get, patch, post, put } from "../support/http";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let other: World;

const DEFAULT_EVENTS = [
  "conversation_status_changed",
  "conversation_updated",
  "conversation_created",
  "contact_created",
  "contact_updated",
  "message_created",
  "message_updated",
  "webwidget_triggered",
];

/** An inbox row, as the inboxes API would leave it (that API is not part of this test). */
async function createInbox(accountId: number, name: string): Promise<number> {
  const row = await (await shardOf(accountId)).prepare(
    `INSERT INTO inboxes (account_id, name, channel_type, channel_id, identifier, hmac_token, created_at, updated_at)
     VALUES (?, ?, 'Channel::Api', 1, ?, 'hmac', 0, 0) RETURNING id`,
  )
    .bind(accountId, name, crypto.randomUUID())
    .first<{ id: number }>();
  return row!.id;
}

beforeAll(async () => {
  world = await createWorld("Hooks");
  other = await createWorld("Elsewhere");
});

const fieldsOf = (res: { body: { errors: { field: string; code: string }[] } }) => res.body.errors.map((e) => `${e.field}:${e.code}`);

describe("webhooks", () => {
  it("lets an administrator add, list, update and delete webhooks", async () => {
    const { base, admin, accountId } = world;
    const created = await post(`${base}/webhooks`, admin.key, { url: "https://example.com/hook", name: "CRM" });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      payload: {
        webhook: {
          id: expect.any(Number),
          name: "CRM",
          url: "https://example.com/hook",
          account_id: accountId,
          subscriptions: DEFAULT_EVENTS,
          inbox: null,
          secret: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{24}$/),
          enabled: true,
          disabled_at: null,
          disabled_reason: null,
        },
      },
    });
    const hook = created.body.payload.webhook;

    const inboxId = await createInbox(accountId, "Support");
    const second = await post(`${base}/webhooks`, admin.key, {
      webhook: { url: "https://example.com/other", subscriptions: ["message_created", "conversation_typing_on", "message_created"], inbox_id: inboxId },
    });
    expect(second.status).toBe(200);
    expect(second.body.payload.webhook).toMatchObject({
      subscriptions: ["message_created", "conversation_typing_on"],
      inbox: { id: inboxId, name: "Support" },
    });
    expect(second.body.payload.webhook.secret).not.toBe(hook.secret);

    const list = await get(`${base}/webhooks`, admin.key);
    expect(list.status).toBe(200);
    expect(list.body.payload.webhooks).toEqual([hook, second.body.payload.webhook]);

    const updated = await patch(`${base}/webhooks/${hook.id}`, admin.key, { subscriptions: ["contact_created"], inbox_id: inboxId });
    // auth, one read batch, one write batch; every read metered
    expect(updated.headers.get("server-timing")).toContain('db-round-trips;desc="3"');
    expect(updated.headers.get("server-timing")).not.toContain("unmetered");
    expect(updated.body.payload.webhook).toEqual({ ...hook, subscriptions: ["contact_created"], inbox: { id: inboxId, name: "Support" } });
    const moved = await put(`${base}/webhooks/${hook.id}`, admin.key, { url: "https://example.com/moved", inbox_id: null, name: null });
    expect(moved.body.payload.webhook).toMatchObject({ url: "https://example.com/moved", inbox: null, name: null, subscriptions: ["contact_created"] });
    // Keeping its own URL is not a clash.
    expect((await patch(`${base}/webhooks/${hook.id}`, admin.key, { url: "https://example.com/moved" })).status).toBe(200);

    expect(await del(`${base}/webhooks/${hook.id}`, admin.key)).toMatchObject({ status: 200, body: {} });
    expect((await get(`${base}/webhooks`, admin.key)).body.payload.webhooks.map((w: { id: number }) => w.id)).toEqual([
      second.body.payload.webhook.id,
    ]);
    expect((await del(`${base}/webhooks/${hook.id}`, admin.key)).status).toBe(404);
    expect((await patch(`${base}/webhooks/${hook.id}`, admin.key, { name: "x" })).status).toBe(404);
  });

  it("validates url, subscriptions and inbox", async () => {
    const { base, admin } = world;
    expect(fieldsOf(await post(`${base}/webhooks`, admin.key, {}))).toEqual(["url:required"]);
    expect(fieldsOf(await post(`${base}/webhooks`, admin.key, { url: "javascript:alert(1)" }))).toEqual(["url:invalid"]);
    const refused = [
      ...["http://localhost:3000/x", "http://127.0.0.1/x", "http://[::1]/x", "http://169.254.169.254/", "http://10.0.0.8/"],
      // names that resolve to this machine, the metadata service or what they embed; IPv6 spellings of loopback
      ...["http://localtest.me/x", "http://127.0.0.1.nip.io/x", "http://10-0-0-8.sslip.io/", "http://metadata.google.internal/", "http://localhost../x"],
      ...["http://[::ffff:0:7f00:1]/", "http://[64:ff9b:1::7f00:1]/", "http://[2001:0::1]/", "http://[::7f00:1]/"],
    ];
    const before = (await get(`${base}/webhooks`, admin.key)).body;
    for (const url of refused) {
      expect(fieldsOf(await post(`${base}/webhooks`, admin.key, { url })), url).toEqual(["url:forbidden_host"]);
    }
    // none of them was saved
    expect((await get(`${base}/webhooks`, admin.key)).body).toEqual(before);

    const unknown = await post(`${base}/webhooks`, admin.key, { url: "https://example.com/a", subscriptions: ["message_created", "ticket_opened", "nope"] });
    expect(fieldsOf(unknown)).toEqual(["subscriptions:unknown_event"]);
    expect(unknown.body.errors[0].message).toContain("ticket_opened, nope");
    expect(fieldsOf(await post(`${base}/webhooks`, admin.key, { url: "https://example.com/a", subscriptions: [] }))).toEqual(["subscriptions:too_few"]);
    expect(fieldsOf(await post(`${base}/webhooks`, admin.key, { url: "https://example.com/a", subscriptions: "message_created" }))).toEqual([
      "subscriptions:invalid_type",
    ]);

    const foreignInbox = await createInbox(other.accountId, "Theirs");
    expect(fieldsOf(await post(`${base}/webhooks`, admin.key, { url: "https://example.com/a", inbox_id: foreignInbox }))).toEqual([
      "inbox_id:unknown_inbox",
    ]);

    await post(`${base}/webhooks`, admin.key, { url: "https://example.com/taken" });
    expect(fieldsOf(await post(`${base}/webhooks`, admin.key, { url: "https://example.com/taken" }))).toEqual(["url:taken"]);
    const another = await post(`${base}/webhooks`, admin.key, { url: "https://example.com/another" });
    const id = another.body.payload.webhook.id;
    expect(fieldsOf(await patch(`${base}/webhooks/${id}`, admin.key, { url: "https://example.com/taken" }))).toEqual(["url:taken"]);
    expect(fieldsOf(await patch(`${base}/webhooks/${id}`, admin.key, { url: "http://192.168.0.1/" }))).toEqual(["url:forbidden_host"]);
    expect(fieldsOf(await patch(`${base}/webhooks/${id}`, admin.key, { inbox_id: foreignInbox }))).toEqual(["inbox_id:unknown_inbox"]);
    // The same URL in another account is fine.
    expect((await post(`${other.base}/webhooks`, other.admin.key, { url: "https://example.com/taken" })).status).toBe(200);
  });

  it("accepts loopback and private receivers where the policy allows them (npm start), and nowhere else", async () => {
    const db = createDb(await shardOf(world.accountId));
    const local = systemScope(jobScope(db, { ...env, WEBHOOK_TARGET_POLICY: "allow-private" }), world.accountId);
    const strict = systemScope(jobScope(db, env), world.accountId);
    const created = await createWebhook(local, { url: "http://localhost:4000/hook" });
    expect(created.webhook.url).toBe("http://localhost:4000/hook");
    expect(await updateWebhook(local, created.webhook.id, { url: "http://192.168.1.20/in" })).toMatchObject({ webhook: { url: "http://192.168.1.20/in" } });
    await expect(createWebhook(strict, { url: "http://127.0.0.1:4000/hook" })).rejects.toMatchObject({ code: "invalid" });
  });

  it("is for administrators of the account only", async () => {
    const { base, admin, agent } = world;
    const hook = await post(`${base}/webhooks`, admin.key, { url: "https://example.com/admins-only" });
    const id = hook.body.payload.webhook.id;
    expect((await get(`${base}/webhooks`, agent.key)).status).toBe(403);
    expect((await post(`${base}/webhooks`, agent.key, { url: "https://example.com/x" })).status).toBe(403);
    expect((await patch(`${base}/webhooks/${id}`, agent.key, { name: "x" })).status).toBe(403);
    expect((await del(`${base}/webhooks/${id}`, agent.key)).status).toBe(403);
    expect((await get(`${base}/webhooks`, other.admin.key)).status).toBe(403);
    expect((await patch(`${other.base}/webhooks/${id}`, other.admin.key, { name: "x" })).status).toBe(404);
    expect((await del(`${other.base}/webhooks/${id}`, other.admin.key)).status).toBe(404);
    expect((await get(`${base}/webhooks`)).status).toBe(401);
  });
});
