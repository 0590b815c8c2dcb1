/**
 * The desk's core loop, through HTTP: a contact writes, an agent answers, a note is added, the
 * conversation is assigned, labelled, snoozed, reopened by a new message and resolved.
 */
import { describe, expect, it } from "vitest";
import { get, post } from "../support/http";
import { createWorld } from "../support/world";
import { addInboxMember, conversationRowId, createContact, createContactInbox, createInbox, outboxFor } from "../support/fixtures";

const world = await createWorld("Loop Co");
const inboxId = await createInbox(world.accountId, { name: "API desk" });
await addInboxMember(world.accountId, inboxId, world.agent.id);
const contactId = await createContact(world.accountId, { name: "Casey Customer", email: "casey@example.com" });
const { sourceId } = await createContactInbox(world.accountId, contactId, inboxId);

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe("the conversation loop", () => {
  it("runs from the first incoming message to resolution, with every record field", async () => {
    const before = nowSeconds();
    const created = await post(`${world.base}/conversations`, world.agent.key, { source_id: sourceId, additional_attributes: { referer: "https://shop.example/cart" } });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect(created.body).toEqual({
      id: expect.any(Number),
      account_id: world.accountId,
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      inbox_id: inboxId,
      status: "open",
      priority: null,
      messages: [],
      additional_attributes: { referer: "https://shop.example/cart" },
      custom_attributes: {},
      // times never set are null, not 0
      agent_last_seen_at: null,
      assignee_last_seen_at: null,
      contact_last_seen_at: null,
      can_reply: true,
      labels: [],
      muted: false,
      snoozed_until: null,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
      timestamp: expect.any(String),
      last_activity_at: expect.any(Number),
      first_reply_created_at: null,
      waiting_since: expect.any(Number),
      unread_count: 0,
      last_non_activity_message: null,
      sla_policy_id: null,
      applied_sla: null,
      sla_events: [],
      meta: {
        sender: {
          additional_attributes: {},
          availability_status: "offline",
          email: "casey@example.com",
          id: contactId,
          name: "Casey Customer",
          phone_number: null,
          blocked: false,
          identifier: null,
          thumbnail: "",
          custom_attributes: {},
          last_activity_at: null,
          created_at: expect.any(Number),
        },
        channel: "Channel::Api",
        hmac_verified: false,
      },
    });
    expect(created.body.created_at).toBeGreaterThanOrEqual(before);
    expect(created.body.timestamp).toBe(String(created.body.last_activity_at));
    const rowId = await conversationRowId(world.accountId, id);

    // the contact writes (an incoming message through the API inbox)
    const incoming = await post(`${world.base}/conversations/${id}/messages`, world.agent.key, { content: "My order is late", message_type: "incoming" });
    expect(incoming.status).toBe(200);
    expect(incoming.body).toEqual({
      id: expect.any(Number),
      content: "My order is late",
      account_id: world.accountId,
      inbox_id: inboxId,
      conversation_id: id,
      message_type: 0,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
      private: false,
      status: "sent",
      source_id: null,
      content_type: "text",
      content_attributes: {},
      sender_type: "contact",
      sender_id: contactId,
      external_source_ids: {},
      additional_attributes: {},
      processed_message_content: "My order is late",
      sentiment: {},
      conversation: { assignee_id: null, unread_count: 1, last_activity_at: expect.any(Number), contact_inbox: { source_id: sourceId } },
      attachment: null,
      sender: expect.objectContaining({ id: contactId, name: "Casey Customer", type: "contact" }),
    });

    let shown = await get(`${world.base}/conversations/${id}`, world.agent.key);
    expect(shown.body.unread_count).toBe(1);
    expect(shown.body.messages).toHaveLength(1);
    expect(shown.body.messages[0]).toMatchObject({ id: incoming.body.id, message_type: 0, sender_type: "contact" });
    expect(shown.body.last_non_activity_message.id).toBe(incoming.body.id);
    expect(shown.body.first_reply_created_at).toBeNull();
    expect(shown.body.waiting_since).toBeGreaterThan(0);

    // the agent answers: first reply, the wait ends
    const reply = await post(`${world.base}/conversations/${id}/messages`, world.agent.key, { content: "Let me check" });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ message_type: 1, sender_type: "agent", sender_id: world.agent.id, sender: { id: world.agent.id, type: "user" } });
    shown = await get(`${world.base}/conversations/${id}`, world.agent.key);
    expect(shown.body.first_reply_created_at).toBe(reply.body.created_at);
    expect(shown.body.waiting_since).toBeNull();
    expect(shown.body.messages[0].id).toBe(reply.body.id);
    expect(shown.body.last_activity_at).toBe(reply.body.created_at);

    // a private note does not count as a reply and does not end a new wait
    const note = await post(`${world.base}/conversations/${id}/messages`, world.agent.key, { content: "Carrier delay", private: true });
    expect(note.body).toMatchObject({ private: true, message_type: 1 });

    // assigned to the agent
    const assigned = await post(`${world.base}/conversations/${id}/assignments`, world.admin.key, { assignee_id: world.agent.id });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ id: world.agent.id, role: "agent", available_name: "Loop Co Agent", confirmed: expect.any(Boolean), account_id: world.accountId });
    shown = await get(`${world.base}/conversations/${id}`, world.agent.key);
    expect(shown.body.meta.assignee).toMatchObject({ id: world.agent.id, email: world.agent.email });
    expect(shown.body.meta.assignee_type).toBe("User");

    // labelled
    const labelled = await post(`${world.base}/conversations/${id}/labels`, world.agent.key, { labels: ["billing", "vip"] });
    expect(labelled.body).toEqual({ payload: ["billing", "vip"] });
    const replaced = await post(`${world.base}/conversations/${id}/labels`, world.agent.key, { labels: ["vip", "shipping"] });
    expect(replaced.body.payload.sort()).toEqual(["shipping", "vip"]);
    expect((await get(`${world.base}/conversations/${id}/labels`, world.agent.key)).body.payload.sort()).toEqual(["shipping", "vip"]);

    // snoozed until a time
    const wake = nowSeconds() + 3600;
    const snoozed = await post(`${world.base}/conversations/${id}/toggle_status`, world.agent.key, { status: "snoozed", snoozed_until: wake });
    expect(snoozed.body).toEqual({ meta: {}, payload: { success: true, conversation_id: id, current_status: "snoozed", snoozed_until: new Date(wake * 1000).toISOString() } });
    shown = await get(`${world.base}/conversations/${id}`, world.agent.key);
    expect(shown.body).toMatchObject({ status: "snoozed", snoozed_until: wake });
    expect(shown.body.messages[0]).toMatchObject({ message_type: 2, content: "Conversation was snoozed by Loop Co Agent" });
    expect(shown.body.last_non_activity_message.id).toBe(note.body.id);

    // a new message from the contact reopens it and starts a new wait
    const again = await post(`${world.base}/conversations/${id}/messages`, world.agent.key, { content: "Any news?", message_type: "incoming" });
    expect(again.status).toBe(200);
    shown = await get(`${world.base}/conversations/${id}`, world.agent.key);
    expect(shown.body).toMatchObject({ status: "open", snoozed_until: null, labels: ["vip", "shipping"] });
    expect(shown.body.waiting_since).toBe(again.body.created_at);
    expect(shown.body.unread_count).toBe(2);

    // the agent reads it
    const seen = await post(`${world.base}/conversations/${id}/update_last_seen`, world.agent.key);
    expect(seen.body.unread_count).toBe(0);
    expect(seen.body.agent_last_seen_at).toBeGreaterThanOrEqual(again.body.created_at);
    expect(seen.body.assignee_last_seen_at).toBe(seen.body.agent_last_seen_at);
    const unread = await post(`${world.base}/conversations/${id}/unread`, world.agent.key);
    expect(unread.body.agent_last_seen_at).toBe(again.body.created_at - 1);
    expect(unread.body.unread_count).toBeGreaterThan(0);

    // resolved (no status given: open -> resolved)
    const resolved = await post(`${world.base}/conversations/${id}/toggle_status`, world.agent.key, {});
    expect(resolved.body.payload).toMatchObject({ success: true, current_status: "resolved", snoozed_until: null });
    shown = await get(`${world.base}/conversations/${id}`, world.agent.key);
    expect(shown.body).toMatchObject({ status: "resolved", waiting_since: null });

    const events = (await outboxFor(world.accountId, "Conversation", rowId)).map((e) => e.event);
    expect(events).toEqual([
      "conversation_created",
      "conversation_updated", // the first reply (first_reply_created_at, waiting_since)
      "conversation_updated", // assignee
      "assignee_changed", // (the live feed's event)
      "conversation_updated", // labels
      "conversation_updated", // labels replaced
      "conversation_updated", // snoozed
      "conversation_status_changed",
      "conversation_updated", // reopened
      "conversation_status_changed",
      "conversation_opened",
      "conversation_read", // update_last_seen (the live feed's event)
      "conversation_updated", // resolved
      "conversation_status_changed",
      "conversation_resolved",
    ]);
  });
});
