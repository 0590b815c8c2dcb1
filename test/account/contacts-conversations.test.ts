import { beforeAll, describe, expect, it } from "vitest";
import { get, post } from "../support/http";
import { addInboxMember, createInbox } from "../support/fixtures";
import { insertConversation, insertMessage } from "../support/contact-fixtures";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let other: World;

const roundTrips = (headers: Headers) => Number(/db-round-trips;desc="(\d+)"/.exec(headers.get("server-timing") ?? "")?.[1]);
const createContact = async (w: World, body: Record<string, unknown>) => {
  const res = await post(`${w.base}/contacts`, w.admin.key, body);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.payload.contact as { id: number };
};

beforeAll(async () => {
  world = await createWorld("Convos");
  other = await createWorld("Elsewhere");
});

describe("contact conversations", () => {
  it("lists the contact's conversations the caller may see, latest activity first, with the Conversation record", async () => {
    const memberInbox = await createInbox(world.accountId, { name: "Member" });
    const hiddenInbox = await createInbox(world.accountId, { name: "Hidden" });
    await addInboxMember(world.accountId, memberInbox, world.agent.id);
    const contact = await createContact(world, { name: "Talker", email: "talker@example.com" });
    const older = await insertConversation(world.accountId, { inboxId: memberInbox, contactId: contact.id, displayId: 11, lastActivityAt: 1_000_000, assigneeId: world.agent.id });
    await insertConversation(world.accountId, { inboxId: hiddenInbox, contactId: contact.id, displayId: 12, lastActivityAt: 3_000_000 });
    await insertConversation(world.accountId, { inboxId: memberInbox, contactId: contact.id, displayId: 13, lastActivityAt: 2_000_000 });
    await insertMessage(world.accountId, { conversationId: older, inboxId: memberInbox, content: "hello", messageType: 0, senderType: "Contact", senderId: contact.id });
    await insertMessage(world.accountId, { conversationId: older, inboxId: memberInbox, content: "hi there", messageType: 1, senderType: "User", senderId: world.agent.id });
    await insertMessage(world.accountId, { conversationId: older, inboxId: memberInbox, content: "Conversation was resolved", messageType: 2 });
    await post(`${world.base}/contacts/${contact.id}/labels`, world.admin.key, { labels: ["vip"] }); // contact labels are not conversation labels

    const admin = await get(`${world.base}/contacts/${contact.id}/conversations`, world.admin.key);
    expect(admin.status).toBe(200);
    expect(admin.body.payload.map((c: { id: number }) => c.id)).toEqual([12, 13, 11]);
    expect(roundTrips(admin.headers)).toBeLessThanOrEqual(3);

    const agent = await get(`${world.base}/contacts/${contact.id}/conversations`, world.agent.key);
    expect(agent.body.payload.map((c: { id: number }) => c.id)).toEqual([13, 11]);
    const conversation = agent.body.payload[1];
    expect(conversation).toMatchObject({
      id: 11,
      account_id: world.accountId,
      inbox_id: memberInbox,
      status: "open",
      labels: [],
      muted: false,
      can_reply: true,
      unread_count: 1,
      last_activity_at: 1000,
      timestamp: "1000",
      snoozed_until: null,
      priority: null,
      meta: {
        channel: "Channel::Api",
        sender: { id: contact.id, name: "Talker", email: "talker@example.com" },
        assignee: { id: world.agent.id, role: "agent", account_id: world.accountId },
        assignee_type: "User",
        hmac_verified: false,
      },
    });
    expect(conversation.meta.sender).not.toHaveProperty("contact_inboxes");
    expect(conversation.messages).toHaveLength(1);
    expect(conversation.messages[0]).toMatchObject({ content: "Conversation was resolved", message_type: 2, conversation_id: 11, sender: null });
    expect(conversation.last_non_activity_message).toMatchObject({
      content: "hi there",
      message_type: 1,
      sender_type: "agent",
      sender: { id: world.agent.id, type: "user" },
      conversation: { assignee_id: world.agent.id, contact_inbox: { source_id: expect.any(String) } },
    });
    expect(agent.body.payload[0]).toMatchObject({ id: 13, messages: [], last_non_activity_message: null });
    expect(agent.body.payload[0].meta).not.toHaveProperty("assignee");
  });

  it("answers 404 for another account's contact and 403 for another account's key", async () => {
    const theirs = await createContact(other, { email: "theirs@example.com" });
    expect((await get(`${world.base}/contacts/${theirs.id}/conversations`, world.admin.key)).status).toBe(404);
    expect((await get(`${world.base}/contacts/${theirs.id}/conversations`)).status).toBe(401);
    expect((await get(`${other.base}/contacts/${theirs.id}/conversations`, world.admin.key)).status).toBe(403);
  });
});

describe("merge", () => {
  it("moves conversations, contact inboxes and labels to the base contact and deletes the mergee", async () => {
    const inbox = await createInbox(world.accountId, { name: "Merge inbox" });
    const base = await createContact(world, { name: "Base", email: "base@example.com", custom_attributes: { a: "base" } });
    const mergee = await createContact(world, {
      name: "Mergee",
      phone_number: "+15551230000",
      identifier: "mergee",
      custom_attributes: { a: "mergee", b: "mergee" },
      inbox_id: inbox,
      source_id: "mergee-source",
    });
    const conversation = await insertConversation(world.accountId, { inboxId: inbox, contactId: mergee.id, displayId: 21 });
    await insertMessage(world.accountId, { conversationId: conversation, inboxId: inbox, content: "from mergee", messageType: 0, senderType: "Contact", senderId: mergee.id });
    await post(`${world.base}/contacts/${base.id}/labels`, world.admin.key, { labels: ["customer"] });
    await post(`${world.base}/contacts/${mergee.id}/labels`, world.admin.key, { labels: ["customer", "lead"] });
    const countBefore = (await get(`${world.base}/contacts`, world.agent.key)).body.meta.count;

    const res = await post(`${world.base}/actions/contact_merge`, world.admin.key, { base_contact_id: base.id, mergee_contact_id: mergee.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: base.id,
      name: "Base",
      email: "base@example.com",
      phone_number: "+15551230000",
      identifier: "mergee",
      custom_attributes: { a: "base", b: "mergee" },
      contact_inboxes: expect.arrayContaining([expect.objectContaining({ source_id: "mergee-source" })]),
    });
    expect(roundTrips(res.headers)).toBeLessThanOrEqual(3);

    expect((await get(`${world.base}/contacts/${mergee.id}`, world.admin.key)).status).toBe(404);
    expect((await get(`${world.base}/contacts/${base.id}/labels`, world.admin.key)).body.payload).toEqual(["customer", "lead"]);
    const conversations = (await get(`${world.base}/contacts/${base.id}/conversations`, world.admin.key)).body.payload;
    expect(conversations.map((c: { id: number }) => c.id)).toEqual([21]);
    expect(conversations[0].messages[0].sender).toMatchObject({ id: base.id, type: "contact" });
    expect((await get(`${world.base}/contacts`, world.agent.key)).body.meta.count).toBe(countBefore - 1);
  });

  it("refuses merging a contact into itself, and contacts of another account", async () => {
    const mine = await createContact(world, { email: "self@example.com" });
    const same = await post(`${world.base}/actions/contact_merge`, world.admin.key, { base_contact_id: mine.id, mergee_contact_id: mine.id });
    expect(same.status).toBe(422);
    expect(same.body.errors[0].field).toBe("mergee_contact_id");
    const theirs = await createContact(other, { email: "foreign-merge@example.com" });
    const foreign = await post(`${world.base}/actions/contact_merge`, world.admin.key, { base_contact_id: mine.id, mergee_contact_id: theirs.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors[0].field).toBe("mergee_contact_id");
    expect((await get(`${other.base}/contacts/${theirs.id}`, other.admin.key)).status).toBe(200);
    const missing = await post(`${world.base}/actions/contact_merge`, world.admin.key, { base_contact_id: mine.id });
    expect(missing.status).toBe(422);
  });

  it("counts a base contact that becomes resolved by the merge", async () => {
    const before = (await get(`${world.base}/contacts`, world.agent.key)).body.meta.count;
    const base = await createContact(world, { name: "Anonymous visitor" });
    const mergee = await createContact(world, { email: "known@example.com" });
    expect((await get(`${world.base}/contacts`, world.agent.key)).body.meta.count).toBe(before + 1);
    await post(`${world.base}/actions/contact_merge`, world.admin.key, { base_contact_id: base.id, mergee_contact_id: mergee.id });
    const after = await get(`${world.base}/contacts`, world.agent.key);
    expect(after.body.meta.count).toBe(before + 1);
    expect((await get(`${world.base}/contacts/${base.id}`, world.agent.key)).body.payload.email).toBe("known@example.com");
  });
});
