/**
 * API-inbox callbacks and agent bots: each gets what it must (reference §3.1) and nothing else, signed
 * with its own secret, and a final failure does what Chatwoot does.
 */
import { Webhook } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import { createDb } from "../../src/db/client";
import { API_INBOX_EVENTS, eventWithTargets } from "../../src/webhooks/targets";
import { BOT_FAILURE_ACTIVITY } from "../../src/domain/conversations/delivery-failures";
import { connectAgentBot, createContact, createContactInbox } from "../support/fixtures";
import { get, patch, post } from "../support/http";
import { type Receiver, receiver } from "../support/receivers";
import { createWorld } from "../support/world";
import { directory, shardOf } from "../support/databases";

const world = await createWorld("Callback Co");
const a = world.admin.key;

async function apiInbox(name: string, callback: Receiver | null) {
  const res = await post(`${world.base}/inboxes`, a, { name, channel: { type: "api", ...(callback && { webhook_url: callback.url }) } });
  expect(res.status).toBe(200);
  const row = await (await shardOf(world.accountId)).prepare("SELECT c.secret FROM inboxes i JOIN api_channels c ON c.id = i.channel_id WHERE i.id = ?").bind(res.body.id).first<{ secret: string }>();
  return { id: res.body.id as number, secret: row!.secret };
}

async function conversationIn(inboxId: number) {
  const contactId = await createContact(world.accountId, { name: "Casey" });
  const { sourceId } = await createContactInbox(world.accountId, contactId, inboxId);
  const res = await post(`${world.base}/conversations`, a, { source_id: sourceId });
  expect(res.status).toBe(200);
  return { displayId: res.body.id as number, contactId };
}

const settle = () => new Promise((r) => setTimeout(r, 300));

describe("an API inbox's webhook_url", () => {
  it("gets every conversation and message event of its inbox, signed with the channel's secret, and no contact or inbox event", async () => {
    const callback = receiver();
    const inbox = await apiInbox("API desk", callback);
    const elsewhere = await apiInbox("Other desk", null);
    const { displayId, contactId } = await conversationIn(inbox.id);
    await post(`${world.base}/conversations/${displayId}/messages`, a, { content: "Hello", message_type: "incoming" });
    await post(`${world.base}/conversations/${displayId}/toggle_status`, a, { status: "resolved" });
    await patch(`${world.base}/contacts/${contactId}`, a, { name: "Casey Jones" });
    await patch(`${world.base}/inboxes/${inbox.id}`, a, { name: "API desk 2" });
    await conversationIn(elsewhere.id);
    await callback.waitFor(3);
    await settle();

    const events = callback.payloads().map((p) => p.event);
    expect(events).toEqual(expect.arrayContaining(["conversation_created", "message_created", "conversation_status_changed"]));
    for (const event of events) expect(API_INBOX_EVENTS.has(event), event).toBe(true);
    for (const payload of callback.payloads()) {
      const inboxId = payload.inbox_id ?? payload.inbox?.id ?? payload.conversation?.inbox_id;
      expect(inboxId).toBe(inbox.id);
    }
    for (const request of callback.received) expect(() => new Webhook(inbox.secret).verify(request.body, Object.fromEntries(request.headers))).not.toThrow();
  });

  it("marks a message failed with external_error once its callback has failed for good", async () => {
    const callback = receiver().answer((request) => (JSON.parse(request.body).event === "message_created" ? 404 : 200));
    const inbox = await apiInbox("Failing desk", callback);
    const { displayId } = await conversationIn(inbox.id);
    const sent = await post(`${world.base}/conversations/${displayId}/messages`, a, { content: "Will fail", message_type: "outgoing" });
    await callback.waitFor(2);
    let message: { status: string; content_attributes: Record<string, unknown> } | undefined;
    for (let i = 0; i < 100 && message?.status !== "failed"; i++) {
      await new Promise((r) => setTimeout(r, 30));
      const list = await get(`${world.base}/conversations/${displayId}/messages`, a);
      message = list.body.payload.find((m: { id: number }) => m.id === sent.body.id);
    }
    expect(message).toMatchObject({ status: "failed", content_attributes: { external_error: "HTTP 404" } });
    // and, as in Chatwoot, that change is itself a message_updated the callback receives
    await vi.waitUntil(() => callback.payloads().some((p) => p.event === "message_updated"), { timeout: 5000, interval: 20 });
    const updated = callback.payloads().find((p) => p.event === "message_updated");
    expect(updated).toMatchObject({ id: sent.body.id, content_attributes: { external_error: "HTTP 404" } });
  });
});

describe("an agent bot's outgoing_url", () => {
  async function botOn(inboxId: number, hook: Receiver) {
    const bot = await post(`${world.base}/agent_bots`, a, { name: `Bot ${crypto.randomUUID().slice(0, 4)}`, outgoing_url: hook.url });
    expect(bot.status).toBe(200);
    await connectAgentBot(world.accountId, inboxId, bot.body.id);
    const row = await directory().prepare("SELECT secret FROM agent_bots WHERE id = ?").bind(bot.body.id).first<{ secret: string }>();
    return { id: bot.body.id as number, secret: row!.secret };
  }

  it("gets its events from the inbox it serves, once each, signed with the bot's secret", async () => {
    const hook = receiver();
    const inbox = await apiInbox("Bot desk", null);
    const bot = await botOn(inbox.id, hook);
    const { displayId } = await conversationIn(inbox.id);
    await post(`${world.base}/conversations/${displayId}/messages`, a, { content: "Hi bot", message_type: "incoming" });
    await hook.waitFor(1);
    await settle();
    const events = hook.payloads().map((p) => p.event);
    expect(events).toContain("message_created");
    expect(events).not.toContain("conversation_created"); // not a bot event
    expect(events.filter((e) => e === "message_created")).toHaveLength(1);
    for (const request of hook.received) expect(() => new Webhook(bot.secret).verify(request.body, Object.fromEntries(request.headers))).not.toThrow();
  });

  it("that keeps failing on a pending conversation hands it to people: open, with an activity message", async () => {
    const hook = receiver().answer(404);
    const inbox = await apiInbox("Broken bot desk", null);
    await botOn(inbox.id, hook);
    const { displayId } = await conversationIn(inbox.id);
    expect((await get(`${world.base}/conversations/${displayId}`, a)).body.status).toBe("pending");
    await post(`${world.base}/conversations/${displayId}/messages`, a, { content: "Anyone?", message_type: "incoming" });
    await hook.waitFor(1);
    let status = "pending";
    for (let i = 0; i < 100 && status === "pending"; i++) {
      await new Promise((r) => setTimeout(r, 30));
      status = (await get(`${world.base}/conversations/${displayId}`, a)).body.status;
    }
    expect(status).toBe("open");
    const messages = (await get(`${world.base}/conversations/${displayId}/messages`, a)).body.payload;
    expect(messages.map((m: { content: string }) => m.content)).toContain(BOT_FAILURE_ACTIVITY);
  });
});

describe("the receivers of an event", () => {
  it("are those that existed when the change happened, not those made before the consumer ran", async () => {
    const pause = () => new Promise((r) => setTimeout(r, 5));
    const hookAt = async (target: Receiver) => {
      const res = await post(`${world.base}/webhooks`, a, { url: target.url, subscriptions: ["message_created"] });
      expect(res.status).toBe(200);
      return res.body.payload.webhook.id as number;
    };
    const inbox = await apiInbox("Timing desk", null);
    const { displayId } = await conversationIn(inbox.id);
    const before = await hookAt(receiver());
    await pause();
    const sent = await post(`${world.base}/conversations/${displayId}/messages`, a, { content: "Timed", message_type: "incoming" });
    const event = await (await shardOf(world.accountId)).prepare("SELECT id FROM event_outbox WHERE subject_type = 'Message' AND subject_id = ? AND event_name = 'message_created'")
      .bind(sent.body.id)
      .first<{ id: number }>();
    await pause();
    // made after the message, before (in this test) its targets are read again
    const after = await hookAt(receiver());
    const bot = await post(`${world.base}/agent_bots`, a, { name: "Late bot", outgoing_url: receiver().url });
    await connectAgentBot(world.accountId, inbox.id, bot.body.id);

    const found = await eventWithTargets(createDb(await shardOf(world.accountId)), { accountId: world.accountId, eventId: event!.id });
    const targets = found!.targets.map((t) => `${t.type}:${t.id}`);
    expect(targets).toContain(`webhook:${before}`);
    expect(targets).not.toContain(`webhook:${after}`);
    expect(targets).not.toContain(`agent_bot:${bot.body.id}`);
  });
});
