/**
 * The visitor's live stream (docs/widget.md, "The visitor's live stream"): the widget subscribes to
 * `RoomChannel` on `/cable` with its contact inbox's `pubsub_token` alone, as Chatwoot's widget does, and
 * hears its own conversations' public messages, their creation and status, the agents' typing and
 * who is online; never a private note, an activity message, private typing or another visitor's
 * conversation. Driven through the real `@rails/actioncable` client.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type AccountFeed, accountFeed } from "../../src/realtime/account-feed";
import { call, del, patch, post } from "../support/http";
import { createWorld } from "../support/world";
import { addInboxMember } from "../support/fixtures";
import { shardOf } from "../support/databases";
import { type PublicInbox, hmacHex, publicInbox, visitor, visitorConversation } from "../public/widget-support";
import { type Listener, listen, pubsubToken, settle, subscribe } from "../feed/cable-support";

/** An account with a website inbox whose member is the agent (auto-assignment off: assignments are made by hand). */
async function streamWorld(name: string) {
  const world = await createWorld(name);
  const inbox = await publicInbox(world.accountId, "Channel::WebWidget");
  await addInboxMember(world.accountId, inbox.id, world.agent.id);
  await patch(`${world.base}/inboxes/${inbox.id}`, world.admin.key, { enable_auto_assignment: false });
  return { ...world, inbox };
}

/** The widget's subscription: `{channel: "RoomChannel", pubsub_token}` and nothing else. */
async function visitorStream(pubsubToken: string): Promise<Listener> {
  const listener = listen({ pubsub_token: pubsubToken });
  const outcome = await listener.outcome;
  if (outcome !== "confirmed") throw new Error(`visitor subscription ${outcome}`);
  return listener;
}

/** A visitor with a conversation, listening on its stream. */
async function listeningVisitor(inbox: PublicInbox) {
  const c = await visitorConversation(inbox);
  return { c, stream: await visitorStream(c.pubsubToken) };
}

const created = (l: Listener, content: string) => l.messages.filter((m) => m.event === "message.created" && m.data.content === content);

describe("the visitor's subscription", () => {
  it("is confirmed for a contact inbox's pubsub_token, and answered with the account's online agents only", async () => {
    const w = await streamWorld("Stream subscribe");
    const agent = await subscribe(w.agent, w.accountId);
    const v = await visitor(w.inbox);
    const stream = await visitorStream(v.pubsubToken);
    const presence = await stream.next((m) => m.event === "presence.update");
    // a visitor learns who of the agents is online, never which other visitors are
    expect(presence.data).toEqual({ account_id: w.accountId, users: { [w.agent.id]: "online" } });
    stream.perform("update_presence");
    await settle(200);
    expect(stream.messages.filter((m) => m.event === "presence.update").length).toBeGreaterThanOrEqual(2);
    for (const l of [stream, agent]) l.close();
  });

  it("is rejected for a wrong token, an agent's token, another channel, and a visitor's token that names a user", async () => {
    const w = await streamWorld("Stream reject");
    const v = await visitor(w.inbox);
    const attempts = [
      { pubsub_token: "not-a-token" },
      { pubsub_token: "" },
      { pubsub_token: 42 },
      { pubsub_token: await pubsubToken(w.agent.key) },
      { pubsub_token: v.pubsubToken, user_id: w.agent.id, account_id: w.accountId },
    ];
    for (const identifier of attempts) {
      const l = listen(identifier);
      expect(await l.outcome, JSON.stringify(identifier)).toBe("rejected");
      l.close();
    }
    expect(await accountFeed(env, w.accountId).socketCount()).toBe(0);
  });

  it("stops when the contact is deleted, and the token subscribes no more", async () => {
    const w = await streamWorld("Stream revoked");
    const { c, stream } = await listeningVisitor(w.inbox);
    const feed = accountFeed(env, w.accountId);
    const visitorSockets = () => runInDurableObject(feed, (instance: AccountFeed) => instance.listening().contactInboxes.length);
    expect(await visitorSockets()).toBe(1);
    expect((await del(`${w.base}/contacts/${c.contactId}`, w.admin.key)).status).toBe(200);
    await settle(300);
    expect(await visitorSockets()).toBe(0);
    stream.close();
    const again = listen({ pubsub_token: c.pubsubToken });
    expect(await again.outcome).toBe("rejected");
    again.close();
  });

  it("ends when the contact is merged into another, and comes back as the contact it was merged into", async () => {
    const w = await streamWorld("Stream merged");
    const { c, stream } = await listeningVisitor(w.inbox);
    const base = await visitor(w.inbox);
    const feed = accountFeed(env, w.accountId);
    const socketsOf = (contactId: number) =>
      runInDurableObject(feed, (instance: AccountFeed) => (instance as unknown as { ctx: DurableObjectState }).ctx.getWebSockets(`contact:${contactId}`).length);
    expect(await socketsOf(c.contactId)).toBe(1);
    const merged = await post(`${w.base}/actions/contact_merge`, w.admin.key, { base_contact_id: base.contactId, mergee_contact_id: c.contactId });
    expect(merged.status).toBe(200);
    expect(await socketsOf(c.contactId)).toBe(0);
    stream.close();
    // subscribing again (as @rails/actioncable does once its monitor finds the connection closed): the
    // same contact inbox, now the base contact's
    const again = await visitorStream(c.pubsubToken);
    expect(await socketsOf(base.contactId)).toBe(1);
    await post(`${w.base}/conversations/${c.displayId}/messages`, w.agent.key, { content: "still here" });
    expect(created(again, "still here")).toHaveLength(1);
    again.close();
  });

  it("is rejected once the account is suspended", async () => {
    const w = await streamWorld("Stream suspended");
    const v = await visitor(w.inbox);
    const suspended = await call("PATCH", `/platform/api/v1/accounts/${w.accountId}`, { key: w.platformKey, body: { status: "suspended" } });
    expect(suspended.status).toBe(200);
    const l = listen({ pubsub_token: v.pubsubToken });
    expect(await l.outcome).toBe("rejected");
    l.close();
  });

  it("stops with its inbox: a deleted inbox's visitor is rejected", async () => {
    const w = await streamWorld("Stream inbox gone");
    const v = await visitor(w.inbox);
    expect((await del(`${w.base}/inboxes/${w.inbox.id}`, w.admin.key)).status).toBe(200);
    const l = listen({ pubsub_token: v.pubsubToken });
    expect(await l.outcome).toBe("rejected");
    l.close();
  });
});

describe("the frames a visitor hears", () => {
  it("has an agent's reply on the visitor's socket before the agent's own answer, and never a private note", async () => {
    const w = await streamWorld("Stream reply");
    const { c, stream } = await listeningVisitor(w.inbox);
    for (const [i, isPrivate] of [false, true, false, true, false].entries()) {
      const content = `reply ${i}`;
      const res = await post(`${w.base}/conversations/${c.displayId}/messages`, w.agent.key, { content, private: isPrivate });
      expect(res.status).toBe(200);
      // read the moment the answer is in: the frame came first
      expect(created(stream, content), content).toHaveLength(isPrivate ? 0 : 1);
    }
    const reply = created(stream, "reply 0")[0].data;
    expect(reply).toMatchObject({ account_id: w.accountId, conversation_id: c.displayId, message_type: 1, private: false, sender: { id: w.agent.id, type: "user" } });
    expect(reply.sender).not.toHaveProperty("email");
    await settle();
    expect(stream.messages.filter((m) => m.data.private === true)).toEqual([]);
    stream.close();
  });

  it("hears the visitor's own messages, a message's update, and a status change without its activity message", async () => {
    const w = await streamWorld("Stream own");
    const admin = await subscribe(w.admin, w.accountId);
    const { c, stream } = await listeningVisitor(w.inbox);
    expect((await post(`${c.path}/messages`, null, { content: "hello from the page" })).status).toBe(200);
    expect(created(stream, "hello from the page")[0].data).toMatchObject({ message_type: 0, conversation_id: c.displayId, sender: { id: c.contactId, type: "contact" } });

    const reply = await post(`${w.base}/conversations/${c.displayId}/messages`, w.agent.key, { content: "sent by mistake" });
    expect((await del(`${w.base}/conversations/${c.displayId}/messages/${reply.body.id}`, w.agent.key)).status).toBe(200);
    const updated = stream.messages.find((m) => m.event === "message.updated" && m.data.id === reply.body.id);
    expect(updated?.data.content_attributes).toMatchObject({ deleted: true });

    expect((await post(`${w.base}/conversations/${c.displayId}/toggle_status`, w.agent.key, { status: "resolved" })).status).toBe(200);
    const status = stream.messages.find((m) => m.event === "conversation.status_changed");
    expect(status?.data).toMatchObject({ id: c.displayId, status: "resolved", account_id: w.accountId });
    // the conversation as the visitor sees it: no private or activity message, no agents' labels
    for (const m of status!.data.messages) expect(m).toMatchObject({ private: false });
    expect(status!.data.messages.every((m: any) => m.message_type !== 2)).toBe(true);
    await settle();
    // the resolve's activity message reached the agents' feed only
    await admin.next((m) => m.event === "message.created" && m.data.message_type === 2 && m.data.conversation_id === c.displayId);
    expect(stream.messages.filter((m) => m.event === "message.created" && m.data.message_type === 2)).toEqual([]);
    for (const l of [stream, admin]) l.close();
  });

  it("hears the answer to an options message as message.updated with previous_changes, as the widget reads it", async () => {
    const w = await streamWorld("Stream answered");
    const { c, stream } = await listeningVisitor(w.inbox);
    const items = [{ title: "Yes", value: "yes" }, { title: "No", value: "no" }];
    const asked = await post(`${w.base}/conversations/${c.displayId}/messages`, w.agent.key, { content: "Happy?", content_type: "input_select", content_attributes: { items } });
    expect(asked.status).toBe(200);
    const answered = await patch(`${c.path}/messages/${asked.body.id}`, null, { submitted_values: [{ title: "Yes", value: "yes" }] });
    expect(answered.status).toBe(200);
    const frame = stream.messages.find((m) => m.event === "message.updated" && m.data.id === asked.body.id);
    expect(frame?.data.content_attributes.submitted_values).toEqual([{ title: "Yes", value: "yes" }]);
    const [before, after] = frame!.data.previous_changes.content_attributes;
    expect(before).not.toHaveProperty("submitted_values");
    expect(after.submitted_values).toEqual([{ title: "Yes", value: "yes" }]);
    stream.close();
  });

  it("hears a conversation created for it, and nothing of another visitor's or another inbox's conversations", async () => {
    const w = await streamWorld("Stream created");
    const v = await visitor(w.inbox);
    const stream = await visitorStream(v.pubsubToken);
    const other = await visitorConversation(w.inbox);
    const elsewhere = await visitorConversation(await publicInbox(w.accountId, "Channel::WebWidget"));
    const mine = await post(`${v.base}/conversations`, null, {});
    expect(mine.status).toBe(200);
    const frame = stream.messages.find((m) => m.event === "conversation.created");
    expect(frame?.data).toMatchObject({ id: mine.body.id, inbox_id: w.inbox.id, status: "open", account_id: w.accountId });

    for (const c of [other, elsewhere]) {
      await post(`${w.base}/conversations/${c.displayId}/messages`, w.admin.key, { content: `for ${c.sourceId}` });
      await post(`${c.path}/messages`, null, { content: `from ${c.sourceId}` });
      await post(`${w.base}/conversations/${c.displayId}/toggle_typing_status`, w.admin.key, { typing_status: "on" });
      await post(`${w.base}/conversations/${c.displayId}/toggle_status`, w.admin.key, { status: "resolved" });
    }
    await post(`${w.base}/conversations/${mine.body.id}/messages`, w.admin.key, { content: "for you" });
    await stream.next((m) => m.data.content === "for you");
    await settle();
    const heard = stream.messages.filter((m) => m.event !== "presence.update");
    expect(heard.map((m) => m.data.conversation_id ?? m.data.id ?? m.data.conversation?.id)).toEqual(heard.map(() => mine.body.id));
    stream.close();
  });
});

describe("a verified contact's visitors", () => {
  it("hear the contact's conversations of the inbox on every verified device, and an unverified one hears only its own", async () => {
    const w = await streamWorld("Stream verified");
    const hash = await hmacHex(w.inbox.hmacToken, "vip-7");
    const phone = await visitorConversation(w.inbox, { identifier: "vip-7", identifier_hash: hash });
    const laptop = await visitor(w.inbox, { identifier: "vip-7", identifier_hash: hash });
    expect(laptop.contactId).toBe(phone.contactId);
    const stranger = await visitor(w.inbox);
    const [onPhone, onLaptop, onStranger] = await Promise.all([phone, laptop, stranger].map((v) => visitorStream(v.pubsubToken)));
    const res = await post(`${w.base}/conversations/${phone.displayId}/messages`, w.agent.key, { content: "to every device" });
    expect(res.status).toBe(200);
    expect(created(onPhone, "to every device")).toHaveLength(1);
    expect(created(onLaptop, "to every device")).toHaveLength(1);
    await settle();
    expect(created(onStranger, "to every device")).toEqual([]);
    for (const l of [onPhone, onLaptop, onStranger]) l.close();
  });
});

describe("typing and presence", () => {
  it("carries an agent's typing to the visitor (never private typing) and the visitor's typing to the agents", async () => {
    const w = await streamWorld("Stream typing");
    const agent = await subscribe(w.agent, w.accountId);
    const { c, stream } = await listeningVisitor(w.inbox);
    const typing = `${w.base}/conversations/${c.displayId}/toggle_typing_status`;
    // what typing could write: an outbox row, the conversation's row, any of the account's messages
    const shard = await shardOf(w.accountId);
    const written = () =>
      shard
        .prepare(
          "SELECT (SELECT count(*) FROM event_outbox WHERE account_id = ?1) AS events, (SELECT max(updated_at) FROM conversations WHERE account_id = ?1) AS conversations, (SELECT count(*) FROM messages WHERE account_id = ?1) AS messages",
        )
        .bind(w.accountId)
        .first();
    const before = await written();

    expect((await post(typing, w.agent.key, { typing_status: "on", is_private: true })).status).toBe(200);
    expect((await post(typing, w.agent.key, { typing_status: "off", is_private: true })).status).toBe(200);
    expect((await post(typing, w.agent.key, { typing_status: "on" })).status).toBe(200);
    const on = stream.messages.filter((m) => m.event === "conversation.typing_on");
    expect(on).toHaveLength(1);
    expect(on[0].data).toMatchObject({ conversation: { id: c.displayId }, user: { id: w.agent.id, type: "user" }, is_private: false, account_id: w.accountId });
    expect((await post(typing, w.agent.key, { typing_status: "off" })).status).toBe(200);
    expect(stream.messages.filter((m) => m.event === "conversation.typing_off")).toHaveLength(1);

    // the visitor types: the agents hear it, the visitor's own stream does not
    expect((await post(`${c.path}/toggle_typing`, null, { typing_status: "on" })).status).toBe(200);
    const visitorTyping = await agent.next((m) => m.event === "conversation.typing_on" && m.data.user?.type === "contact");
    expect(visitorTyping.data).toMatchObject({ conversation: { id: c.displayId }, user: { id: c.contactId } });
    await post(`${c.path}/toggle_typing`, null, { typing_status: "off" });
    await settle();
    expect(stream.messages.filter((m) => m.event.startsWith("conversation.typing") && m.data.user?.type === "contact")).toEqual([]);
    // typing lives in the room's memory: both ways, nothing was written to D1
    expect(await written()).toEqual(before);
    for (const l of [stream, agent]) l.close();
  });

  it("shows the visitor online to the agents while subscribed, and each agent who comes online to the visitor", async () => {
    const w = await streamWorld("Stream presence");
    const admin = await subscribe(w.admin, w.accountId);
    const v = await visitor(w.inbox);
    const stream = await visitorStream(v.pubsubToken);
    const arrival = await admin.next((m) => m.event === "presence.update" && m.data.contacts?.[v.contactId] === "online");
    expect(arrival.data.users).toEqual({ [w.admin.id]: "online" });
    expect(await accountFeed(env, w.accountId).onlineContacts()).toEqual({ [v.contactId]: "online" });

    const agent = await subscribe(w.agent, w.accountId);
    const told = await stream.next((m) => m.event === "presence.update" && m.data.users[w.agent.id] === "online");
    expect(told.data).toEqual({ account_id: w.accountId, users: { [w.admin.id]: "online", [w.agent.id]: "online" } });

    // update_presence keeps the visitor online; leaving takes them off
    stream.perform("update_presence");
    await settle(200);
    expect(await accountFeed(env, w.accountId).onlineContacts()).toEqual({ [v.contactId]: "online" });
    stream.close();
    await admin.next((m) => m.event === "presence.update" && !(v.contactId in (m.data.contacts ?? {})) && m !== arrival);
    expect(await accountFeed(env, w.accountId).onlineContacts()).toEqual({});
    for (const l of [admin, agent]) l.close();
  });
});

describe("what a visitor's frames show of the agents", () => {
  it("shows the assignee as the agent's public push data and the team as its id and name, never an agent's e-mail or role", async () => {
    const w = await streamWorld("Stream assignee");
    const { c, stream } = await listeningVisitor(w.inbox);
    const team = await post(`${w.base}/teams`, w.admin.key, { name: "Tier 2", description: "the agents' own notes" });
    expect(team.status).toBe(200);
    expect((await post(`${w.base}/teams/${team.body.id}/team_members`, w.admin.key, { user_ids: [w.agent.id] })).status).toBe(200);
    // one assignment names the team, the next the agent (a request with both sets the agent only)
    expect((await post(`${w.base}/conversations/${c.displayId}/assignments`, w.admin.key, { team_id: team.body.id })).status).toBe(200);
    expect((await post(`${w.base}/conversations/${c.displayId}/assignments`, w.admin.key, { assignee_id: w.agent.id })).status).toBe(200);
    expect((await post(`${w.base}/conversations/${c.displayId}/toggle_typing_status`, w.agent.key, { typing_status: "on" })).status).toBe(200);
    expect((await post(`${w.base}/conversations/${c.displayId}/messages`, w.agent.key, { content: "on it" })).status).toBe(200);
    expect((await post(`${w.base}/conversations/${c.displayId}/toggle_status`, w.agent.key, { status: "resolved" })).status).toBe(200);
    await stream.next((m) => m.event === "conversation.status_changed");
    const typing = await stream.next((m) => m.event === "conversation.typing_on");
    const status = stream.messages.find((m) => m.event === "conversation.status_changed")!;
    const pushed = { id: w.agent.id, name: expect.any(String), available_name: expect.any(String), avatar_url: expect.any(String), type: "user", availability_status: expect.any(String), thumbnail: expect.any(String) };
    for (const conversation of [typing.data.conversation, status.data]) {
      expect(conversation.meta.assignee).toEqual(pushed);
      expect(conversation.meta.team).toEqual({ id: team.body.id, name: team.body.name });
    }
    // an e-mail anywhere is the contact's own; no agent's role, confirmation or attributes
    const agentsOnly = ["role", "confirmed", "custom_attributes", "auto_offline", "allow_auto_assign", "description"];
    const walk = (value: unknown, path: string[]): void => {
      if (Array.isArray(value)) return value.forEach((v, i) => walk(v, [...path, String(i)]));
      if (!value || typeof value !== "object") return;
      const agents = ["assignee", "team"].includes(path.at(-1)!) || (value as { type?: unknown }).type === "user";
      for (const [key, v] of Object.entries(value)) {
        const at = [...path, key].join(".");
        if (key === "email") expect(path.at(-1), at).toMatch(/^(sender|contact)$/);
        if (key === "email") expect(agents, at).toBe(false);
        if (agents) expect(agentsOnly, at).not.toContain(key);
        walk(v, [...path, key]);
      }
    };
    const frames = stream.messages.filter((m) => m.event !== "presence.update");
    expect(frames.map((m) => m.event)).toEqual(expect.arrayContaining(["conversation.typing_on", "message.created", "conversation.status_changed"]));
    for (const m of frames) walk(m.data, [m.event]);
    expect(JSON.stringify(frames)).not.toContain(w.agent.email);
    stream.close();
  });
});

describe("what a visitor may send", () => {
  it("has an oversize perform refused, and a burst of update_presence handled a bounded number of times", async () => {
    const w = await streamWorld("Stream flood");
    const v = await visitor(w.inbox);
    const stream = await visitorStream(v.pubsubToken);
    await stream.next((m) => m.event === "presence.update");
    const answers = () => stream.messages.filter((m) => m.event === "presence.update").length;
    const before = answers();
    stream.perform("update_presence", { filler: "x".repeat(20_000) });
    await settle(300);
    expect(answers(), "an oversize perform is not answered").toBe(before);
    for (let i = 0; i < 50; i++) stream.perform("update_presence");
    await settle(500);
    const handled = answers() - before;
    expect(handled).toBeGreaterThanOrEqual(1);
    expect(handled).toBeLessThanOrEqual(2);
    stream.close();
  });

  it("leaves an agent's update_presence at its usual pace answered each time", async () => {
    const w = await streamWorld("Stream agent pace");
    const agent = await subscribe(w.agent, w.accountId);
    await agent.next((m) => m.event === "presence.update");
    const before = agent.messages.filter((m) => m.event === "presence.update").length;
    for (let i = 0; i < 3; i++) {
      agent.perform("update_presence");
      await settle(100);
    }
    await settle(200);
    expect(agent.messages.filter((m) => m.event === "presence.update").length - before).toBe(3);
    agent.close();
  });
});
