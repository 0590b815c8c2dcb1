import { DurableObject } from "cloudflare:workers";
import type { AssigneeClaim } from "../domain/kernel/ports";
import { announceAgentAvailable } from "../events/agent-available";

/**
 * The live account feed: one Durable Object per account (named by the account id) holds the sockets of
 * the account's subscribed users, each one `RoomChannel` subscription of an ActionCable connection
 * (src/realtime/cable.ts relays the client's connection to it). It sends the frames it is given
 * (src/feed renders them and says who receives each) and keeps the account's presence in memory.
 *
 * - Sockets are accepted with the hibernation API, each tagged with its user and carrying its member in
 *   its attachment, so a frame for a user reaches exactly that user's sockets.
 * - ActionCable clients drop a connection that heard nothing for 6 s, and Rails pings every 3 s: an alarm
 *   pings every socket every 3 s while any is open. That keeps the object awake (and billed for its
 *   duration) for as long as a socket is open; with none, the alarm stops and the object may go.
 * - Presence (who is online, Chatwoot's OnlineStatusTracker) is memory only, with a time-to-live: a
 *   subscription and each `update_presence` mark the user online; storage would cost a write per
 *   heartbeat for a fact worthless after 20 s.
 * - When what a user may see changes (`accessChanged`), the user's sockets close at once with
 *   ACCESS_CHANGED: the feed's, and those of the conversation rooms the user joined, which the rooms
 *   record here (`roomJoined`, `roomLeft`). Whatever the user opens again is checked afresh; one checked
 *   before the change and arriving after it is refused. When the account is suspended or deleted
 *   (`everyoneChanged`), every socket of the account closes so, visitors' too, and its contacts' room
 *   sockets (the rooms record those here as well, `contactSeen`, `contactLeft`).
 * - Visitors subscribe too (the widget's RoomChannel with its contact inbox's `pubsub_token`,
 *   src/domain/widget/stream-access.ts): their sockets are tagged with their contact inbox and contact,
 *   hear the frames addressed to their contact inbox (src/feed says which: their own conversations'
 *   public messages, creation, status and agents' typing), are pinged like the agents', and are told
 *   which agents are online, never which other visitors are. A subscription and each `update_presence`
 *   mark the contact online for the agents. When the contact is deleted or merged into another
 *   (`contactsGone`), its sockets close as a user's do when their access changes.
 * - Auto-assignment decides here (`claimAssignee`), one decision at a time per account, because presence
 *   is here: each inbox's round-robin turns and fair-distribution counts are kept in the object's
 *   storage, so the order survives a restart. An agent who becomes available is announced on the events
 *   queue, whose consumer hands out the conversations waiting for one.
 */

export const PING_INTERVAL_MS = 3_000;
/** Chatwoot's PRESENCE_DURATION; PRESENCE_TTL_SECONDS overrides it (the tests shorten it). */
export const DEFAULT_PRESENCE_TTL_SECONDS = 20;
/**
 * A contact is online while a socket of theirs is open in one of the account's conversation rooms; the
 * rooms say so when it opens and closes, and on its pings (a widget pings every 30 s), so a room that
 * could not say goodbye (its object went away) stops counting after this long.
 */
export const CONTACT_PRESENCE_TTL_MS = 90_000;

export type Availability = "online" | "busy" | "offline";

/** A user's subscription, as the Worker authenticated it (src/domain/identity/feed-access.ts). */
export type UserSubscriber = { type?: "user"; accountId: number; userId: number; role: "administrator" | "agent"; availability: Availability };
/** A visitor's subscription: the contact inbox whose `pubsub_token` it gave (src/domain/widget/stream-access.ts). */
export type VisitorSubscriber = { type: "contact"; accountId: number; contactId: number; contactInboxId: number; inboxId: number };
export type Subscriber = UserSubscriber | VisitorSubscriber;

/**
 * Who a feed socket belongs to: the subscription the Worker authenticated, its identifier, and when its
 * check began (a socket checked before its user's access changed, or its contact went, is refused).
 */
export type FeedMember = Subscriber & { identifier: string; checkedAt: number };

export const isVisitor = (member: Subscriber): member is VisitorSubscriber => member.type === "contact";

/** How a socket closes when its user's access changed: the client is told to open it again, and is checked afresh. */
export const ACCESS_CHANGED = { code: 4003, reason: "access changed" } as const;

/**
 * How long a change of access is remembered, to refuse a socket whose check began before it: far longer
 * than a check and an upgrade take, and a live ticket's lifetime.
 */
const REVOCATION_MEMORY_MS = 60_000;

/**
 * One event for the feed: Chatwoot's event name, its data (with `account_id`), and the users who receive
 * it, or the visitors (by contact inbox) for a frame built for them.
 */
export type FeedFrame = { event: string; data: Record<string, unknown>; userIds: number[]; contactInboxIds?: number[]; except?: number };

/**
 * The feed's check that a socket's Worker relayed the frames sent before it (see `AccountFeed.deliver`):
 * this prefix and a nonce, echoed back by the Worker (src/realtime/cable.ts) and never shown to a client.
 */
export const RELAY_CHECK = "\u0000relayed?";
/**
 * How long a delivery waits for the Workers' echoes: beyond it, a writer answers without them. Only a
 * Worker that hangs with its socket open costs this (a closed socket releases the wait at once); on a
 * loaded machine the echoes of 100 sockets take most of a second.
 */
export const RELAY_WAIT_MS = 5_000;

/** The header that carries the authenticated member from the Worker to the feed (any client copy is replaced). */
export const FEED_MEMBER_HEADER = "x-edgedesk-feed-member";

const userTag = (userId: number) => `user:${userId}`;
const contactInboxTag = (contactInboxId: number) => `contact_inbox:${contactInboxId}`;
const contactTag = (contactId: number) => `contact:${contactId}`;
const memberTags = (member: Subscriber) => (isVisitor(member) ? [contactInboxTag(member.contactInboxId), contactTag(member.contactId)] : [userTag(member.userId)]);
/** What a change of access is remembered by: the user, or the visitor's contact. */
const revocationKey = (member: Subscriber) => (isVisitor(member) ? contactTag(member.contactId) : userTag(member.userId));
/** The conversations (row ids) in whose rooms the user has a socket open. */
const ROOMS_PREFIX = "rooms:";
const roomsKey = (userId: number) => `${ROOMS_PREFIX}${userId}`;
/** A conversation (row id) in whose room a contact has a socket open. */
const CONTACT_ROOM_PREFIX = "contact-room:";
const contactRoomKey = (conversationId: number) => `${CONTACT_ROOM_PREFIX}${conversationId}`;

type PresenceEntry = { until: number; availability: Availability };

/** How long a conversation handed out stays handed out, whatever else asks for it (the assignment is written by then). */
const CLAIM_HOLD_MS = 60_000;
/** Per inbox: user id -> when their last turn came (ms, strictly increasing). */
type Turns = Record<number, number>;
const turnsKey = (inboxId: number) => `turns:${inboxId}`;
/** Per inbox and agent: when each assignment within the fair-distribution window was made. */
const countKey = (inboxId: number, userId: number) => `assigned:${inboxId}:${userId}`;

export class AccountFeed extends DurableObject<Env> {
  private presence = new Map<number, PresenceEntry>();
  /** contact id -> until when they count as online */
  private contacts = new Map<number, number>();
  /** conversation row id -> until when it counts as handed out */
  private claimed = new Map<number, number>();
  /** user or contact tag -> when their access last changed (memory: it matters for seconds; see REVOCATION_MEMORY_MS) */
  private revokedAt = new Map<string, number>();
  /** when everyone's access last ended (a suspension, a deletion); memory, as `revokedAt` */
  private everyoneRevokedAt = -Infinity;
  /** the rooms with a contact's socket already recorded in storage (a contact's pings cost no write) */
  private contactRooms = new Set<number>();
  /** relay check nonce -> the sockets whose Worker has not echoed it yet (see `relayed`) */
  private relays = new Map<string, { sockets: Set<WebSocket>; done: () => void }>();

  private get presenceTtlMs(): number {
    const configured = Number(this.env.PRESENCE_TTL_SECONDS);
    return (Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_PRESENCE_TTL_SECONDS) * 1000;
  }

  /** Accepts the socket of a subscription the Worker authenticated, confirms it and tells it who is online. */
  override async fetch(request: Request): Promise<Response> {
    const member = JSON.parse(request.headers.get(FEED_MEMBER_HEADER) ?? "null") as FeedMember | null;
    if (!member || request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("expected an authenticated WebSocket upgrade", { status: 400 });
    }
    if (this.revokedSince(revocationKey(member), member.checkedAt)) return new Response("the access changed during the check", { status: 409 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, memberTags(member));
    server.serializeAttachment(member);
    server.send(JSON.stringify({ identifier: member.identifier, type: "confirm_subscription" }));
    this.present(server, member);
    await this.keepPinging();
    return new Response(null, { status: 101, webSocket: client });
  }

  /** What a subscription performs (`{action, ...}`); only `update_presence` means something here. */
  override async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer) {
    if (typeof message !== "string") return;
    if (message.startsWith(RELAY_CHECK)) return this.relayHeard(message.slice(RELAY_CHECK.length), socket);
    let action: unknown;
    try {
      action = (JSON.parse(message) as { action?: unknown } | null)?.action;
    } catch {
      return;
    }
    const member = socket.deserializeAttachment() as FeedMember | null;
    if (action !== "update_presence" || !member) return;
    this.present(socket, member);
  }

  override async webSocketClose(socket: WebSocket, code: number, reason: string) {
    this.relayHeard(null, socket);
    try {
      socket.close(code === 1005 ? 1000 : code, reason);
    } catch {
      // already closed
    }
    // a visitor with another socket still open (a second tab) is still online
    const member = socket.deserializeAttachment() as FeedMember | null;
    if (member && isVisitor(member) && this.ctx.getWebSockets(contactTag(member.contactId)).every((other) => other === socket)) this.contactLeft(member.contactId);
  }

  /**
   * A subscription opened or sent `update_presence`: its user or contact is marked online, and it is
   * answered with who is online (an arrival is told to every socket that shows it).
   */
  private present(socket: WebSocket, member: FeedMember) {
    if (isVisitor(member)) {
      this.contactSeen(member.contactId);
      return this.sendPresence(socket, member);
    }
    if (this.markOnline(member, this.presence.get(member.userId)?.availability ?? member.availability)) this.broadcastPresence();
    else this.sendPresence(socket, member);
  }

  /** Pings every socket (ActionCable's keep-alive) and comes back while any socket is open. */
  override async alarm() {
    // someone's presence ran out since the last ping: everyone who sees it hears who is still online
    const [users, contacts] = [this.presence.size, this.contacts.size];
    const usersLeft = Object.keys(this.onlineUsers()).length < users;
    const contactsLeft = Object.keys(this.onlineContacts()).length < contacts;
    if (usersLeft || contactsLeft) this.broadcastPresence({ visitors: usersLeft });
    const sockets = this.ctx.getWebSockets();
    const ping = JSON.stringify({ type: "ping", message: Math.floor(Date.now() / 1000) });
    for (const socket of sockets) trySend(socket, ping);
    if (sockets.length > 0) await this.ctx.storage.setAlarm(Date.now() + PING_INTERVAL_MS);
  }

  /**
   * Sends each frame to the sockets of its users (never to `except`, the typer) and of its visitors'
   * contact inboxes, and answers once the
   * Worker that holds each of those sockets' client has relayed them (`relayed`), so a writer that waits
   * for this answer answers after every subscribed client has its frame; with how many sends, and how
   * many sockets are open (a forwarder that hears none asks before reading, next time).
   */
  async deliver(frames: FeedFrame[]): Promise<{ sent: number; listening: number }> {
    let sent = 0;
    const reached = new Set<WebSocket>();
    for (const frame of frames) {
      const message = { event: frame.event, data: frame.data };
      const tags = [...new Set(frame.userIds)].filter((userId) => userId !== frame.except).map(userTag);
      for (const contactInboxId of new Set(frame.contactInboxIds ?? [])) tags.push(contactInboxTag(contactInboxId));
      for (const tag of tags) {
        for (const socket of this.ctx.getWebSockets(tag)) {
          const member = socket.deserializeAttachment() as FeedMember | null;
          if (member && trySend(socket, JSON.stringify({ identifier: member.identifier, message }))) {
            sent++;
            reached.add(socket);
          }
        }
      }
    }
    await this.relayed(reached);
    return { sent, listening: this.ctx.getWebSockets().length };
  }

  /**
   * Resolves when the Worker behind each socket has echoed a check sent after its frames (a socket's
   * messages keep their order, and the Worker relays each before reading the next), when the socket
   * closed, or after RELAY_WAIT_MS: a Worker that went away delays a writer's answer, never loses it.
   * The check's nonce never reaches a client, so no client can answer for its Worker.
   */
  private relayed(sockets: Set<WebSocket>): Promise<void> {
    if (sockets.size === 0) return Promise.resolve();
    const nonce = crypto.randomUUID();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(finish, RELAY_WAIT_MS);
      const waiting = { sockets: new Set<WebSocket>(), done: finish };
      this.relays.set(nonce, waiting);
      function finish() {
        clearTimeout(timer);
        resolve();
      }
      for (const socket of sockets) if (trySend(socket, RELAY_CHECK + nonce)) waiting.sockets.add(socket);
      this.relayHeard(nonce, null);
    });
  }

  /** A socket's Worker echoed the check `nonce`, or (`nonce` null) the socket closed: no check waits on it any more. */
  private relayHeard(nonce: string | null, socket: WebSocket | null) {
    for (const key of nonce === null ? [...this.relays.keys()] : [nonce]) {
      const waiting = this.relays.get(key);
      if (!waiting) continue;
      if (socket) waiting.sockets.delete(socket);
      if (waiting.sockets.size > 0) continue;
      this.relays.delete(key);
      waiting.done();
    }
  }

  /**
   * The contacts were deleted, or merged into another contact: their visitors' sockets close with
   * ACCESS_CHANGED (the widget subscribes again, checked afresh: a merged contact's visitor comes back as
   * the contact it was merged into, a deleted one is refused), and they leave the presence. A
   * subscription whose check began before this is refused.
   */
  contactsGone(contactIds: number[]): number {
    const at = Date.now();
    let closed = 0;
    let left = false;
    for (const contactId of new Set(contactIds)) {
      this.revokedAt.set(contactTag(contactId), at);
      closed += closeForAccess(this.ctx.getWebSockets(contactTag(contactId)));
      left = this.contacts.delete(contactId) || left;
    }
    if (left) this.broadcastPresence({ visitors: false });
    return closed;
  }

  /**
   * The users' access changed: their feed sockets close with ACCESS_CHANGED (nothing is sent on them
   * after this), they leave the presence, and the answer names the rooms where they have sockets, for
   * the caller to close those (src/ports.ts). A room's own check of a socket before this is refused too.
   */
  async accessChanged(userIds: number[]): Promise<Array<{ userId: number; conversationId: number }>> {
    const at = Date.now();
    for (const [key, when] of this.revokedAt) if (when <= at - REVOCATION_MEMORY_MS) this.revokedAt.delete(key);
    const rooms: Array<{ userId: number; conversationId: number }> = [];
    let left = false;
    for (const userId of new Set(userIds)) {
      this.revokedAt.set(userTag(userId), at);
      closeForAccess(this.ctx.getWebSockets(userTag(userId)));
      left = this.presence.delete(userId) || left;
      const joined = (await this.ctx.storage.get<number[]>(roomsKey(userId))) ?? [];
      for (const conversationId of joined) rooms.push({ userId, conversationId });
      if (joined.length > 0) await this.ctx.storage.delete(roomsKey(userId));
    }
    if (left) this.broadcastPresence();
    return rooms;
  }

  /**
   * The account was suspended or is being deleted: every socket of the feed closes with ACCESS_CHANGED,
   * nobody stays present, and the answer names every room where a user or a contact has a socket, for
   * the caller to close them all (src/ports.ts). A check of any user's socket that began before this is
   * refused.
   */
  async everyoneChanged(): Promise<number[]> {
    this.everyoneRevokedAt = Date.now();
    for (const socket of this.ctx.getWebSockets()) {
      try {
        socket.close(ACCESS_CHANGED.code, ACCESS_CHANGED.reason);
      } catch {
        // already closing
      }
    }
    this.presence.clear();
    this.contacts.clear();
    this.contactRooms.clear();
    const [users, contacts] = await Promise.all([
      this.ctx.storage.list<number[]>({ prefix: ROOMS_PREFIX }),
      this.ctx.storage.list<true>({ prefix: CONTACT_ROOM_PREFIX }),
    ]);
    const rooms = new Set<number>([...[...users.values()].flat(), ...[...contacts.keys()].map((key) => Number(key.slice(CONTACT_ROOM_PREFIX.length)))]);
    const keys = [...users.keys(), ...contacts.keys()];
    // storage deletes take at most 128 keys at a time
    for (let i = 0; i < keys.length; i += 128) await this.ctx.storage.delete(keys.slice(i, i + 128));
    return [...rooms];
  }

  /**
   * A user's socket opened in one of the account's conversation rooms, after a check that began at
   * `checkedAt`: remembered, so that a change of the user's access closes it; false when the access
   * changed since the check (the room then refuses the socket).
   */
  async roomJoined(userId: number, conversationId: number, checkedAt: number): Promise<boolean> {
    if (this.revokedSince(userTag(userId), checkedAt)) return false;
    const joined = (await this.ctx.storage.get<number[]>(roomsKey(userId))) ?? [];
    if (!joined.includes(conversationId)) await this.ctx.storage.put(roomsKey(userId), [...joined, conversationId]);
    return true;
  }

  /** The user's last socket in a conversation's room closed. */
  async roomLeft(userId: number, conversationId: number) {
    const joined = (await this.ctx.storage.get<number[]>(roomsKey(userId))) ?? [];
    const rest = joined.filter((id) => id !== conversationId);
    if (rest.length === joined.length) return;
    if (rest.length > 0) await this.ctx.storage.put(roomsKey(userId), rest);
    else await this.ctx.storage.delete(roomsKey(userId));
  }

  /** The users online now (a live presence within its time-to-live), with their chosen availability. */
  onlineUsers(at = Date.now()): Record<number, Availability> {
    const users: Record<number, Availability> = {};
    for (const [userId, entry] of this.presence) {
      if (entry.until > at) users[userId] = entry.availability;
      else this.presence.delete(userId);
    }
    return users;
  }

  /** The contacts online now, as presence.update's `contacts`. */
  onlineContacts(at = Date.now()): Record<number, "online"> {
    const contacts: Record<number, "online"> = {};
    for (const [contactId, until] of this.contacts) {
      if (until > at) contacts[contactId] = "online";
      else this.contacts.delete(contactId);
    }
    return contacts;
  }

  /**
   * A contact's widget socket opened or pinged in one of the account's rooms (`conversationId`, its row
   * id), or on this feed: an arrival is told to every agent's socket (visitors are not told of each
   * other), and a room is recorded for `everyoneChanged`.
   */
  async contactSeen(contactId: number, conversationId?: number) {
    const arrived = (this.contacts.get(contactId) ?? 0) <= Date.now();
    this.contacts.set(contactId, Date.now() + CONTACT_PRESENCE_TTL_MS);
    if (arrived) this.broadcastPresence({ visitors: false });
    if (conversationId !== undefined && !this.contactRooms.has(conversationId)) {
      await this.ctx.storage.put(contactRoomKey(conversationId), true);
      this.contactRooms.add(conversationId);
    }
  }

  /** A contact's last widget socket in a room (a conversation has one contact: the room has none left), or on this feed, closed. */
  async contactLeft(contactId: number, conversationId?: number) {
    if (this.contacts.delete(contactId)) this.broadcastPresence({ visitors: false });
    if (conversationId !== undefined) {
      this.contactRooms.delete(conversationId);
      await this.ctx.storage.delete(contactRoomKey(conversationId));
    }
  }

  /** The user chose another availability for this account: kept for their presence, and told to every socket. */
  setAvailability(accountId: number, userId: number, availability: Availability) {
    const entry = this.presence.get(userId);
    if (entry && entry.until > Date.now() && entry.availability !== "online" && availability === "online") this.announceAvailable(accountId, userId);
    if (entry) entry.availability = availability;
    for (const socket of this.ctx.getWebSockets(userTag(userId))) {
      const member = socket.deserializeAttachment() as FeedMember | null;
      if (member) socket.serializeAttachment({ ...member, availability });
    }
    this.broadcastPresence();
  }

  /**
   * Auto-assignment's decision (the LiveFeed port's claimAssignee): the candidate to assign, or null. Only
   * agents online now with the availability "online", under the inbox's cap within its window; round
   * robin takes the one whose turn came longest ago (never first, then the lowest id), balanced the one
   * with the fewest open conversations (ties by turn). The turn and the count are stored before the
   * answer, and a conversation is handed out once while its assignment is being written.
   */
  async claimAssignee(claim: AssigneeClaim): Promise<number | null> {
    const at = Date.now();
    for (const [conversationId, until] of this.claimed) if (until <= at) this.claimed.delete(conversationId);
    if (this.claimed.has(claim.conversationId)) return null;
    const online = this.onlineUsers(at);
    const available = claim.candidates.filter((c) => online[c.userId] === "online");
    if (available.length === 0) return null;
    const counts = claim.limit === null ? new Map<string, number[]>() : await this.ctx.storage.get<number[]>(available.map((c) => countKey(claim.inboxId, c.userId)));
    const recent = (userId: number) => (counts.get(countKey(claim.inboxId, userId)) ?? []).filter((t) => t > at - claim.windowMs);
    const eligible = claim.limit === null ? available : available.filter((c) => recent(c.userId).length < claim.limit!);
    if (eligible.length === 0) return null;
    const turns = (await this.ctx.storage.get<Turns>(turnsKey(claim.inboxId))) ?? {};
    const turnOf = (userId: number) => turns[userId] ?? 0;
    const ranked = [...eligible].sort(
      (a, b) =>
        (claim.order === "balanced" ? a.openConversations - b.openConversations : 0) || turnOf(a.userId) - turnOf(b.userId) || a.userId - b.userId,
    );
    const chosen = ranked[0].userId;
    turns[chosen] = Math.max(at, ...Object.values(turns).map((t) => t + 1));
    // the cap's count is kept only under a cap (it then holds at most `limit` times per agent)
    const count = claim.limit === null ? {} : { [countKey(claim.inboxId, chosen)]: [...recent(chosen), at] };
    await this.ctx.storage.put({ [turnsKey(claim.inboxId)]: turns, ...count });
    this.claimed.set(claim.conversationId, at + CLAIM_HOLD_MS);
    return chosen;
  }

  /** The users and the visitors' contact inboxes with an open socket: the forwarder builds frames only for them. */
  listening(): { users: number[]; contactInboxes: number[] } {
    const users = new Set<number>();
    const contactInboxes = new Set<number>();
    for (const socket of this.ctx.getWebSockets()) {
      const member = socket.deserializeAttachment() as FeedMember | null;
      if (member && isVisitor(member)) contactInboxes.add(member.contactInboxId);
      else if (member) users.add(member.userId);
    }
    return { users: [...users], contactInboxes: [...contactInboxes] };
  }

  /** The users with an open socket. */
  listeningUsers(): number[] {
    return this.listening().users;
  }

  /** How many sockets are open (for tests and the bench). */
  socketCount(): number {
    return this.ctx.getWebSockets().length;
  }

  /**
   * Marks the user online for the time-to-live; answers whether they just came online. Chatwoot answers a
   * heartbeat with the presence to that user alone, so others learn of an arrival at their own next
   * heartbeat (up to 20 s); here an arrival or a departure is told to every socket at once.
   */
  private markOnline(member: UserSubscriber, availability: Availability): boolean {
    const arrived = (this.presence.get(member.userId)?.until ?? 0) <= Date.now();
    this.presence.set(member.userId, { until: Date.now() + this.presenceTtlMs, availability });
    if (arrived && availability === "online") this.announceAvailable(member.accountId, member.userId);
    return arrived;
  }

  /** Whether the user's (or contact's) access changed after a check that began at `checkedAt`. */
  private revokedSince(key: string, checkedAt: number): boolean {
    return Math.max(this.revokedAt.get(key) ?? -Infinity, this.everyoneRevokedAt) >= checkedAt;
  }

  /** Conversations waiting in the agent's inboxes can go out now (the queue's consumer hands them out). */
  private announceAvailable(accountId: number, userId: number) {
    this.ctx.waitUntil(
      announceAgentAvailable(this.env.EVENTS, accountId, userId).catch((error) =>
        console.error(JSON.stringify({ level: "error", feed: accountId, announce: String(error) })),
      ),
    );
  }

  /** Tells every socket who is online; visitors only when the agents online changed (`visitors`). */
  private broadcastPresence({ visitors = true } = {}) {
    for (const socket of this.ctx.getWebSockets()) {
      const member = socket.deserializeAttachment() as FeedMember | null;
      if (member && (visitors || !isVisitor(member))) this.sendPresence(socket, member);
    }
  }

  /**
   * Chatwoot's `presence.update`: the account's online users with their status, and, for an agent, its
   * online contacts (a visitor is never told of the others).
   */
  private sendPresence(socket: WebSocket, member: FeedMember) {
    const data = isVisitor(member)
      ? { account_id: member.accountId, users: this.onlineUsers() }
      : { account_id: member.accountId, users: this.onlineUsers(), contacts: this.onlineContacts() };
    trySend(socket, JSON.stringify({ identifier: member.identifier, message: { event: "presence.update", data } }));
  }

  private async keepPinging() {
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + PING_INTERVAL_MS);
  }
}

/** Closes the sockets with ACCESS_CHANGED (nothing is sent on them after); answers how many. */
export function closeForAccess(sockets: WebSocket[]): number {
  for (const socket of sockets) {
    try {
      socket.close(ACCESS_CHANGED.code, ACCESS_CHANGED.reason);
    } catch {
      // already closing
    }
  }
  return sockets.length;
}

function trySend(socket: WebSocket, text: string): boolean {
  try {
    socket.send(text);
    return true;
  } catch {
    return false; // a socket that is closing: its close handler cleans up
  }
}

export function accountFeed(env: Env, accountId: number) {
  return env.ACCOUNT_FEED.getByName(String(accountId));
}

/** The contacts online in the account (an empty list when its feed cannot be reached: presence is a hint). */
export async function onlineContactIds(env: Env, accountId: number): Promise<number[]> {
  try {
    return Object.keys(await accountFeed(env, accountId).onlineContacts()).map(Number);
  } catch (error) {
    console.error(JSON.stringify({ level: "error", presence: accountId, error: String(error) }));
    return [];
  }
}

/**
 * The users live in the account now: one call to its feed, made once by a request that shows agents.
 * A feed that cannot be reached shows everyone offline rather than failing the request.
 */
export async function onlineUserIds(env: Env, accountId: number): Promise<Set<number>> {
  try {
    return new Set(Object.keys(await accountFeed(env, accountId).onlineUsers()).map(Number));
  } catch (error) {
    console.error(JSON.stringify({ level: "error", presence: accountId, error: String(error) }));
    return new Set();
  }
}
