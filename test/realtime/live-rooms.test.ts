import { describe, expect, it } from "vitest";
import { post } from "../support/http";
import { shardOf } from "../support/databases";
import { publicInbox, visitorConversation, widgetWorld } from "../public/widget-support";
import { agentTicket, openSocket, settle } from "./room-support";

async function room() {
  const w = await widgetWorld();
  const c = await visitorConversation(w.inbox, { name: "Vera" });
  const contactUrl = `${c.path}/live?pubsub_token=${c.pubsubToken}`;
  const agentUrl = async (key = w.agent.key) => (await agentTicket(w.base, key, c.displayId)).url;
  return { w, c, contactUrl, agentUrl };
}

describe("live rooms", () => {
  it("delivers messages to the contact and the agent, private notes to agents only", async () => {
    const { w, c, contactUrl, agentUrl } = await room();
    const contact = await openSocket(contactUrl);
    const agent = await openSocket(await agentUrl());
    const admin = await openSocket(await agentUrl(w.admin.key));
    await post(`${c.path}/messages`, null, { content: "Hello from Vera" });
    for (const s of [contact, agent, admin]) {
      const frame = await s.next((f) => f.event === "message.created" && f.data.content === "Hello from Vera");
      expect(frame.data).toMatchObject({ message_type: 0, conversation_id: c.displayId, private: false, sender: { type: "contact", id: c.contactId } });
    }
    await post(`${w.base}/conversations/${c.displayId}/messages`, w.agent.key, { content: "internal", private: true });
    await post(`${w.base}/conversations/${c.displayId}/messages`, w.agent.key, { content: "Hi Vera" });
    await contact.next((f) => f.data.content === "Hi Vera");
    await admin.next((f) => f.data.content === "internal");
    expect(contact.frames.some((f) => f.data.content === "internal")).toBe(false);
    const resolved = await post(`${c.path}/toggle_status`, null);
    expect(resolved.status).toBe(200);
    for (const s of [contact, agent]) {
      expect((await s.next((f) => f.event === "conversation.status_changed")).data).toMatchObject({ id: c.displayId, status: "resolved", previous_status: "open" });
    }
    // the agent's status change (an activity message) stays among agents
    expect(contact.frames.some((f) => f.event === "message.created" && f.data.message_type === 2)).toBe(false);
    for (const s of [contact, agent, admin]) s.close();
  });

  it("keeps conversations, contacts, inboxes and accounts apart", async () => {
    const { w, c, contactUrl } = await room();
    const sameContact = await post(`${c.base}/conversations`, null, {});
    const otherContact = await visitorConversation(w.inbox);
    const otherInbox = await visitorConversation(await publicInbox(w.accountId));
    const other = await widgetWorld("Other");
    const otherAccount = await visitorConversation(other.inbox);
    const mine = await openSocket(contactUrl);
    await post(`${c.base}/conversations/${sameContact.body.id}/messages`, null, { content: "other conversation" });
    await post(`${otherContact.path}/messages`, null, { content: "other contact" });
    await post(`${otherInbox.path}/messages`, null, { content: "other inbox" });
    await post(`${otherAccount.path}/messages`, null, { content: "other account" });
    await post(`${c.path}/messages`, null, { content: "mine" });
    await mine.next((f) => f.data.content === "mine");
    await settle();
    expect(mine.frames.filter((f) => f.event === "message.created").map((f) => f.data.content)).toEqual(["mine"]);
    mine.close();
  });

  it("refuses wrong credentials with 401 or 404 and the error body", async () => {
    const { w, c, agentUrl } = await room();
    const other = await visitorConversation(w.inbox);
    const wrongToken = await openSocket(`${c.path}/live?pubsub_token=${other.pubsubToken}`);
    expect(wrongToken.status).toBe(401);
    expect(wrongToken.body.errors[0]).toMatchObject({ field: "pubsub_token", code: "invalid_pubsub_token" });
    expect((await openSocket(`${c.path}/live`)).status).toBe(401);
    const notMine = await openSocket(`${c.base}/conversations/${other.displayId}/live?pubsub_token=${c.pubsubToken}`);
    expect(notMine.status).toBe(404);
    const url = await agentUrl();
    const tampered = await openSocket(url.replace(/\.(\d+)\./, (_m, id) => `.${Number(id) + 1}.`));
    expect(tampered.status).toBe(401);
    expect(tampered.body.errors[0]).toMatchObject({ field: "ticket", code: "invalid_ticket" });
    expect((await openSocket("/api/v1/live?ticket=nonsense")).status).toBe(401);
    expect((await openSocket("/api/v1/live")).status).toBe(401);
    // an agent who is not a member of the inbox gets no ticket
    await (await shardOf(w.accountId)).prepare("DELETE FROM inbox_members WHERE user_id = ?").bind(w.agent.id).run();
    expect((await post(`${w.base}/conversations/${c.displayId}/live_ticket`, w.agent.key)).status).toBe(403);
    // ... and an earlier ticket is refused at the upgrade
    expect((await openSocket(url)).status).toBe(403);
    expect((await post(`${w.base}/conversations/${c.displayId}/live_ticket`, null)).status).toBe(401);
    const stranger = await widgetWorld("Stranger");
    expect((await post(`${w.base}/conversations/${c.displayId}/live_ticket`, stranger.admin.key)).status).toBe(403);
    // a plain GET where a socket is expected
    const plain = await fetchPlain(`${c.path}/live?pubsub_token=${c.pubsubToken}`);
    expect(plain.status).toBe(400);
  });
});

async function fetchPlain(path: string) {
  const { exports } = await import("cloudflare:workers");
  return exports.default.fetch(new Request(`https://desk.test${path}`));
}
