import { eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb, schema } from "../../src/db/client";
import { dispatchPendingEvents } from "../../src/events/dispatch";
import { accountFeed } from "../../src/realtime/account-feed";
import { del, patch, post } from "../support/http";
import { shardOf } from "../support/databases";
import { createTeam } from "../support/fixtures";
import { visitorConversation } from "../public/widget-support";
import { type Listener, feedWorld, settle } from "./cable-support";

/** What a listener heard of a conversation: every event but contacts' and presence. */
const conversationEvents = (l: Listener, displayId: number) =>
  l.messages.filter(
    (m) => !m.event.startsWith("contact.") && m.event !== "presence.update" && (m.data.conversation_id === displayId || m.data.id === displayId || m.data.conversation?.id === displayId),
  );

describe("the live account feed", () => {
  it("sends a conversation's events to administrators and inbox members, never to an agent outside the inbox", async () => {
    const { w, admin, agent, outside, closeAll } = await feedWorld();
    const c = await visitorConversation(w.inbox, { name: "Vera" });
    await post(`${c.path}/messages`, null, { content: "Hello from Vera" });
    for (const l of [admin, agent]) {
      const created = await l.next((m) => m.event === "conversation.created" && m.data.id === c.displayId);
      expect(created.data).toMatchObject({ account_id: w.accountId, inbox_id: w.inbox.id, status: "open", meta: { sender: { id: c.contactId } } });
      const message = await l.next((m) => m.event === "message.created" && m.data.content === "Hello from Vera");
      expect(message.data).toMatchObject({
        account_id: w.accountId,
        conversation_id: c.displayId,
        message_type: 0,
        private: false,
        sender: { type: "contact", id: c.contactId },
        conversation: { unread_count: 1, assignee_id: null },
      });
      expect(typeof message.data.conversation.last_activity_at).toBe("number");
    }
    const note = await post(`${w.base}/conversations/${c.displayId}/messages`, w.agent.key, { content: "internal", private: true });
    expect(note.status).toBe(200);
    const seen = await admin.next((m) => m.event === "message.created" && m.data.content === "internal");
    expect(seen.data).toMatchObject({ private: true, performer: { type: "User", id: w.agent.id } });
    await agent.next((m) => m.data.content === "internal");
    // contacts are the whole account's: the outsider hears of the new contact
    await outside.next((m) => m.event === "contact.created" && m.data.id === c.contactId);
    await settle();
    expect(conversationEvents(outside, c.displayId)).toEqual([]);
    closeAll();
  });

  it("announces assignment, team, status and read changes with the performer, and a team brings its members in", async () => {
    const { w, outsider, admin, agent, outside, closeAll } = await feedWorld("Changes");
    const c = await visitorConversation(w.inbox);
    const path = `${w.base}/conversations/${c.displayId}`;
    expect((await post(`${path}/assignments`, w.admin.key, { assignee_id: w.agent.id })).status).toBe(200);
    const assigned = await agent.next((m) => m.event === "assignee.changed");
    expect(assigned.data).toMatchObject({ id: c.displayId, account_id: w.accountId, meta: { assignee: { id: w.agent.id } }, performer: { type: "User", id: w.admin.id } });
    await admin.next((m) => m.event === "conversation.updated" && m.data.meta?.assignee?.id === w.agent.id);

    const team = await createTeam(w.accountId, "Escalations", [outsider.id]);
    expect((await post(`${path}/assignments`, w.admin.key, { team_id: team })).status).toBe(200);
    for (const l of [admin, agent, outside]) expect((await l.next((m) => m.event === "team.changed")).data).toMatchObject({ id: c.displayId, meta: { team: { id: team } } });

    expect((await post(`${path}/toggle_status`, w.agent.key, { status: "resolved" })).status).toBe(200);
    const status = await outside.next((m) => m.event === "conversation.status_changed");
    expect(status.data).toMatchObject({ id: c.displayId, status: "resolved", performer: { id: w.agent.id } });
    // the resolution's activity message reaches the agents too
    await admin.next((m) => m.event === "message.created" && m.data.message_type === 2 && m.data.conversation_id === c.displayId);

    expect((await post(`${path}/update_last_seen`, w.agent.key)).status).toBe(200);
    const read = await admin.next((m) => m.event === "conversation.read");
    expect(read.data).toMatchObject({ id: c.displayId, performer: { id: w.agent.id } });
    closeAll();
  });

  it("shows what an automation rule changed, from the queue consumer", async () => {
    const { w, admin, agent, closeAll } = await feedWorld("Automation");
    expect((await post(`${w.base}/labels`, w.admin.key, { title: "triage" })).status).toBe(200);
    const rule = await post(`${w.base}/automation_rules`, w.admin.key, {
      name: "Label everything",
      event_name: "conversation_created",
      conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"] }],
      actions: [{ action_name: "add_label", action_params: ["triage"] }, { action_name: "assign_agent", action_params: [w.agent.id] }],
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    const c = await visitorConversation(w.inbox);
    const assigned = await agent.next((m) => m.event === "assignee.changed" && m.data.id === c.displayId, 10_000);
    expect(assigned.data.performer).toMatchObject({ type: "AutomationRule" });
    await admin.next((m) => m.event === "conversation.updated" && m.data.id === c.displayId && m.data.labels?.includes("triage"), 10_000);
    closeAll();
  });

  it("stops at once for an agent removed from the inbox", async () => {
    const { w, admin, agent, closeAll } = await feedWorld("Removal");
    const c = await visitorConversation(w.inbox);
    expect((await del(`${w.base}/inbox_members`, w.admin.key, { inbox_id: w.inbox.id, user_ids: [w.agent.id] })).status).toBe(200);
    await post(`${c.path}/messages`, null, { content: "after the removal" });
    await admin.next((m) => m.data.content === "after the removal");
    await settle();
    expect(agent.messages.some((m) => m.data.content === "after the removal")).toBe(false);
    closeAll();
  });

  it("never echoes typing to the typer", async () => {
    const { w, admin, agent, outside, closeAll } = await feedWorld("Typing");
    const c = await visitorConversation(w.inbox);
    const path = `${w.base}/conversations/${c.displayId}`;
    expect((await post(`${path}/toggle_typing_status`, w.agent.key, { typing_status: "on" })).status).toBe(200);
    const on = await admin.next((m) => m.event === "conversation.typing_on");
    expect(on.data).toMatchObject({ account_id: w.accountId, user: { id: w.agent.id, type: "user" }, conversation: { id: c.displayId }, is_private: false });
    expect((await post(`${path}/toggle_typing_status`, w.agent.key, { typing_status: "off" })).status).toBe(200);
    await admin.next((m) => m.event === "conversation.typing_off");
    // the visitor types too: agents of the conversation hear it
    await post(`${c.path}/toggle_typing`, null, { typing_status: "on" });
    expect((await agent.next((m) => m.event === "conversation.typing_on" && m.data.user.type === "contact")).data.user).toMatchObject({ id: c.contactId });
    await settle();
    expect(agent.messages.filter((m) => m.event.startsWith("conversation.typing") && m.data.user.id === w.agent.id && m.data.user.type === "user")).toEqual([]);
    expect(outside.messages.filter((m) => m.event.startsWith("conversation.typing"))).toEqual([]);
    closeAll();
  });

  it("sends contact changes, merges and deletions to everyone in the account", async () => {
    const { w, admin, outside, closeAll } = await feedWorld("Contacts");
    const base = (await post(`${w.base}/contacts`, w.admin.key, { name: "Base", email: "base@example.com" })).body.payload.contact.id;
    const mergee = (await post(`${w.base}/contacts`, w.admin.key, { name: "Mergee", phone_number: "+4915112345678" })).body.payload.contact.id;
    expect((await patch(`${w.base}/contacts/${base}`, w.admin.key, { name: "Base Renamed" })).status).toBe(200);
    expect((await outside.next((m) => m.event === "contact.updated" && m.data.id === base)).data).toMatchObject({ name: "Base Renamed", type: "contact" });
    expect((await post(`${w.base}/actions/contact_merge`, w.admin.key, { base_contact_id: base, mergee_contact_id: mergee })).status).toBe(200);
    expect((await outside.next((m) => m.event === "contact.merged")).data).toMatchObject({ id: base, phone_number: "+4915112345678" });
    expect((await del(`${w.base}/contacts/${base}`, w.admin.key)).status).toBe(200);
    const deleted = await admin.next((m) => m.event === "contact.deleted");
    expect(deleted.data).toMatchObject({ id: base, name: "Base Renamed", account_id: w.accountId, performer: { id: w.admin.id } });
    closeAll();
  });

  it("sends a frame meant for one user to that user alone", async () => {
    const { w, admin, agent, outside, closeAll } = await feedWorld("Private");
    const { sent } = await accountFeed(env, w.accountId).deliver([{ event: "notification.created", data: { account_id: w.accountId, for: "agent" }, userIds: [w.agent.id] }]);
    expect(sent).toBe(1);
    await agent.next((m) => m.event === "notification.created");
    await settle();
    for (const l of [admin, outside]) expect(l.messages.some((m) => m.event === "notification.created")).toBe(false);
    closeAll();
  });

  it("brings the assignee a notification with the unread count, a mention to the one mentioned, and a read to the reader alone", async () => {
    const { w, admin, agent, outside, closeAll } = await feedWorld("Notified");
    const c = await visitorConversation(w.inbox);
    expect((await post(`${w.base}/conversations/${c.displayId}/assignments`, w.admin.key, { assignee_id: w.agent.id })).status).toBe(200);
    const created = await agent.next((m) => m.event === "notification.created");
    expect(created.data).toMatchObject({
      account_id: w.accountId,
      unread_count: 1,
      count: 1,
      // Chatwoot's primary_actor_id is the conversation's row id; the app opens primary_actor.id, its display id
      notification: { notification_type: "conversation_assignment", primary_actor_type: "Conversation", primary_actor: { id: c.displayId } },
    });
    const mention = `[@Agent](mention://user/${w.agent.id}/Agent) please look`;
    expect((await post(`${w.base}/conversations/${c.displayId}/messages`, w.admin.key, { content: mention, private: true })).status).toBe(200);
    const mentioned = await agent.next((m) => m.event === "conversation.mentioned");
    expect(mentioned.data).toMatchObject({ id: c.displayId, account_id: w.accountId });
    const id = created.data.notification.id;
    expect((await patch(`${w.base}/notifications/${id}`, w.agent.key, {})).status).toBe(200);
    const read = await agent.next((m) => m.event === "notification.updated" && m.data.notification.id === id);
    expect(read.data.notification.read_at).not.toBeNull();
    expect((await del(`${w.base}/notifications/${id}`, w.agent.key)).status).toBe(200);
    const deleted = await agent.next((m) => m.event === "notification.deleted" && m.data.notification.id === id);
    expect(deleted.data.notification).toEqual({ id });
    await settle();
    // the assigner and the others hear the assignment, never the assignee's notifications or mention
    for (const l of [admin, outside]) expect(l.messages.filter((m) => m.event.startsWith("notification.") || m.event === "conversation.mentioned")).toEqual([]);
    closeAll();
  });

  it("shows a change once, even when the cron sends its event again", async () => {
    const { w, admin, closeAll } = await feedWorld("Once");
    const c = await visitorConversation(w.inbox);
    await post(`${c.path}/messages`, null, { content: "only once" });
    await admin.next((m) => m.data.content === "only once");
    const db = createDb(await shardOf(w.accountId));
    // this account's rows were claimed; make them look lost on the way (dispatched long ago, never
    // consumed). Only this account's: the database is shared with other files, whose events would go
    // round the queue again after those files have ended.
    await db.update(schema.eventOutbox).set({ dispatchedAt: 1, consumedAt: null }).where(eq(schema.eventOutbox.accountId, w.accountId));
    expect(await dispatchPendingEvents(db, env.EVENTS, { includeStale: true })).toBeGreaterThan(0);
    await settle(500);
    expect(admin.messages.filter((m) => m.data.content === "only once")).toHaveLength(1);
    closeAll();
  });
});
