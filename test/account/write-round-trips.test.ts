/**
 * What a write costs the database (issue 36): authentication and the write's own batch, 2 round trips as
 * `Server-Timing` reports them, the answer built from what that batch returns. A refused write may cost
 * more (it reads to name what was wrong); its answer and the nothing-changed rule stay as before.
 */
import { describe, expect, it } from "vitest";
import { get, patch, post } from "../support/http";
import { conversationRowId, createInbox, outboxFor } from "../support/fixtures";
import { createWorld } from "../support/world";

const world = await createWorld("Round Trips");
const other = await createWorld("Round Trips Elsewhere");
const inboxId = await createInbox(world.accountId, { name: "Round trips API" });
const foreignInbox = await createInbox(other.accountId);

const roundTrips = (headers: Headers) => Number(/db-round-trips;desc="(\d+)"/.exec(headers.get("server-timing") ?? "")?.[1]);

describe("contact create", () => {
  it("costs 2 round trips and answers the contact as its show route does", async () => {
    const res = await post(`${world.base}/contacts`, world.agent.key, { name: "Two Trips", email: "two.trips@example.com", phone_number: "+14155550111" });
    expect(res.status).toBe(200);
    expect(roundTrips(res.headers)).toBe(2);
    const contact = res.body.payload.contact;
    expect((await get(`${world.base}/contacts/${contact.id}`, world.agent.key)).body.payload).toEqual(contact);
  });

  it("costs 2 round trips with a contact inbox, and answers the inbox", async () => {
    const res = await post(`${world.base}/contacts`, world.agent.key, { name: "With Inbox", inbox_id: inboxId, source_id: "rt-source" });
    expect(res.status).toBe(200);
    expect(roundTrips(res.headers)).toBe(2);
    expect(res.body.payload.contact_inbox).toMatchObject({ source_id: "rt-source", inbox: { id: inboxId, name: "Round trips API" } });
    expect(res.body.payload.contact.contact_inboxes).toEqual([expect.objectContaining({ source_id: "rt-source", inbox: expect.objectContaining({ id: inboxId }) })]);
  });

  it("still names every taken field when the unique index refuses the write, and creates nothing", async () => {
    await post(`${world.base}/contacts`, world.agent.key, { name: "First", email: "taken@example.com", phone_number: "+14155550122" });
    const before = (await get(`${world.base}/contacts`, world.agent.key)).body.meta.count;
    const res = await post(`${world.base}/contacts`, world.agent.key, { name: "Second", email: "taken@example.com", phone_number: "+14155550122" });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["email", "phone_number"]);
    expect((await get(`${world.base}/contacts`, world.agent.key)).body.meta.count).toBe(before);
  });

  it("answers 404 for another account's inbox and leaves no contact behind", async () => {
    const res = await post(`${world.base}/contacts`, world.agent.key, { name: "Foreign", email: "foreign.rt@example.com", inbox_id: foreignInbox });
    expect(res.status).toBe(404);
    expect(res.body.errors[0].field).toBe("inbox_id");
    const search = await get(`${world.base}/contacts/search?q=foreign.rt`, world.agent.key);
    expect(search.body.payload).toEqual([]);
  });
});

describe("contact note create", () => {
  it("costs 2 round trips and answers the note as its show route does", async () => {
    const contact = (await post(`${world.base}/contacts`, world.agent.key, { name: "Noted" })).body.payload.contact;
    const res = await post(`${world.base}/contacts/${contact.id}/notes`, world.agent.key, { content: "Called back" });
    expect(res.status).toBe(200);
    expect(roundTrips(res.headers)).toBe(2);
    expect(res.body).toMatchObject({ content: "Called back", contact_id: contact.id, user: { id: world.agent.id } });
    expect((await get(`${world.base}/contacts/${contact.id}/notes/${res.body.id}`, world.agent.key)).body).toEqual(res.body);
  });

  it("answers 404 for another account's contact and writes no note", async () => {
    const theirs = (await post(`${other.base}/contacts`, other.agent.key, { name: "Theirs" })).body.payload.contact;
    const res = await post(`${world.base}/contacts/${theirs.id}/notes`, world.agent.key, { content: "Sneaky" });
    expect(res.status).toBe(404);
    expect(res.body.description).toMatch(/Contact/);
    expect((await get(`${other.base}/contacts/${theirs.id}/notes`, other.agent.key)).body).toEqual([]);
  });
});

describe("campaign create and update: the answer's reads ride in the write batch", () => {
  // authentication, the checks against the account (inbox, sender, labels), then the write with the
  // sender and inbox its answer shows; an update reads the campaign first
  it("costs 3 round trips to create and 4 to update, answering as the show route does", async () => {
    const widget = (await post(`${world.base}/inboxes`, world.admin.key, { name: "RT Website", channel: { type: "web_widget", website_url: "https://rt.example" } })).body;
    const body = { title: "RT", message: "Hello", inbox_id: widget.id, sender_id: world.admin.id, trigger_rules: { url: "https://rt.example/" } };
    const created = await post(`${world.base}/campaigns`, world.admin.key, body);
    expect(created.status).toBe(200);
    expect(roundTrips(created.headers)).toBe(3);
    expect(created.body).toMatchObject({ inbox: { id: widget.id }, sender: { id: world.admin.id } });
    expect((await get(`${world.base}/campaigns/${created.body.id}`, world.admin.key)).body).toEqual(created.body);
    const updated = await patch(`${world.base}/campaigns/${created.body.id}`, world.admin.key, { title: "RT 2", sender_id: null });
    expect(updated.status).toBe(200);
    expect(roundTrips(updated.headers)).toBe(4);
    expect(updated.body).toMatchObject({ title: "RT 2", sender: null, inbox: { id: widget.id } });
    expect((await get(`${world.base}/campaigns/${created.body.id}`, world.admin.key)).body).toEqual(updated.body);
  });
});

describe("macro create: its people ride in the write batch", () => {
  it("costs 3 round trips (authentication, the actions' checks, the write) and answers as the show route does", async () => {
    const res = await post(`${world.base}/macros`, world.agent.key, { name: "RT macro", actions: [{ action_name: "resolve_conversation" }] });
    expect(res.status).toBe(200);
    expect(roundTrips(res.headers)).toBe(3);
    expect(res.body.payload).toMatchObject({ name: "RT macro", created_by: { id: world.agent.id }, updated_by: { id: world.agent.id } });
    expect((await get(`${world.base}/macros/${res.body.payload.id}`, world.agent.key)).body).toEqual(res.body);
  });
});

describe("message create: what the message does to its conversation is decided in the write batch", () => {
  const contactFor = async (name: string) => (await post(`${world.base}/contacts`, world.admin.key, { name })).body.payload.contact.id as number;
  const openConversation = async (contactId: number) => (await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inboxId, contact_id: contactId })).body;
  const messagesOf = (displayId: number) => `${world.base}/conversations/${displayId}/messages`;
  const shown = async (displayId: number, messageId: number) =>
    (await get(messagesOf(displayId), world.admin.key)).body.payload.find((m: { id: number }) => m.id === messageId);

  it("costs 2 round trips for an agent's first reply, and answers the message as the list shows it", async () => {
    const conversation = await openConversation(await contactFor("First Reply"));
    const res = await post(messagesOf(conversation.id), world.admin.key, { content: "Hello, how can I help?" });
    expect(res.status).toBe(200);
    expect(roundTrips(res.headers)).toBe(2);
    expect(res.body).toEqual(await shown(conversation.id, res.body.id));
    const after = (await get(`${world.base}/conversations/${conversation.id}`, world.admin.key)).body;
    expect(after.first_reply_created_at).toBe(res.body.created_at);
  });

  it("costs 2 round trips for a private note and for a second reply", async () => {
    const conversation = await openConversation(await contactFor("Noted Reply"));
    const note = await post(messagesOf(conversation.id), world.admin.key, { content: "Internal", private: true });
    expect(note.status).toBe(200);
    expect(roundTrips(note.headers)).toBe(2);
    expect(note.body.private).toBe(true);
    await post(messagesOf(conversation.id), world.admin.key, { content: "First" });
    const second = await post(messagesOf(conversation.id), world.admin.key, { content: "Second" });
    expect(roundTrips(second.headers)).toBe(2);
    expect(second.body).toEqual(await shown(conversation.id, second.body.id));
  });

  it("costs 2 round trips for an incoming message that reopens a resolved conversation", async () => {
    const conversation = await openConversation(await contactFor("Reopened"));
    await post(`${world.base}/conversations/${conversation.id}/toggle_status`, world.admin.key, { status: "resolved" });
    const res = await post(messagesOf(conversation.id), world.admin.key, { content: "Me again", message_type: "incoming" });
    expect(res.status).toBe(200);
    expect(roundTrips(res.headers)).toBe(2);
    expect((await get(`${world.base}/conversations/${conversation.id}`, world.admin.key)).body.status).toBe("open");
    // the events decided in the batch carry the old and new values, as those of any other change
    const events = await outboxFor(world.accountId, "Conversation", await conversationRowId(world.accountId, conversation.id));
    const reopened = events.slice(events.findLastIndex((e) => e.event === "conversation_resolved") + 1);
    expect(reopened.map((e) => e.event)).toEqual(["conversation_updated", "conversation_status_changed", "conversation_opened"]);
    const changed = reopened[0].data.changed_attributes;
    expect(changed.map((c: object) => Object.keys(c)[0])).toEqual(["last_activity_at", "status", "waiting_since", "updated_at"]);
    expect(changed[1].status).toEqual({ previous_value: "resolved", current_value: "open" });
    const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
    expect(changed[2].waiting_since.previous_value).toBeNull();
    expect(changed[2].waiting_since.current_value).toMatch(iso);
    expect(changed[2].waiting_since.current_value.slice(0, 19)).toBe(new Date(res.body.created_at * 1000).toISOString().slice(0, 19));
    expect(changed[3].updated_at.current_value).toMatch(iso);
    expect(reopened[0].data.performer).toMatchObject({ type: "User", id: world.admin.id });
    expect(reopened[1].data.changed_attributes).toEqual([{ status: { previous_value: "resolved", current_value: "open" } }]);
  });

  it("still answers 404 for an unknown conversation and 403 for one the agent does not reach, writing nothing", async () => {
    const missing = await post(messagesOf(987654), world.admin.key, { content: "Nobody" });
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].field).toBe("conversation_id");
    const conversation = await openConversation(await contactFor("Out Of Reach"));
    const refused = await post(messagesOf(conversation.id), world.agent.key, { content: "Not mine" });
    expect(refused.status).toBe(403);
    expect((await get(messagesOf(conversation.id), world.admin.key)).body.payload).toEqual([]);
  });
});

describe("conversation create with a first message: the message changes the conversation by the one rule", () => {
  const v2 = `/api/v2/accounts/${world.accountId}`;
  const live = async () => (await get(`${v2}/reports/conversations?type=account`, world.admin.key)).body as { open: number; unattended: number; unassigned: number };
  const contactFor = async (name: string) => (await post(`${world.base}/contacts`, world.admin.key, { name })).body.payload.contact.id as number;

  it("stores a person's first message as the first reply, ends the wait and counts the conversation as attended, in 3 round trips", async () => {
    const before = await live();
    const res = await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inboxId, contact_id: await contactFor("Greeted"), message: { content: "Hello from us" } });
    expect(res.status).toBe(200);
    expect(roundTrips(res.headers)).toBe(3);
    const [message] = res.body.messages;
    expect(message).toMatchObject({ content: "Hello from us", message_type: 1 });
    expect(res.body).toMatchObject({ first_reply_created_at: message.created_at, waiting_since: null, last_activity_at: message.created_at, status: "open" });
    expect((await get(`${world.base}/conversations/${res.body.id}`, world.admin.key)).body).toMatchObject({ first_reply_created_at: message.created_at, waiting_since: null });
    expect(await live()).toEqual({ open: before.open + 1, unattended: before.unattended, unassigned: before.unassigned + 1 });
  });

  it("leaves a conversation without a message waiting and unattended", async () => {
    const before = await live();
    const res = await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inboxId, contact_id: await contactFor("Unanswered") });
    expect(res.status).toBe(200);
    expect(roundTrips(res.headers)).toBe(3);
    expect(res.body).toMatchObject({ first_reply_created_at: null, waiting_since: res.body.created_at, status: "open" });
    expect(await live()).toEqual({ open: before.open + 1, unattended: before.unattended + 1, unassigned: before.unassigned + 1 });
  });
});
