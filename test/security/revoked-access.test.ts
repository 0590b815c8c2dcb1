/**
 * Access that ends when it is taken away (issue 31, findings 1, 2 and two of the smaller ones): a live
 * socket opened before a user lost the right to see a conversation (removal from its inbox or team, from
 * the account, a demotion, a sign-out, a key reset) is told why and closed, and hears nothing after; notifications show
 * only conversations the user reaches now; a live ticket opens one socket; a `/cable` connection that
 * never subscribes is closed.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountFeed } from "../../src/realtime/account-feed";
import { SUBSCRIBE_WITHIN_MS } from "../../src/realtime/cable";
import { call, del, get, patch, post, put } from "../support/http";
import { addToAccount, createUser } from "../support/world";
import { addInboxMember, conversationRowId, createTeam } from "../support/fixtures";
import { visitorConversation, widgetWorld } from "../public/widget-support";
import { pubsubToken, settle } from "../feed/cable-support";
import { agentTicket } from "../realtime/room-support";
import { arrivals } from "../support/arrivals";

type Frame = Record<string, any>;

/** A socket seen from the client: every frame it got, and how it closed. */
type Watched = { frames: Frame[]; closed: Promise<{ code: number; reason: string }>; next(match: (f: Frame) => boolean, timeoutMs?: number): Promise<Frame>; send(frame: unknown): void; close(): void };

function watch(ws: WebSocket): Watched {
  const received = arrivals<Frame>("frame");
  let closedWith: (c: { code: number; reason: string }) => void = () => {};
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (closedWith = resolve));
  ws.addEventListener("message", (e) => {
    if (typeof e.data === "string" && e.data.startsWith("{")) received.add(JSON.parse(e.data));
  });
  ws.addEventListener("close", (e) => closedWith({ code: e.code, reason: e.reason }));
  ws.accept();
  return {
    frames: received.items,
    closed,
    next: received.next,
    send: (frame) => ws.send(JSON.stringify(frame)),
    close: () => {
      try {
        ws.close(1000, "done");
      } catch {
        // already closed
      }
    },
  };
}

async function openCable(): Promise<Watched> {
  const res = await exports.default.fetch(new Request("http://desk.test/cable", { headers: { upgrade: "websocket", "sec-websocket-protocol": "actioncable-v1-json" } }));
  return watch(res.webSocket!);
}

/** A raw ActionCable connection with the user's confirmed RoomChannel subscription. */
async function feedSocket(person: { id: number; key: string }, accountId: number) {
  const cable = await openCable();
  const identifier = JSON.stringify({ channel: "RoomChannel", pubsub_token: await pubsubToken(person.key), account_id: accountId, user_id: person.id });
  cable.send({ command: "subscribe", identifier });
  await cable.next((f) => f.identifier === identifier && f.type === "confirm_subscription");
  return cable;
}

/** The user's socket in the conversation's live room, opened with a ticket. */
async function roomSocket(base: string, key: string, displayId: number) {
  const { url } = await agentTicket(base, key, displayId);
  const res = await exports.default.fetch(new Request(`https://desk.test${url}`, { headers: { upgrade: "websocket" } }));
  const socket = watch(res.webSocket!);
  await socket.next((f) => f.event === "room.joined");
  return socket;
}

const heard = (socket: Watched, content: string) => socket.frames.some((f) => (f.message?.data ?? f.data)?.content === content);

/**
 * An account whose conversation the victim sees through `grant` (its inbox, a team, or as administrator),
 * with a feed subscription and a room socket of the victim open.
 */
async function revocationWorld(name: string, grant: "inbox" | "team" | "administrator") {
  const w = await widgetWorld(name);
  await patch(`${w.base}/inboxes/${w.inbox.id}`, w.admin.key, { enable_auto_assignment: false });
  const victim = await createUser(w.platformKey, `${name} Victim`);
  await addToAccount(w.platformKey, w.accountId, victim.id, grant === "administrator" ? "administrator" : "agent");
  const c = await visitorConversation(w.inbox, { name: "Vera" });
  let teamId = 0;
  if (grant === "inbox") await addInboxMember(w.accountId, w.inbox.id, victim.id);
  if (grant === "team") {
    teamId = await createTeam(w.accountId, `${name} team`, [victim.id]);
    expect((await post(`${w.base}/conversations/${c.displayId}/assignments`, w.admin.key, { team_id: teamId })).status).toBe(200);
  }
  const [feed, room] = await Promise.all([feedSocket(victim, w.accountId), roomSocket(w.base, victim.key, c.displayId)]);
  const note = (content: string) => post(`${w.base}/conversations/${c.displayId}/messages`, w.admin.key, { content, private: true });
  // the victim hears a private note while it may
  expect((await note("before the change")).status).toBe(200);
  await feed.next((f) => f.message?.event === "message.created" && f.message.data.content === "before the change");
  await room.next((f) => f.event === "message.created" && f.data.content === "before the change");
  return { w, victim, c, teamId, feed, room, note };
}

type RevocationWorld = Awaited<ReturnType<typeof revocationWorld>>;

const PASSWORD = "Passw0rd!long";

const revocations: Array<{ kind: string; grant: "inbox" | "team" | "administrator"; revoke(r: RevocationWorld): Promise<void>; keyAfter: number[] }> = [
  {
    kind: "removed from the conversation's inbox",
    grant: "inbox",
    revoke: async ({ w, victim }) => expect((await del(`${w.base}/inbox_members`, w.admin.key, { inbox_id: w.inbox.id, user_ids: [victim.id] })).status).toBe(200),
    keyAfter: [403],
  },
  {
    kind: "removed from the conversation's team",
    grant: "team",
    revoke: async ({ w, victim, teamId }) => expect((await del(`${w.base}/teams/${teamId}/team_members`, w.admin.key, { user_ids: [victim.id] })).status).toBe(200),
    keyAfter: [403],
  },
  {
    kind: "removed from the account",
    grant: "inbox",
    revoke: async ({ w, victim }) => expect((await del(`${w.base}/agents/${victim.id}`, w.admin.key)).status).toBe(200),
    keyAfter: [401, 403, 404],
  },
  {
    kind: "demoted from administrator to agent",
    grant: "administrator",
    revoke: async ({ w, victim }) => expect((await patch(`${w.base}/agents/${victim.id}`, w.admin.key, { role: "agent" })).status).toBe(200),
    keyAfter: [403],
  },
  {
    kind: "signed out",
    grant: "inbox",
    revoke: async ({ victim }) => {
      const { email } = (await get("/api/v1/profile", victim.key)).body;
      const signedIn = await post("/auth/sign_in", null, { email, password: PASSWORD });
      expect(signedIn.status).toBe(200);
      const session = { "access-token": signedIn.headers.get("access-token")!, client: signedIn.headers.get("client")!, uid: signedIn.headers.get("uid")! };
      expect((await call("DELETE", "/auth/sign_out", { headers: session })).status).toBe(200);
      expect((await call("GET", "/auth/validate_token", { headers: session })).status).toBe(401);
    },
    // a sign-out ends one client's session, not the key
    keyAfter: [200],
  },
  {
    kind: "whose key was reset",
    grant: "inbox",
    revoke: async ({ w, c, victim }) => {
      const reset = await post("/api/v1/profile/reset_access_token", victim.key);
      expect(reset.status).toBe(200);
      expect(reset.body.access_token).not.toBe(victim.key);
      // the new key works where the old one did
      expect((await get(`${w.base}/conversations/${c.displayId}`, reset.body.access_token)).status).toBe(200);
    },
    // the old key is no key at all
    keyAfter: [401],
  },
];

describe("finding 1: a live socket stops when its user's access ends", () => {
  for (const { kind, grant, revoke, keyAfter } of revocations) {
    it(`closes the feed subscription and the room socket of a user ${kind}, telling why, and sends nothing after`, async () => {
      const r = await revocationWorld(`Revoked ${kind.split(" ")[0]} ${grant}`, grant);
      await revoke(r);
      // told why: ActionCable's disconnect (the client reconnects and is checked afresh), then a close
      await r.feed.next((f) => f.type === "disconnect");
      expect(r.feed.frames.filter((f) => f.type === "disconnect")).toEqual([{ type: "disconnect", reason: "access_changed", reconnect: true }]);
      expect(await r.feed.closed).toEqual({ code: 4003, reason: "access changed" });
      expect(await r.room.closed).toEqual({ code: 4003, reason: "access changed" });
      const [feedFrames, roomFrames] = [r.feed.frames.length, r.room.frames.length];
      // the key already gets its answer on the conversation
      expect(keyAfter).toContain((await get(`${r.w.base}/conversations/${r.c.displayId}`, r.victim.key)).status);
      expect((await r.note("after the change")).status).toBe(200);
      expect((await post(`${r.c.path}/messages`, null, { content: "public after the change" })).status).toBe(200);
      await settle(800);
      expect(r.feed.frames.slice(feedFrames)).toEqual([]);
      expect(r.room.frames.slice(roomFrames)).toEqual([]);
      expect(heard(r.feed, "after the change") || heard(r.room, "after the change")).toBe(false);
      // the feed holds no socket of the victim, and no presence
      expect(await accountFeed(env, r.w.accountId).listeningUsers()).not.toContain(r.victim.id);
      expect(Object.keys(await accountFeed(env, r.w.accountId).onlineUsers())).not.toContain(String(r.victim.id));
    });
  }

  it("closes the sockets of a user whose password changed, and renews the feed's token: the old one is refused", async () => {
    const r = await revocationWorld("New password", "inbox");
    const oldToken = await pubsubToken(r.victim.key);
    const changed = await put("/api/v1/profile", r.victim.key, { password: "N3w-Passw0rd!long", password_confirmation: "N3w-Passw0rd!long", current_password: PASSWORD });
    expect(changed.status).toBe(200);
    expect(await r.feed.closed).toEqual({ code: 4003, reason: "access changed" });
    expect(await r.room.closed).toEqual({ code: 4003, reason: "access changed" });
    expect(changed.body.pubsub_token).not.toBe(oldToken);
    const cable = await openCable();
    const identifier = (token: string) => JSON.stringify({ channel: "RoomChannel", pubsub_token: token, account_id: r.w.accountId, user_id: r.victim.id });
    cable.send({ command: "subscribe", identifier: identifier(oldToken) });
    await cable.next((f) => f.identifier === identifier(oldToken) && f.type === "reject_subscription");
    cable.send({ command: "subscribe", identifier: identifier(changed.body.pubsub_token) });
    await cable.next((f) => f.identifier === identifier(changed.body.pubsub_token) && f.type === "confirm_subscription");
    cable.close();
  });

  it("lets a user who is still a member subscribe again, and then sends only what the new access reaches", async () => {
    const r = await revocationWorld("Resubscribed", "administrator");
    expect((await patch(`${r.w.base}/agents/${r.victim.id}`, r.w.admin.key, { role: "agent" })).status).toBe(200);
    await r.feed.closed;
    const again = await feedSocket(r.victim, r.w.accountId);
    const admin = await feedSocket(r.w.admin, r.w.accountId);
    expect((await r.note("only for those who see it")).status).toBe(200);
    await admin.next((f) => f.message?.data?.content === "only for those who see it");
    await settle(500);
    expect(heard(again, "only for those who see it")).toBe(false);
    // a ticket for the conversation is refused too
    expect((await post(`${r.w.base}/conversations/${r.c.displayId}/live_ticket`, r.victim.key)).status).toBe(403);
    again.close();
    admin.close();
  });

  it("refuses a removed user's subscription and a ticket's socket checked before the change", async () => {
    const r = await revocationWorld("Checked before", "inbox");
    const conversationId = await conversationRowId(r.w.accountId, r.c.displayId);
    const feed = accountFeed(env, r.w.accountId);
    const before = Date.now() - 1;
    await feed.accessChanged([r.victim.id]);
    expect(await feed.roomJoined(r.victim.id, conversationId, before)).toBe(false);
    expect(await feed.roomJoined(r.victim.id, conversationId, Date.now() + 1)).toBe(true);
    await feed.roomLeft(r.victim.id, conversationId);
  });

  it("closes the room sockets of a conversation that leaves a team, and the feed then leaves its frames out", async () => {
    const r = await revocationWorld("Team left", "team");
    const otherTeam = await createTeam(r.w.accountId, "Other team");
    expect((await post(`${r.w.base}/conversations/${r.c.displayId}/assignments`, r.w.admin.key, { team_id: otherTeam })).status).toBe(200);
    expect(await r.room.closed).toEqual({ code: 4003, reason: "access changed" });
    const roomFrames = r.room.frames.length;
    expect((await get(`${r.w.base}/conversations/${r.c.displayId}`, r.victim.key)).status).toBe(403);
    expect((await r.note("after the team left")).status).toBe(200);
    await settle(800);
    expect(r.room.frames.slice(roomFrames)).toEqual([]);
    expect(heard(r.feed, "after the team left")).toBe(false);
    r.feed.close();
  });

  it("closes nothing of the users whose access did not change", async () => {
    const r = await revocationWorld("Bystander", "inbox");
    const admin = await feedSocket(r.w.admin, r.w.accountId);
    const agentRoom = await roomSocket(r.w.base, r.w.agent.key, r.c.displayId);
    expect((await del(`${r.w.base}/inbox_members`, r.w.admin.key, { inbox_id: r.w.inbox.id, user_ids: [r.victim.id] })).status).toBe(200);
    await r.room.closed;
    expect((await r.note("still heard")).status).toBe(200);
    await admin.next((f) => f.message?.data?.content === "still heard");
    await agentRoom.next((f) => f.data?.content === "still heard");
    admin.close();
    agentRoom.close();
  });
});

describe("finding 2: notifications show only conversations the user reaches now", () => {
  it("hides a conversation's notifications and counts from a user removed from its inbox, and shows them again once re-added", async () => {
    const w = await widgetWorld("Notified");
    await patch(`${w.base}/inboxes/${w.inbox.id}`, w.admin.key, { enable_auto_assignment: false });
    const c = await visitorConversation(w.inbox, { name: "Vera" });
    expect((await post(`${w.base}/conversations/${c.displayId}/assignments`, w.admin.key, { assignee_id: w.agent.id })).status).toBe(200);
    expect((await post(`${c.path}/messages`, null, { content: "new for the assignee" })).status).toBe(200);
    const list = () => get(`${w.base}/notifications`, w.agent.key);
    const seen = await list();
    expect(seen.body.data.payload.map((n: any) => n.primary_actor.id)).toEqual([c.displayId]);
    expect(seen.body.data.meta).toMatchObject({ unread_count: 1, count: 1 });
    expect((await get(`${w.base}/notifications/unread_count`, w.agent.key)).body).toBe(1);

    expect((await del(`${w.base}/inbox_members`, w.admin.key, { inbox_id: w.inbox.id, user_ids: [w.agent.id] })).status).toBe(200);
    // a private note written after the removal does not reach the user through the list either
    expect((await post(`${w.base}/conversations/${c.displayId}/messages`, w.admin.key, { content: "secret", private: true })).status).toBe(200);
    const hidden = await get(`${w.base}/notifications?includes[]=read&includes[]=snoozed`, w.agent.key);
    expect(hidden.status).toBe(200);
    expect(hidden.body.data.payload).toEqual([]);
    expect(hidden.body.data.meta).toMatchObject({ unread_count: 0, count: 0 });
    expect((await get(`${w.base}/notifications/unread_count`, w.agent.key)).body).toBe(0);
    expect(JSON.stringify(hidden.body)).not.toContain("secret");

    await addInboxMember(w.accountId, w.inbox.id, w.agent.id);
    const back = await list();
    expect(back.body.data.payload.map((n: any) => n.primary_actor.id)).toEqual([c.displayId]);
    expect(back.body.data.meta).toMatchObject({ unread_count: 1, count: 1 });
    expect((await get(`${w.base}/notifications/unread_count`, w.agent.key)).body).toBe(1);
  });

  it("follows a team's membership and the role: a mention seen through a team goes with the team, and comes back to an administrator", async () => {
    const w = await widgetWorld("Notified team");
    await patch(`${w.base}/inboxes/${w.inbox.id}`, w.admin.key, { enable_auto_assignment: false });
    const member = await createUser(w.platformKey, "Team member");
    await addToAccount(w.platformKey, w.accountId, member.id, "agent");
    const teamId = await createTeam(w.accountId, "Team", [member.id]);
    const c = await visitorConversation(w.inbox, { name: "Vera" });
    expect((await post(`${w.base}/conversations/${c.displayId}/assignments`, w.admin.key, { team_id: teamId })).status).toBe(200);
    expect((await put(`${w.base}/notification_settings`, member.key, { notification_settings: { selected_email_flags: ["email_conversation_mention"], selected_push_flags: [] } })).status).toBe(200);
    const mention = `[@Team member](mention://user/${member.id}/Team%20member) please look`;
    expect((await post(`${w.base}/conversations/${c.displayId}/messages`, w.admin.key, { content: mention, private: true })).status).toBe(200);
    const seen = await get(`${w.base}/notifications`, member.key);
    expect(seen.body.data.payload.map((n: any) => n.primary_actor.id)).toEqual([c.displayId]);
    expect((await del(`${w.base}/teams/${teamId}/team_members`, w.admin.key, { user_ids: [member.id] })).status).toBe(200);
    expect((await get(`${w.base}/notifications`, member.key)).body.data.payload).toEqual([]);
    // made administrator, the user reaches every conversation again
    expect((await patch(`${w.base}/agents/${member.id}`, w.admin.key, { role: "administrator" })).status).toBe(200);
    expect((await get(`${w.base}/notifications`, member.key)).body.data.payload.map((n: any) => n.primary_actor.id)).toEqual([c.displayId]);
  });
});

describe("smaller ones: live tickets and idle /cable connections", () => {
  it("opens one socket with a live ticket: the same ticket again is a 401, even after the first socket closed", async () => {
    const w = await widgetWorld("Ticket once");
    const c = await visitorConversation(w.inbox, { name: "Vera" });
    const { url } = await agentTicket(w.base, w.agent.key, c.displayId);
    const open = () => exports.default.fetch(new Request(`https://desk.test${url}`, { headers: { upgrade: "websocket" } }));
    const first = await open();
    expect(first.status).toBe(101);
    const socket = watch(first.webSocket!);
    await socket.next((f) => f.event === "room.joined");
    for (const again of [await open(), await (socket.close(), settle(200)).then(open)]) {
      expect(again.status).toBe(401);
      expect(again.webSocket).toBeNull();
      expect((await again.json<any>()).errors).toEqual([{ field: "ticket", message: "has been used", code: "invalid_ticket" }]);
    }
    // tickets asked for within the same second differ, and a new ticket opens a new socket
    const [one, two] = await Promise.all([agentTicket(w.base, w.agent.key, c.displayId), agentTicket(w.base, w.agent.key, c.displayId)]);
    expect(one.url).not.toBe(two.url);
    const second = await roomSocket(w.base, w.agent.key, c.displayId);
    second.close();
  });

  it(
    "closes a connection that holds no confirmed subscription after a bounded time, and keeps one that does",
    async () => {
      const w = await widgetWorld("Idle cable");
      const idle = await openCable();
      const busy = await feedSocket(w.agent, w.accountId);
      // one that subscribes with a wrong token holds nothing either
      const refused = await openCable();
      const identifier = JSON.stringify({ channel: "RoomChannel", pubsub_token: "wrong", account_id: w.accountId, user_id: w.agent.id });
      refused.send({ command: "subscribe", identifier });
      await refused.next((f) => f.type === "reject_subscription");
      for (const socket of [idle, refused]) {
        expect(await socket.closed).toEqual({ code: 1000, reason: "no subscription" });
        expect(socket.frames.filter((f) => f.type === "disconnect")).toEqual([{ type: "disconnect", reason: "no_subscription", reconnect: false }]);
      }
      await busy.next((f) => f.type === "ping" && f.message * 1000 > Date.now() - 2000, 5000);
      expect(busy.frames.some((f) => f.type === "disconnect")).toBe(false);
      busy.close();
    },
    SUBSCRIBE_WITHIN_MS + 15_000,
  );
});

/** A contact's socket in its conversation's room, opened as the widget does (the contact inbox's pubsub_token). */
async function contactRoomSocket(c: { path: string; pubsubToken: string }) {
  const res = await exports.default.fetch(new Request(`https://desk.test${c.path}/live?pubsub_token=${c.pubsubToken}`, { headers: { upgrade: "websocket" } }));
  if (!res.webSocket) return { status: res.status, socket: null };
  const socket = watch(res.webSocket);
  await socket.next((f) => f.event === "room.joined");
  return { status: res.status, socket };
}

/** Whether the user's RoomChannel subscription is confirmed on a new connection (the connection is closed after). */
async function subscribes(person: { id: number; key: string }, token: string, accountId: number): Promise<boolean> {
  const cable = await openCable();
  const identifier = JSON.stringify({ channel: "RoomChannel", pubsub_token: token, account_id: accountId, user_id: person.id });
  cable.send({ command: "subscribe", identifier });
  const answer = await cable.next((f) => f.identifier === identifier && (f.type === "confirm_subscription" || f.type === "reject_subscription"));
  cable.close();
  return answer.type === "confirm_subscription";
}

/**
 * An account with every kind of live connection open: the administrator's and the agent's `/cable`
 * subscriptions, the agent's room socket (a live ticket) and the visitor's room socket (the widget's).
 */
async function liveAccount(name: string) {
  const w = await widgetWorld(name);
  await patch(`${w.base}/inboxes/${w.inbox.id}`, w.admin.key, { enable_auto_assignment: false });
  const c = await visitorConversation(w.inbox, { name: "Vera" });
  const tokens = { admin: await pubsubToken(w.admin.key), agent: await pubsubToken(w.agent.key) };
  const [adminFeed, agentFeed, agentRoom, contact] = await Promise.all([
    feedSocket(w.admin, w.accountId),
    feedSocket(w.agent, w.accountId),
    roomSocket(w.base, w.agent.key, c.displayId),
    contactRoomSocket(c),
  ]);
  const contactRoom = contact.socket!;
  expect((await post(`${w.base}/conversations/${c.displayId}/messages`, w.admin.key, { content: "before the suspension" })).status).toBe(200);
  await Promise.all([
    adminFeed.next((f) => f.message?.data?.content === "before the suspension"),
    agentFeed.next((f) => f.message?.data?.content === "before the suspension"),
    agentRoom.next((f) => f.data?.content === "before the suspension"),
    contactRoom.next((f) => f.data?.content === "before the suspension"),
  ]);
  return { w, c, tokens, feeds: [adminFeed, agentFeed], rooms: [agentRoom, contactRoom] };
}

type LiveAccount = Awaited<ReturnType<typeof liveAccount>>;

/** Every live connection of the account was told why and closed, and nothing of the account remains live. */
async function expectAllClosed({ w, feeds, rooms }: LiveAccount) {
  for (const feed of feeds) {
    expect(await feed.closed).toEqual({ code: 4003, reason: "access changed" });
    expect(feed.frames.filter((f) => f.type === "disconnect")).toEqual([{ type: "disconnect", reason: "access_changed", reconnect: true }]);
  }
  for (const room of rooms) expect(await room.closed).toEqual({ code: 4003, reason: "access changed" });
  const feed = accountFeed(env, w.accountId);
  expect(await feed.listeningUsers()).toEqual([]);
  expect(await feed.onlineUsers()).toEqual({});
  expect(await feed.onlineContacts()).toEqual({});
}

describe("issue 31: an account suspended or deleted ends every live connection of the account", () => {
  it("closes every agent's /cable subscription and room socket and the visitor's room socket at a suspension, refuses them while suspended, and lets them back once active", async () => {
    const live = await liveAccount("Suspended live");
    const { w, c, tokens } = live;
    expect((await patch(`/platform/api/v1/accounts/${w.accountId}`, w.platformKey, { status: "suspended" })).status).toBe(200);
    await expectAllClosed(live);
    // nothing opens again while the account is suspended: subscriptions, tickets, the visitor's room
    expect(await subscribes(w.agent, tokens.agent, w.accountId)).toBe(false);
    expect(await subscribes(w.admin, tokens.admin, w.accountId)).toBe(false);
    expect((await post(`${w.base}/conversations/${c.displayId}/live_ticket`, w.agent.key)).status).toBe(403);
    expect((await contactRoomSocket(c)).status).toBe(404);
    // a subscription or room socket whose check began before the suspension is refused by the feed
    const conversationId = await conversationRowId(w.accountId, c.displayId);
    expect(await accountFeed(env, w.accountId).roomJoined(w.agent.id, conversationId, Date.now() - 1_000)).toBe(false);

    expect((await patch(`/platform/api/v1/accounts/${w.accountId}`, w.platformKey, { status: "active" })).status).toBe(200);
    expect(await subscribes(w.admin, tokens.admin, w.accountId)).toBe(true);
    const [agentFeed, agentRoom, contact] = await Promise.all([feedSocket(w.agent, w.accountId), roomSocket(w.base, w.agent.key, c.displayId), contactRoomSocket(c)]);
    expect((await post(`${w.base}/conversations/${c.displayId}/messages`, w.admin.key, { content: "after the reactivation" })).status).toBe(200);
    await Promise.all([
      agentFeed.next((f) => f.message?.data?.content === "after the reactivation"),
      agentRoom.next((f) => f.data?.content === "after the reactivation"),
      contact.socket!.next((f) => f.data?.content === "after the reactivation"),
    ]);
    for (const socket of [agentFeed, agentRoom, contact.socket!]) socket.close();
  });

  it("closes nothing of another account at a suspension", async () => {
    const other = await liveAccount("Not suspended");
    const live = await liveAccount("Suspended beside");
    expect((await patch(`/platform/api/v1/accounts/${live.w.accountId}`, live.w.platformKey, { status: "suspended" })).status).toBe(200);
    await expectAllClosed(live);
    expect((await post(`${other.w.base}/conversations/${other.c.displayId}/messages`, other.w.admin.key, { content: "still live" })).status).toBe(200);
    await Promise.all([...other.feeds.map((s) => s.next((f) => f.message?.data?.content === "still live")), ...other.rooms.map((s) => s.next((f) => f.data?.content === "still live"))]);
    for (const socket of [...other.feeds, ...other.rooms]) socket.close();
  });

  it("closes every live connection of a deleted account", async () => {
    const live = await liveAccount("Deleted live");
    expect((await del(`/platform/api/v1/accounts/${live.w.accountId}`, live.w.platformKey)).status).toBe(200);
    await expectAllClosed(live);
    expect(await subscribes(live.w.agent, live.tokens.agent, live.w.accountId)).toBe(false);
  });
});
