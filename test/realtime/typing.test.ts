import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, post } from "../support/http";
import { conversationRowId } from "../support/fixtures";
import { allShards, directory, shardOf } from "../support/databases";
import { visitorConversation, widgetWorld } from "../public/widget-support";
import { type ConversationRoom, TYPING_TTL_MS, conversationRoom } from "../../src/realtime/conversation-room";
import { agentTicket, openSocket, settle } from "./room-support";

afterEach(() => vi.useRealTimers());

async function typingRoom() {
  const w = await widgetWorld();
  const c = await visitorConversation(w.inbox, { name: "Vera" });
  const contact = await openSocket(`${c.path}/live?pubsub_token=${c.pubsubToken}`);
  const agent = await openSocket((await agentTicket(w.base, w.agent.key, c.displayId)).url);
  return { w, c, contact, agent };
}

/** A webhook subscribed to typing, stored directly: its loopback URL is refused at delivery, so nothing leaves the machine. */
async function typingWebhook(accountId: number) {
  const at = Date.now();
  await (await shardOf(accountId)).prepare("INSERT INTO webhooks (account_id, url, subscriptions, webhook_type, secret, created_at, updated_at) VALUES (?, ?, ?, 0, 's', ?, ?)")
    .bind(accountId, `http://127.0.0.1:9/typing-${at}`, JSON.stringify(["conversation_typing_on", "conversation_typing_off"]), at, at)
    .run();
}

/** The outbox rows of every database (the directory and each shard), counted together. */
async function outboxRowsEverywhere() {
  const counts = await Promise.all([directory(), ...allShards()].map((db) => db.prepare("SELECT count(*) AS n FROM event_outbox").first<{ n: number }>()));
  return { n: counts.reduce((sum, row) => sum + row!.n, 0) };
}

async function typingDeliveries(accountId: number, count: number) {
  for (let i = 0; i < 60; i++) {
    const { results } = await (await shardOf(accountId)).prepare("SELECT event_name, body FROM webhook_deliveries WHERE account_id = ? ORDER BY id").bind(accountId).all<{ event_name: string; body: string }>();
    if (results.length >= count) return results.map((r) => ({ event: r.event_name, body: JSON.parse(r.body) }));
    await settle(100);
  }
  throw new Error("typing deliveries did not arrive");
}

describe("toggle typing", () => {
  it("tells the other side, never the typer, and emits one webhook event per change", async () => {
    const { w, c, contact, agent } = await typingRoom();
    await typingWebhook(w.accountId);
    const outboxBefore = await outboxRowsEverywhere();

    const on = await post(`${c.path}/toggle_typing`, null, { typing_status: "on" });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ conversation_id: c.displayId, typing_status: "on" });
    const frame = await agent.next((f) => f.event === "conversation.typing_on");
    expect(frame.data).toMatchObject({ conversation: { id: c.displayId }, user: { type: "contact", id: c.contactId, name: "Vera" }, is_private: false });
    expect((await post(`${c.path}/toggle_typing`, null, { typing_status: "on" })).status).toBe(200); // repeated within the TTL
    const off = await call("POST", `${c.path}/toggle_typing?typing_status=off`);
    expect(off.status).toBe(200);
    await agent.next((f) => f.event === "conversation.typing_off");
    await settle();
    expect(agent.frames.filter((f) => f.event.startsWith("conversation.typing")).map((f) => f.event)).toEqual(["conversation.typing_on", "conversation.typing_off"]);
    expect(contact.frames.some((f) => f.event.startsWith("conversation.typing"))).toBe(false);

    const deliveries = await typingDeliveries(w.accountId, 2);
    await settle();
    expect(deliveries.map((d) => d.event)).toEqual(["conversation_typing_on", "conversation_typing_off"]);
    expect(deliveries[0].body).toMatchObject({ event: "conversation_typing_on", is_private: false, user: { id: c.contactId, name: "Vera" }, conversation: { id: c.displayId } });
    // typing writes nothing of its own to D1: no outbox rows
    const outboxAfter = await outboxRowsEverywhere();
    expect(outboxAfter!.n).toBe(outboxBefore!.n);
    contact.close();
    agent.close();
  });

  it("takes the account API's toggle_typing_status through the same path; private typing stays among agents", async () => {
    const { w, c, contact, agent } = await typingRoom();
    await typingWebhook(w.accountId);
    const admin = await openSocket((await agentTicket(w.base, w.admin.key, c.displayId)).url);
    const res = await post(`${w.base}/conversations/${c.displayId}/toggle_typing_status`, w.agent.key, { typing_status: "on" });
    expect(res.status).toBe(200);
    expect((await contact.next((f) => f.event === "conversation.typing_on")).data.user).toMatchObject({ type: "user", id: w.agent.id });
    await admin.next((f) => f.event === "conversation.typing_on");
    await post(`${w.base}/conversations/${c.displayId}/toggle_typing_status`, w.admin.key, { typing_status: "on", is_private: true });
    await agent.next((f) => f.event === "conversation.typing_on" && f.data.is_private === true);
    await settle();
    expect(contact.frames.filter((f) => f.event === "conversation.typing_on")).toHaveLength(1);
    expect(agent.frames.some((f) => f.event === "conversation.typing_on" && f.data.user.id === w.agent.id)).toBe(false);
    const deliveries = await typingDeliveries(w.accountId, 2);
    expect(deliveries.map((d) => [d.event, d.body.is_private, d.body.user.type])).toEqual([
      ["conversation_typing_on", false, "user"],
      ["conversation_typing_on", true, "user"],
    ]);
    // the account route checks access like every conversation action
    const stranger = await widgetWorld("Stranger");
    expect((await post(`${w.base}/conversations/${c.displayId}/toggle_typing_status`, stranger.admin.key, { typing_status: "on" })).status).toBe(403);
    expect((await post(`${w.base}/conversations/99999/toggle_typing_status`, w.admin.key, { typing_status: "on" })).status).toBe(404);
    expect((await post(`${w.base}/conversations/${c.displayId}/toggle_typing_status`, w.admin.key, { typing_status: "maybe" })).status).toBe(422);
    for (const s of [contact, agent, admin]) s.close();
  });

  it("refuses a missing or unknown typing_status with a 422 naming it", async () => {
    const w = await widgetWorld();
    const c = await visitorConversation(w.inbox);
    for (const res of [
      await post(`${c.path}/toggle_typing`, null, {}),
      await post(`${c.path}/toggle_typing`, null, { typing_status: "maybe" }),
      await call("POST", `${c.path}/toggle_typing?typing_status=yes`),
      await post(`${c.path}/toggle_typing`, null, { typing_status: true }),
    ]) {
      expect(res.status).toBe(422);
      expect(res.body.errors[0].field).toBe("typing_status");
    }
  });

  it("turns an indicator off by itself after the time-to-live, announcing it", async () => {
    const { w, c, agent } = await typingRoom();
    await post(`${c.path}/toggle_typing`, null, { typing_status: "on" });
    await agent.next((f) => f.event === "conversation.typing_on");
    const stub = conversationRoom(env, w.accountId, await conversationRowId(w.accountId, c.displayId));
    await runInDurableObject(stub, async (instance: ConversationRoom, state) => {
      expect(instance.typing()).toEqual([{ type: "contact", id: c.contactId }]);
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + TYPING_TTL_MS + 1);
      expect(instance.typing()).toEqual([]);
      expect(await instance.expireTyping()).toBe(1);
      // typing is never stored: the room's only keys are the live tickets it has spent
      expect([...(await state.storage.list()).keys()].filter((key) => !key.startsWith("ticket:"))).toEqual([]);
    });
    vi.useRealTimers();
    const off = await agent.next((f) => f.event === "conversation.typing_off");
    expect(off.data.user).toMatchObject({ type: "contact", id: c.contactId });
    agent.close();
  });
});
