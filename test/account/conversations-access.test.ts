import { describe, expect, it } from "vitest";
import { shardOf } from "../support/databases";
import { call, get, post } from "../support/http";
import { createUser, addToAccount, createWorld } from "../support/world";
import { addInboxMember, createContact, createContactInbox, createInbox, createTeam, outboxFor, conversationRowId, defineConversationAttribute } from "../support/fixtures";

const world = await createWorld("Access Co");
const other = await createWorld("Other Co");
const inboxId = await createInbox(world.accountId);
const hiddenInbox = await createInbox(world.accountId, { name: "Private" });
const widgetInbox = await createInbox(world.accountId, { name: "Widget", channel: "Channel::WebWidget" });
await addInboxMember(world.accountId, inboxId, world.agent.id);
await addInboxMember(world.accountId, widgetInbox, world.agent.id);
const outsider = await createUser(world.platformKey, "Outsider Agent");
await addToAccount(world.platformKey, world.accountId, outsider.id, "agent");
const contactId = await createContact(world.accountId);
const bot = await post("/platform/api/v1/agent_bots", world.platformKey, { name: "Helper", account_id: world.accountId });
const botKey: string = bot.body.access_token;

const open = async (inbox = inboxId, key = world.admin.key) => {
  const res = await post(`${world.base}/conversations`, key, { inbox_id: inbox, contact_id: contactId });
  expect(res.status).toBe(200);
  return res.body.id as number;
};

describe("who may see and act on conversations", () => {
  it("answers 401 without a key and 403 to a member of another account", async () => {
    const id = await open();
    expect((await get(`${world.base}/conversations/${id}`, null)).status).toBe(401);
    expect((await get(`${world.base}/conversations/${id}`, other.admin.key)).status).toBe(403);
    expect((await post(`${world.base}/conversations/${id}/messages`, other.admin.key, { content: "x" })).status).toBe(403);
  });

  it("keeps an agent out of conversations of inboxes they are not a member of", async () => {
    const hidden = await open(hiddenInbox);
    const visible = await open(inboxId);
    expect((await get(`${world.base}/conversations/${hidden}`, world.agent.key)).status).toBe(403);
    const message = await post(`${world.base}/conversations/${hidden}/messages`, world.agent.key, { content: "hi" });
    expect(message.status).toBe(403);
    expect(message.body.errors[0].code).toBe("conversation_not_accessible");
    const listed = await get(`${world.base}/conversations?status=all`, world.agent.key);
    const ids = listed.body.data.payload.map((c: { id: number }) => c.id);
    expect(ids).toContain(visible);
    expect(ids).not.toContain(hidden);
    const outsiderList = await get(`${world.base}/conversations?status=all`, outsider.key);
    expect(outsiderList.body.data).toEqual({ meta: { mine_count: 0, assigned_count: 0, unassigned_count: 0, all_count: 0 }, payload: [] });
    // the admin sees both
    const adminIds = (await get(`${world.base}/conversations?status=all`, world.admin.key)).body.data.payload.map((c: { id: number }) => c.id);
    expect(adminIds).toEqual(expect.arrayContaining([hidden, visible]));
  });

  it("lets a team member act on the team's conversations", async () => {
    const teamId = await createTeam(world.accountId, "escalations", [outsider.id]);
    const id = await open(hiddenInbox);
    expect((await get(`${world.base}/conversations/${id}`, outsider.key)).status).toBe(403);
    const assigned = await post(`${world.base}/conversations/${id}/assignments`, world.admin.key, { team_id: teamId });
    expect(assigned.body).toMatchObject({ id: teamId, name: "escalations", account_id: world.accountId, created_at: expect.stringMatching(/Z$/) });
    expect((await get(`${world.base}/conversations/${id}`, outsider.key)).body.meta.team).toMatchObject({ id: teamId });
  });

  it("lets a bot write messages and toggle status but not list", async () => {
    const id = await open();
    const message = await post(`${world.base}/conversations/${id}/messages`, botKey, { content: "Automated hello" });
    expect(message.status).toBe(200);
    expect(message.body).toMatchObject({ sender_type: "agent_bot", sender: { id: bot.body.id, type: "agent_bot" } });
    const toggled = await post(`${world.base}/conversations/${id}/toggle_status`, botKey, { status: "pending" });
    expect(toggled.body.payload).toMatchObject({ success: true, current_status: "pending" });
    const handoff = await post(`${world.base}/conversations/${id}/toggle_status`, botKey, { status: "open" });
    expect(handoff.body.payload).toMatchObject({ success: null, current_status: "open" });
    const events = (await outboxFor(world.accountId, "Conversation", await conversationRowId(world.accountId, id))).map((e) => e.event);
    expect(events).toContain("conversation_bot_handoff");
    expect((await get(`${world.base}/conversations`, botKey)).status).toBe(403);
    expect((await get(`${world.base}/conversations/${id}/messages`, botKey)).status).toBe(403);
  });

  it("answers 404 for an unknown conversation and 422 for bad ids", async () => {
    expect((await post(`${world.base}/conversations/99999/messages`, world.admin.key, { content: "x" })).status).toBe(404);
    expect((await get(`${world.base}/conversations/abc`, world.admin.key)).status).toBe(422);
    const foreignInbox = await createInbox(other.accountId);
    const res = await post(`${world.base}/conversations`, world.admin.key, { inbox_id: foreignInbox, contact_id: contactId });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ field: "inbox_id", code: "not_found" });
  });

  it("checks assignees against the account and the inbox", async () => {
    const id = await open(hiddenInbox);
    const notMember = await post(`${world.base}/conversations/${id}/assignments`, world.admin.key, { assignee_id: world.agent.id });
    expect(notMember.body.errors[0]).toMatchObject({ field: "assignee_id", code: "not_an_inbox_member" });
    const foreign = await post(`${world.base}/conversations/${id}/assignments`, world.admin.key, { assignee_id: other.agent.id });
    expect(foreign.body.errors[0]).toMatchObject({ field: "assignee_id", code: "not_an_agent" });
    const admin = await post(`${world.base}/conversations/${id}/assignments`, world.admin.key, { assignee_id: world.admin.id });
    expect(admin.body).toMatchObject({ id: world.admin.id, role: "administrator" });
    const unassigned = await post(`${world.base}/conversations/${id}/assignments`, world.admin.key, { assignee_id: null });
    expect(unassigned.body).toBeNull();
  });
});

describe("status, priority and attributes", () => {
  it("moves through every status, self-assigning an agent who opens", async () => {
    const id = await open();
    const to = async (body: object) => (await post(`${world.base}/conversations/${id}/toggle_status`, world.agent.key, body)).body.payload.current_status;
    expect(await to({ status: "pending" })).toBe("pending");
    expect(await to({})).toBe("open");
    expect((await get(`${world.base}/conversations/${id}`, world.agent.key)).body.meta.assignee.id).toBe(world.agent.id);
    expect(await to({})).toBe("resolved");
    expect(await to({})).toBe("open");
    expect(await to({ status: "snoozed" })).toBe("snoozed");
    expect((await get(`${world.base}/conversations/${id}`, world.agent.key)).body.snoozed_until).toBeNull();
    const bad = await post(`${world.base}/conversations/${id}/toggle_status`, world.agent.key, { status: "closed" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("status");
    const badTime = await post(`${world.base}/conversations/${id}/toggle_status`, world.agent.key, { status: "snoozed", snoozed_until: "tomorrow" });
    expect(badTime.body.errors[0].field).toBe("snoozed_until");
  });

  it("sets and clears the priority", async () => {
    const id = await open();
    expect((await post(`${world.base}/conversations/${id}/toggle_priority`, world.agent.key, { priority: "urgent" })).status).toBe(200);
    expect((await get(`${world.base}/conversations/${id}`, world.agent.key)).body.priority).toBe("urgent");
    expect((await call("PATCH", `${world.base}/conversations/${id}`, { key: world.agent.key, body: { priority: "low" } })).body.priority).toBe("low");
    await post(`${world.base}/conversations/${id}/toggle_priority`, world.agent.key, {});
    expect((await get(`${world.base}/conversations/${id}`, world.agent.key)).body.priority).toBeNull();
    expect((await post(`${world.base}/conversations/${id}/toggle_priority`, world.agent.key, { priority: "asap" })).status).toBe(422);
  });

  it("replaces custom attributes, checked against their definitions", async () => {
    await defineConversationAttribute(world.accountId, "plan", 6, ["free", "pro"]);
    const id = await open();
    const bad = await post(`${world.base}/conversations/${id}/custom_attributes`, world.agent.key, { custom_attributes: { plan: "gold" } });
    expect(bad.body.errors[0]).toMatchObject({ field: "custom_attributes.plan", code: "invalid_value" });
    await post(`${world.base}/conversations/${id}/custom_attributes`, world.agent.key, { custom_attributes: { plan: "pro", note: "x" } });
    const ok = await post(`${world.base}/conversations/${id}/custom_attributes`, world.agent.key, { custom_attributes: { plan: "free" } });
    expect(ok.body).toEqual({ custom_attributes: { plan: "free" } });
    const updates = (await outboxFor(world.accountId, "Conversation", await conversationRowId(world.accountId, id))).filter((e) => e.event === "conversation_updated");
    expect(updates.at(-1)!.data.changed_attributes[0]).toEqual({ custom_attributes: { previous_value: { plan: "pro", note: "x" }, current_value: { plan: "free" } } });
  });

  it("mutes (resolving, blocking the contact) and unmutes", async () => {
    const mutedContact = await createContact(world.accountId, { name: "Loud" });
    const res = await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inboxId, contact_id: mutedContact });
    const id = res.body.id;
    expect((await post(`${world.base}/conversations/${id}/mute`, world.agent.key)).status).toBe(200);
    const muted = await get(`${world.base}/conversations/${id}`, world.agent.key);
    expect(muted.body).toMatchObject({ muted: true, status: "resolved" });
    // a muted contact's message does not reopen the conversation
    await post(`${world.base}/conversations/${id}/messages`, world.agent.key, { content: "hello?", message_type: "incoming" });
    expect((await get(`${world.base}/conversations/${id}`, world.agent.key)).body.status).toBe("resolved");
    await post(`${world.base}/conversations/${id}/unmute`, world.agent.key);
    expect((await get(`${world.base}/conversations/${id}`, world.agent.key)).body.muted).toBe(false);
  });

  it("refuses incoming messages outside API inboxes", async () => {
    const id = await open(widgetInbox);
    const res = await post(`${world.base}/conversations/${id}/messages`, world.agent.key, { content: "x", message_type: "incoming" });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ field: "message_type", code: "incoming_not_allowed" });
  });

  it("creates by source id, reusing the contact inbox", async () => {
    const { sourceId } = await createContactInbox(world.accountId, contactId, inboxId, "crm-42");
    const res = await post(`${world.base}/conversations`, world.agent.key, { source_id: sourceId, message: { content: "We received your order" } });
    expect(res.status).toBe(200);
    expect(res.body.messages[0]).toMatchObject({ content: "We received your order", message_type: 1, conversation: { contact_inbox: { source_id: "crm-42" } } });
    expect(res.body.first_reply_created_at).toBeGreaterThan(0);
    const unknown = await post(`${world.base}/conversations`, world.agent.key, { source_id: "nope" });
    expect(unknown.body.errors[0]).toMatchObject({ field: "source_id", code: "not_found" });
    const none = await post(`${world.base}/conversations`, world.agent.key, {});
    expect(none.body.errors[0].field).toBe("source_id");
    const rows = await (await shardOf(world.accountId)).prepare("SELECT count(*) AS n FROM contact_inboxes WHERE source_id = 'crm-42'").first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });
});
