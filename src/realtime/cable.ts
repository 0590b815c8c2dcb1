/**
 * The Worker's end of an ActionCable connection (`GET /cable`, subprotocol `actioncable-v1-json`), as
 * Chatwoot's dashboard and apps speak it through `@rails/actioncable`.
 *
 * A connection names no account until it subscribes (`{channel: "RoomChannel", pubsub_token, account_id,
 * user_id}` from an agent's app, `{channel: "RoomChannel", pubsub_token}` from a visitor's widget), so it cannot be handed to the account's feed at the upgrade: the Worker holds the client's
 * socket, answers `welcome`, authenticates each subscription, and for each one it confirms opens a socket
 * to the account's feed (src/realtime/account-feed.ts), which confirms it, pings it and sends it its frames
 * already wrapped with the subscription's identifier; the Worker relays them unchanged, and echoes the
 * feed's relay checks (RELAY_CHECK) so that a write answers only once its frames are relayed. A client's
 * `perform` (`command: "message"`) goes to its subscription's feed (none longer than MAX_COMMAND_CHARS, a
 * visitor's paced: VISITOR_PERFORM_INTERVAL_MS); `unsubscribe` closes that socket.
 * Holding the client's socket costs the Worker memory, not CPU: it only relays.
 */
import { ACCESS_CHANGED, FEED_MEMBER_HEADER, type FeedMember, RELAY_CHECK, type Subscriber, accountFeed, isVisitor } from "./account-feed";
import { isWebSocketUpgrade, upgradeRequired } from "./join";

export const CABLE_PROTOCOL = "actioncable-v1-json";

/** Who a subscription's identifier proves to be (a user, or a visitor's contact inbox), or null (the subscription is rejected). */
export type AuthorizeSubscription = (params: Record<string, unknown>) => Promise<Subscriber | null>;

type Command = { command?: unknown; identifier?: unknown; data?: unknown };

/** Subscriptions one connection may hold (Chatwoot's clients hold one): each costs a lookup and a feed socket. */
export const MAX_SUBSCRIPTIONS = 10;

/**
 * Refused subscriptions after which the connection is closed: each costs a lookup, and a client that
 * keeps offering identifiers it cannot prove is guessing. Chatwoot's clients offer one, and retry it.
 */
export const MAX_REFUSED_SUBSCRIPTIONS = 20;

/**
 * How long a connection may hold no confirmed subscription (after the welcome, or after its last one
 * ended) before it is closed: Chatwoot's clients subscribe at once, and a connection that only sits costs
 * the Worker a socket. It is closed rather than pinged: pings come from the feed of a subscription.
 */
export const SUBSCRIBE_WITHIN_MS = 10_000;

/**
 * The longest command a client may send, in characters: Chatwoot's clients send a few hundred (an
 * identifier, a `perform` of `update_presence`). A longer one is ignored unread, as what cannot be
 * parsed is: every `perform` goes to the account's one feed object, which no client may fill.
 */
export const MAX_COMMAND_CHARS = 4_096;

/**
 * The least time between two performs of one action from a visitor's subscription (a later one sooner is
 * dropped): a visitor is anyone who opened the page, and each perform reaches the account's one feed
 * object. Chatwoot's widget sends `update_presence` on a timer of many seconds; anything else (a typing
 * toggle) no faster than a person types. Agents' subscriptions are not paced: their users are proven.
 */
export const VISITOR_PERFORM_INTERVAL_MS: Readonly<Record<string, number>> = { update_presence: 5_000 };
export const VISITOR_OTHER_PERFORM_INTERVAL_MS = 1_000;

/** Answers the upgrade of `GET /cable` and serves the connection; a plain request is refused (400, the error body). */
export function openCable(request: Request, env: Env, authorize: AuthorizeSubscription): Response {
  if (!isWebSocketUpgrade(request)) throw upgradeRequired();
  const offered = (request.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim());
  const { 0: client, 1: server } = new WebSocketPair();
  server.accept();
  new CableConnection(server, env, authorize).start();
  const headers = offered.includes(CABLE_PROTOCOL) ? { "Sec-WebSocket-Protocol": CABLE_PROTOCOL } : undefined;
  return new Response(null, { status: 101, webSocket: client, headers });
}

class CableConnection {
  /** the open feed socket of each confirmed subscription, by its identifier */
  private feeds = new Map<string, WebSocket>();
  /** for each visitor's subscription (by identifier), when each of its actions was last let through */
  private visitorPaces = new Map<string, Map<string, number>>();
  private subscribing = new Set<string>();
  private refused = 0;
  private closed = false;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly socket: WebSocket,
    private readonly env: Env,
    private readonly authorize: AuthorizeSubscription,
  ) {}

  start() {
    this.socket.addEventListener("message", (event) => void this.onCommand(event.data));
    this.socket.addEventListener("close", () => this.closeAll());
    this.socket.addEventListener("error", () => this.closeAll());
    this.send({ type: "welcome" });
    this.closeIfIdle();
  }

  /** Closes the connection unless it holds a confirmed subscription within SUBSCRIBE_WITHIN_MS. */
  private closeIfIdle() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.closed || this.feeds.size > 0) return;
      // a subscription being checked gets its time; its answer decides
      if (this.subscribing.size > 0) return this.closeIfIdle();
      this.end({ type: "disconnect", reason: "no_subscription", reconnect: false }, 1000, "no subscription");
    }, SUBSCRIBE_WITHIN_MS);
  }

  private async onCommand(raw: unknown) {
    if (typeof raw !== "string" || raw.length > MAX_COMMAND_CHARS) return;
    let command: Command;
    try {
      command = JSON.parse(raw) as Command;
    } catch {
      return; // Rails logs and ignores what it cannot parse
    }
    if (!command || typeof command.identifier !== "string") return;
    const { identifier } = command;
    if (command.command === "subscribe") await this.subscribe(identifier);
    else if (command.command === "unsubscribe") this.unsubscribe(identifier);
    else if (command.command === "message") {
      const data = typeof command.data === "string" ? command.data : JSON.stringify(command.data ?? {});
      // only the Worker answers the feed's relay checks
      if (!data.startsWith(RELAY_CHECK) && this.paced(identifier, data)) trySend(this.feeds.get(identifier), data);
    }
  }

  private async subscribe(identifier: string) {
    // a repeated subscribe (the client's guarantor retries until confirmed) is ignored, as Rails does
    if (this.feeds.has(identifier) || this.subscribing.has(identifier)) return;
    if (this.feeds.size + this.subscribing.size >= MAX_SUBSCRIPTIONS) return this.send({ identifier, type: "reject_subscription" });
    this.subscribing.add(identifier);
    try {
      // before the lookup: a change of the user's access that commits during it refuses the socket
      const checkedAt = Date.now();
      const member = await this.authorize(parseIdentifier(identifier));
      if (!member) return this.refuse(identifier);
      if (this.closed) return this.send({ identifier, type: "reject_subscription" });
      const feedMember: FeedMember = { ...member, identifier, checkedAt };
      const headers = { upgrade: "websocket", [FEED_MEMBER_HEADER]: JSON.stringify(feedMember) };
      const answer = await accountFeed(this.env, member.accountId).fetch("https://feed/subscribe", { headers });
      const feed = answer.webSocket;
      if (!feed) return this.send({ identifier, type: "reject_subscription" });
      feed.accept();
      feed.addEventListener("message", (event) => {
        // the feed's check that what it sent before is relayed: echoed to it, never shown to the client
        if (typeof event.data === "string" && event.data.startsWith(RELAY_CHECK)) trySend(feed, event.data);
        else trySend(this.socket, event.data);
      });
      // the user's access changed, or the feed went away (a restart, a deploy): the client is told to
      // reconnect, and its subscriptions are checked anew
      feed.addEventListener("close", (event) => {
        if (this.feeds.get(identifier) !== feed) return;
        if (event.code === ACCESS_CHANGED.code) this.end({ type: "disconnect", reason: "access_changed", reconnect: true }, ACCESS_CHANGED.code, ACCESS_CHANGED.reason);
        else this.restart();
      });
      this.feeds.set(identifier, feed);
      if (isVisitor(member)) this.visitorPaces.set(identifier, new Map());
      if (this.closed) this.closeAll();
    } catch (error) {
      console.error(JSON.stringify({ level: "error", cable: "subscribe", error: String(error) }));
      this.send({ identifier, type: "reject_subscription" });
    } finally {
      this.subscribing.delete(identifier);
    }
  }

  /** Whether a perform goes on to the feed: an agent's always; a visitor's unless its action came too soon. */
  private paced(identifier: string, data: string): boolean {
    const pace = this.visitorPaces.get(identifier);
    if (!pace) return true;
    let action: unknown;
    try {
      action = (JSON.parse(data) as { action?: unknown } | null)?.action;
    } catch {
      return false; // the feed would ignore it too
    }
    // unknown actions share one pace: a visitor cannot widen its allowance by naming new ones
    const known = typeof action === "string" && Object.hasOwn(VISITOR_PERFORM_INTERVAL_MS, action);
    const key = known ? (action as string) : "";
    const interval = known ? VISITOR_PERFORM_INTERVAL_MS[key] : VISITOR_OTHER_PERFORM_INTERVAL_MS;
    const now = Date.now();
    const last = pace.get(key);
    if (last !== undefined && now - last < interval) return false;
    pace.set(key, now);
    return true;
  }

  /** Rejects the subscription; past MAX_REFUSED_SUBSCRIPTIONS, tells the client not to reconnect and closes. */
  private refuse(identifier: string) {
    this.send({ identifier, type: "reject_subscription" });
    if (++this.refused < MAX_REFUSED_SUBSCRIPTIONS) return;
    this.end({ type: "disconnect", reason: "unauthorized", reconnect: false }, 1008, "too many refused subscriptions");
  }

  private unsubscribe(identifier: string) {
    const feed = this.feeds.get(identifier);
    this.feeds.delete(identifier);
    this.visitorPaces.delete(identifier);
    closeQuietly(feed);
    if (this.feeds.size === 0) this.closeIfIdle();
  }

  /** Tells the client why (ActionCable's `disconnect`), then closes the connection and its feed sockets. */
  private end(disconnect: { type: "disconnect"; reason: string; reconnect: boolean }, code: number, reason: string) {
    this.send(disconnect);
    this.closeAll();
    try {
      this.socket.close(code, reason);
    } catch {
      // already closed
    }
  }

  private restart() {
    this.send({ type: "disconnect", reason: "server_restart", reconnect: true });
    this.closeAll();
    closeQuietly(this.socket);
  }

  private closeAll() {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    for (const feed of this.feeds.values()) closeQuietly(feed);
    this.feeds.clear();
    this.visitorPaces.clear();
  }

  private send(frame: Record<string, unknown>) {
    trySend(this.socket, JSON.stringify(frame));
  }
}

function parseIdentifier(identifier: string): Record<string, unknown> {
  try {
    const params = JSON.parse(identifier) as unknown;
    return params && typeof params === "object" && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function trySend(socket: WebSocket | undefined, data: string | ArrayBuffer) {
  try {
    socket?.send(data);
  } catch {
    // the other end is closing; its close event cleans up
  }
}

function closeQuietly(socket: WebSocket | undefined) {
  try {
    socket?.close(1000, "unsubscribed");
  } catch {
    // already closed
  }
}
