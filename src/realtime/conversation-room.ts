import { DurableObject } from "cloudflare:workers";
import type { Participant, TypingContext } from "../domain/kernel/ports";
import { sendTypingEvent } from "../events/live";
import { accountFeed, closeForAccess } from "./account-feed";

/**
 * A typing indicator left on expires after this long without a new "on": clients re-send "on" while
 * the person keeps typing, and a client that vanishes without "off" stops showing as typing by itself.
 */
export const TYPING_TTL_MS = 8_000;

/**
 * Who a socket belongs to, in which account and conversation (its row id). Contacts never receive private
 * notes or private typing. A user's socket names when the check of its access began (`checkedAt`) and the
 * live ticket it spends (`ticket`: its signature and expiry, in seconds).
 */
export type RoomMember = Participant & {
  audience: "contact" | "agent";
  name: string;
  accountId: number;
  conversationId: number;
  checkedAt?: number;
  ticket?: { id: string; expiresAt: number };
};

/** Why the room refused a socket, as the status of its answer to the upgrade (src/realtime/join.ts). */
export const ROOM_REFUSALS = { ticketSpent: 401, accessChanged: 409, feedUnreachable: 503 } as const;

const spentTicketKey = (id: string) => `ticket:${id}`;

/** What a subscriber receives: `{ event, data }`, as Chatwoot's ActionCable frames. */
export type RoomFrame = { event: string; data: Record<string, unknown> };

/** Who may receive a frame, and whose own action it was (nobody receives their own typing). */
export type Delivery = { agentsOnly?: boolean; except?: Participant };

type TypingEntry = { context: TypingContext; until: number };

const keyOf = (p: Participant) => `${p.type}:${p.id}`;

/** The header that carries the authenticated member from the Worker's upgrade route to the room. */
export const ROOM_MEMBER_HEADER = "x-edgedesk-room-member";

/**
 * Live state of one conversation, addressed by name `${accountId}:${conversationId}` (the row id).
 * - Typing state lives in memory only, with a time-to-live: toggles are frequent and worthless after a
 *   few seconds, so writing them to storage would cost a billed write each time for nothing.
 * - Subscribers are WebSockets accepted with the hibernation API: the room may sleep between frames
 *   without dropping them, and each socket keeps its member in its attachment.
 * The Worker authenticates a socket before it reaches the room; the room trusts the member it is given.
 */
export class ConversationRoom extends DurableObject<Env> {
  private typingUntil = new Map<string, TypingEntry>();
  private expiryTimer: ReturnType<typeof setTimeout> | null = null;

  /** Sets the participant's typing state; answers whether it changed (only a change is worth an event). */
  setTyping(participant: Participant, on: boolean, context?: TypingContext): boolean {
    const key = keyOf(participant);
    const wasOn = (this.typingUntil.get(key)?.until ?? 0) > Date.now();
    const ctx = context ?? { accountId: 0, conversationId: 0, displayId: 0, user: { ...participant, name: "" }, isPrivate: false };
    if (on) this.typingUntil.set(key, { context: ctx, until: Date.now() + TYPING_TTL_MS });
    else this.typingUntil.delete(key);
    return wasOn !== on;
  }

  /**
   * The one typing path (public toggle_typing and the account API's toggle_typing_status): sets the
   * state and, on a change, tells the room's other subscribers and sends the webhook event to the
   * events queue. A repeated "on" within the time-to-live only extends it.
   */
  async toggleTyping(context: TypingContext, on: boolean): Promise<{ changed: boolean; expired: TypingContext[] }> {
    // indicators that ran out before their timer fired are announced off first, so events stay paired
    const expired = this.prune();
    for (const entry of expired) await this.announceTyping(entry.context, false);
    const changed = this.setTyping(context.user, on, context);
    if (changed) await this.announceTyping(context, on);
    if (on) this.scheduleExpiry();
    return { changed, expired: expired.map((entry) => entry.context) };
  }

  /** Who is typing now. */
  typing(): Participant[] {
    const now = Date.now();
    return [...this.typingUntil.values()].filter((e) => e.until > now).map(({ context: { user } }) => ({ type: user.type, id: user.id }));
  }

  /** Sends a frame to the room's subscribers (the live-room port calls this after a change has committed). */
  publish(frame: RoomFrame, delivery: Delivery = {}): number {
    const text = JSON.stringify(frame);
    let sent = 0;
    for (const socket of this.ctx.getWebSockets(delivery.agentsOnly ? "agent" : undefined)) {
      const member = socket.deserializeAttachment() as RoomMember | null;
      if (!member || (delivery.except && keyOf(member) === keyOf(delivery.except))) continue;
      try {
        socket.send(text);
        sent++;
      } catch {
        // a socket that is closing: its close handler cleans up
      }
    }
    return sent;
  }

  /** How many sockets are subscribed (for tests and the bench). */
  subscriberCount(): number {
    return this.ctx.getWebSockets().length;
  }

  /** Accepts a WebSocket for the member the Worker authenticated (see src/routes/live.ts). */
  override async fetch(request: Request): Promise<Response> {
    const member = JSON.parse(request.headers.get(ROOM_MEMBER_HEADER) ?? "null") as RoomMember | null;
    if (!member || request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("expected an authenticated WebSocket upgrade", { status: 400 });
    }
    if (member.ticket && !(await this.spendTicket(member.ticket))) return new Response("the ticket has been used", { status: ROOM_REFUSALS.ticketSpent });
    if (member.type === "user") {
      const refused = await this.recordUser(member);
      if (refused) return refused;
    }
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [member.audience, keyOf(member)]);
    server.serializeAttachment(member);
    server.send(JSON.stringify({ event: "room.joined", data: { member: { type: member.type, id: member.id }, typing: this.typing() } }));
    await this.tellFeed(member, "seen");
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * Subscribers only listen; the one thing a client may send is "ping" to keep idle proxies open, which
   * also keeps a contact online on the account's feed.
   */
  override async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer) {
    if (message !== "ping") return;
    socket.send("pong");
    const member = socket.deserializeAttachment() as RoomMember | null;
    if (member) await this.tellFeed(member, "seen");
  }

  override async webSocketClose(socket: WebSocket, code: number, reason: string) {
    try {
      socket.close(code === 1005 ? 1000 : code, reason);
    } catch {
      // already closed
    }
    const member = socket.deserializeAttachment() as RoomMember | null;
    // a contact with another socket still open here (a second tab) is still online
    if (member && this.ctx.getWebSockets(keyOf(member)).every((other) => other === socket)) await this.tellFeed(member, "left");
  }

  /**
   * The user's access changed (the account's feed says so, src/ports.ts): their sockets here close with
   * ACCESS_CHANGED, and nothing is sent on them after. Answers how many closed.
   */
  dropUser(userId: number): number {
    return closeForAccess(this.ctx.getWebSockets(keyOf({ type: "user", id: userId })));
  }

  /** Who may see the conversation changed (src/ports.ts): every user's socket closes with ACCESS_CHANGED. */
  dropUsers(): number {
    return closeForAccess(this.ctx.getWebSockets("agent"));
  }

  /** The account was suspended or is being deleted (src/ports.ts): every socket, the contact's too, closes with ACCESS_CHANGED. */
  dropEveryone(): number {
    return closeForAccess(this.ctx.getWebSockets());
  }

  /**
   * A live ticket opens one socket: its signature is kept here (the ticket names this conversation) until
   * it expires. False when it was spent before.
   */
  private async spendTicket(ticket: { id: string; expiresAt: number }): Promise<boolean> {
    const key = spentTicketKey(ticket.id);
    if ((await this.ctx.storage.get(key)) !== undefined) return false;
    const at = Date.now() / 1000;
    const spent = await this.ctx.storage.list<number>({ prefix: spentTicketKey("") });
    const expired = [...spent].filter(([, expiresAt]) => expiresAt < at).map(([k]) => k);
    if (expired.length > 0) await this.ctx.storage.delete(expired);
    await this.ctx.storage.put(key, ticket.expiresAt);
    return true;
  }

  /**
   * A user's socket is recorded with the account's feed, which closes it when the user's access changes;
   * a refusal when the access changed since the check began, or when the feed cannot be reached (the
   * socket could then outlive a revocation).
   */
  private async recordUser(member: RoomMember): Promise<Response | null> {
    try {
      const current = await accountFeed(this.env, member.accountId).roomJoined(member.id, member.conversationId, member.checkedAt ?? 0);
      return current ? null : new Response("the user's access changed during the check", { status: ROOM_REFUSALS.accessChanged });
    } catch (error) {
      console.error(JSON.stringify({ level: "error", room: `${member.accountId}:${member.conversationId}`, recordUser: String(error) }));
      return new Response("the account's feed cannot be reached", { status: ROOM_REFUSALS.feedUnreachable });
    }
  }

  /**
   * A contact's socket opened, pinged or closed: the account's feed keeps who is online (presence.update's
   * `contacts`). A user's last socket here closed: the feed forgets the room for them.
   */
  private async tellFeed(member: RoomMember, what: "seen" | "left") {
    if (member.type === "agent_bot" || (member.type === "user" && what === "seen")) return;
    try {
      const feed = accountFeed(this.env, member.accountId);
      if (member.type === "user") await feed.roomLeft(member.id, member.conversationId);
      else await (what === "seen" ? feed.contactSeen(member.id, member.conversationId) : feed.contactLeft(member.id, member.conversationId));
    } catch (error) {
      // presence is a hint: a feed that cannot be reached costs an agent a green dot, never the socket; a
      // room it does not forget is only closed once more, for nothing, when the user's access changes
      console.error(JSON.stringify({ level: "error", roomMember: `${member.type}:${member.id}`, tellFeed: what, error: String(error) }));
    }
  }

  private async announceTyping(context: TypingContext, on: boolean) {
    const event = on ? "conversation.typing_on" : "conversation.typing_off";
    const frame = {
      event,
      data: { conversation: { id: context.displayId }, user: { type: context.user.type, id: context.user.id, name: context.user.name }, is_private: context.isPrivate },
    };
    this.publish(frame, { agentsOnly: context.isPrivate, except: context.user });
    try {
      await sendTypingEvent(this.env.EVENTS, context, on);
    } catch (error) {
      // a lost typing webhook is not worth failing the toggle: the indicator is gone in seconds anyway
      console.error(JSON.stringify({ level: "error", typingEvent: String(error) }));
    }
  }

  /** One timer for the earliest expiry: a typer who never sends "off" gets an "off" announced for them. */
  private scheduleExpiry() {
    if (this.expiryTimer) return;
    const earliest = Math.min(...[...this.typingUntil.values()].map((e) => e.until));
    if (!Number.isFinite(earliest)) return;
    this.expiryTimer = setTimeout(() => {
      this.expiryTimer = null;
      void this.expireTyping();
    }, Math.max(earliest - Date.now(), 0) + 10);
  }

  /** Announces "off" for every indicator past its time-to-live; answers how many expired. */
  async expireTyping(): Promise<number> {
    const expired = this.prune();
    for (const entry of expired) await this.announceTyping(entry.context, false);
    if (this.typingUntil.size > 0) this.scheduleExpiry();
    return expired.length;
  }

  private prune(): TypingEntry[] {
    const now = Date.now();
    const expired: TypingEntry[] = [];
    for (const [key, entry] of this.typingUntil) {
      if (entry.until <= now) {
        this.typingUntil.delete(key);
        expired.push(entry);
      }
    }
    return expired;
  }
}

export function conversationRoom(env: Env, accountId: number, conversationId: number) {
  return env.CONVERSATION_ROOM.getByName(`${accountId}:${conversationId}`);
}
