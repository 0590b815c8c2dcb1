/**
 * The delivery log reached from an API inbox (`/inboxes/{id}/deliveries`) and from an agent bot
 * (`/agent_bots/{id}/deliveries`): each shows its own deliveries only, one delivery with its attempts,
 * redelivery with the same delivery id; administrators of the account only.
 */
import { describe, expect, it } from "vitest";
import { createContact, createContactInbox } from "../support/fixtures";
import { get, post } from "../support/http";
import { receiver } from "../support/receivers";
import { createWorld } from "../support/world";

const world = await createWorld("Target Log Co");
const other = await createWorld("Other Target Log Co");
const a = world.admin.key;

async function made(path: string, key: string, body: unknown) {
  const res = await post(path, key, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function conversationIn(inboxId: number) {
  const contactId = await createContact(world.accountId, { name: "Robin" });
  const { sourceId } = await createContactInbox(world.accountId, contactId, inboxId);
  return (await made(`${world.base}/conversations`, a, { source_id: sourceId })).id as number;
}

/** The log once no delivery in it is pending any more (the last attempt is recorded just after the answer). */
async function settledLog(path: string, count: number) {
  for (let i = 0; i < 200; i++) {
    const list = await get(path, a);
    const rows: Array<{ status: string }> = list.body.payload ?? [];
    if (rows.length >= count && rows.every((d) => d.status !== "pending")) return list.body.payload;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${path} did not settle`);
}

// The inbox's callback refuses conversation_created (404: failed at once) and takes the rest.
const callback = receiver().answer((request) => (JSON.parse(request.body).event === "conversation_created" ? 404 : 200));
const inbox = await made(`${world.base}/inboxes`, a, { name: "Callback desk", channel: { type: "api", webhook_url: callback.url } });
// an account webhook that gets the same events, whose deliveries must stay out of the inbox's log
const accountHook = receiver();
await made(`${world.base}/webhooks`, a, { url: accountHook.url, subscriptions: ["conversation_created", "message_created"] });
const conversation = await conversationIn(inbox.id);
await made(`${world.base}/conversations/${conversation}/messages`, a, { content: "Hello callback", message_type: "incoming" });
const inboxLog = `${world.base}/inboxes/${inbox.id}/deliveries`;
const inboxDeliveries = await settledLog(inboxLog, 2);

// A bot serving a second inbox gets the message of a conversation there.
const hook = receiver();
const bot = await made(`${world.base}/agent_bots`, a, { name: "Logged bot", outgoing_url: hook.url });
const botInbox = await made(`${world.base}/inboxes`, a, { name: "Bot desk", channel: { type: "api" } });
await made(`${world.base}/inboxes/${botInbox.id}/set_agent_bot`, a, { agent_bot: bot.id });
const botConversation = await conversationIn(botInbox.id);
await made(`${world.base}/conversations/${botConversation}/messages`, a, { content: "Hello bot", message_type: "incoming" });
const botLog = `${world.base}/agent_bots/${bot.id}/deliveries`;
const botDeliveries = await settledLog(botLog, 1);

describe("an API inbox's delivery log", () => {
  it("lists what the inbox's webhook_url was sent, newest first, and nothing sent to other receivers", async () => {
    expect(inboxDeliveries.map((d: { event: string; status: string }) => [d.event, d.status])).toEqual([
      ["message_created", "delivered"],
      ["conversation_created", "failed"],
    ]);
    // each delivery id is one the callback saw, and none is an account webhook's
    const seenByCallback = callback.received.map((r) => r.headers.get("webhook-id"));
    const seenByWebhook = (await accountHook.waitFor(2)).map((r) => r.headers.get("webhook-id"));
    for (const d of inboxDeliveries) {
      expect(seenByCallback).toContain(d.delivery_id);
      expect(seenByWebhook).not.toContain(d.delivery_id);
    }
    const failed = await get(`${inboxLog}?status=failed`, a);
    expect(failed.body.payload.map((d: { event: string }) => d.event)).toEqual(["conversation_created"]);
    expect((await get(`${inboxLog}?event=message_created`, a)).body.payload).toHaveLength(1);
    expect((await get(`${world.base}/inboxes/${botInbox.id}/deliveries`, a)).body).toMatchObject({ payload: [], meta: { has_more: false } });
  });

  it("shows one delivery with its attempts, and redelivers it with the same delivery id", async () => {
    const failed = inboxDeliveries.find((d: { status: string }) => d.status === "failed");
    const shown = await get(`${inboxLog}/${failed.id}`, a);
    expect(shown.status).toBe(200);
    expect(shown.body.payload).toMatchObject({ id: failed.id, event: "conversation_created", payload: { event: "conversation_created", id: conversation } });
    expect(shown.body.payload.attempt_log).toEqual([expect.objectContaining({ trigger: "automatic", outcome: "failed", status_code: 404 })]);

    callback.answer(200);
    const before = callback.received.length;
    const redelivered = await post(`${inboxLog}/${failed.id}/redeliver`, a);
    expect(redelivered.status).toBe(202);
    expect(redelivered.body.payload).toMatchObject({ id: failed.id, delivery_id: failed.delivery_id, status: "pending" });
    const [again] = (await callback.waitFor(before + 1)).slice(before);
    expect(again.headers.get("webhook-id")).toBe(failed.delivery_id);
    let after = shown;
    for (let i = 0; i < 100 && after.body.payload.status !== "delivered"; i++) {
      await new Promise((r) => setTimeout(r, 25));
      after = await get(`${inboxLog}/${failed.id}`, a);
    }
    expect(after.body.payload).toMatchObject({ status: "delivered", attempts: 2 });
    expect(after.body.payload.attempt_log.map((x: { trigger: string }) => x.trigger)).toEqual(["redelivery", "automatic"]);
  });
});

describe("an agent bot's delivery log", () => {
  it("lists what the bot's outgoing_url was sent, and shows and redelivers one", async () => {
    const message = botDeliveries.find((d: { event: string }) => d.event === "message_created");
    expect(message).toMatchObject({ status: "delivered", attempts: 1 });
    expect(hook.received.map((r) => r.headers.get("webhook-id"))).toContain(message.delivery_id);
    const shown = await get(`${botLog}/${message.id}`, a);
    expect(shown.body.payload).toMatchObject({ event: "message_created", payload: { content: "Hello bot" } });

    const before = hook.received.length;
    expect((await post(`${botLog}/${message.id}/redeliver`, a)).status).toBe(202);
    const [again] = (await hook.waitFor(before + 1)).slice(before);
    expect(again.headers.get("webhook-id")).toBe(message.delivery_id);
  });
});

describe("who may read these logs", () => {
  const routes = () => {
    const inboxDelivery = inboxDeliveries[0].id;
    const botDelivery = botDeliveries[0].id;
    return [
      ["GET", inboxLog],
      ["GET", `${inboxLog}/${inboxDelivery}`],
      ["POST", `${inboxLog}/${inboxDelivery}/redeliver`],
      ["GET", botLog],
      ["GET", `${botLog}/${botDelivery}`],
      ["POST", `${botLog}/${botDelivery}/redeliver`],
    ] as const;
  };
  const send = (method: string, path: string, key: string | null = null) => (method === "GET" ? get(path, key) : post(path, key));

  it("agents get a 403, no key a 401, another account's administrator a 403 on this account's path", async () => {
    for (const [method, path] of routes()) {
      const asAgent = await send(method, path, world.agent.key);
      expect(asAgent.status, `${method} ${path}`).toBe(403);
      expect(asAgent.body.errors[0].code).toBe("administrator_required");
      expect((await send(method, path)).status).toBe(401);
      expect((await send(method, path, other.admin.key)).status).toBe(403);
    }
  });

  it("this account's inbox, bot and deliveries are a 404 through another account's path", async () => {
    for (const [method, path] of routes()) {
      const theirs = path.replace(world.base, other.base);
      const res = await send(method, theirs, other.admin.key);
      expect(res.status, `${method} ${theirs}`).toBe(404);
      expect(res.body.errors[0].code).toBe("not_found");
    }
  });

  it("a delivery is reached only through its own target", async () => {
    const inboxDelivery = inboxDeliveries[0].id;
    const botDelivery = botDeliveries[0].id;
    for (const path of [`${inboxLog}/${botDelivery}`, `${botLog}/${inboxDelivery}`, `${world.base}/inboxes/${botInbox.id}/deliveries/${inboxDelivery}`]) {
      const res = await get(path, a);
      expect(res.status, path).toBe(404);
      expect(res.body.errors[0].field).toBe("delivery_id");
      expect((await post(`${path}/redeliver`, a)).status).toBe(404);
    }
  });

  it("a system bot has no log in an account (it belongs to none), an unknown id is a 404, bad parameters a 422", async () => {
    const systemBot = await made("/platform/api/v1/agent_bots", world.platformKey, { name: "System bot" });
    expect((await get(`${world.base}/agent_bots/${systemBot.id}/deliveries`, a)).status).toBe(404);
    expect((await get(`${world.base}/inboxes/999999/deliveries`, a)).status).toBe(404);
    expect((await get(`${world.base}/agent_bots/999999/deliveries`, a)).status).toBe(404);
    expect((await get(`${inboxLog}?page=0`, a)).body.errors.map((e: { field: string }) => e.field)).toEqual(["page"]);
    expect((await get(`${botLog}?status=lost`, a)).body.errors.map((e: { field: string }) => e.field)).toEqual(["status"]);
    expect((await get(`${botLog}/abc`, a)).status).toBe(422);
    expect((await get(`${world.base}/inboxes/abc/deliveries`, a)).status).toBe(422);
  });
});
