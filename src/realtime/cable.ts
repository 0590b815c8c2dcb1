/**
 * The Worker's end of an ActionCable connection (`GET /cable`, subprotocol `actioncable-v1-json`), as
 * Chatwoot's dashboard and apps speak it through `@rails/actioncable`.
 *
 * A connection names no account until it subscribes (`{channel: "RoomChannel", pubsub_token, account_id,
 * user_id}`), so it cannot be handed to the account's feed at the upgrade: the Worker holds the client's
 * socket, answers `welcome`, authenticates each subscription, and for each one it confirms opens a socket
 * to the account's feed (src/realtime/account-feed.ts), which confirms it, pings it and sends it its frames
 * already wrapped with the subscription's identifier; the Worker relays them unchanged, and echoes the
 * feed's relay checks (RELAY_CHECK) so that a write answers only once its frames are relayed. A client's
 * `perform` (`command: "message"`) goes to its subscription's feed; `unsubscribe` closes that socket.
 * Holding the client's socket costs the Worker memory, not CPU: it only relays.
 */
import { ACCESS_CHANGED, FEED_MEMBER_HEADER, type FeedMember, RELAY_CHECK, accountFeed } from "./account-feed";
import { isWebSocketUpgrade, upgradeRequired } from "./join";

export const CABLE_PROTOCOL = "actioncable-v1-json";

/** Who a subscription's identifier proves to be, or null (the subscription is rejected). */
export type AuthorizeSubscription = (params: Record<string, unknown>) => Promise<Omit<FeedMember, "identifier" | "checkedAt"> | null>;

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
    if (typeof raw !== "string") return;
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
      if (!data.startsWith(RELAY_CHECK)) trySend(this.feeds.get(identifier), data);
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
      const headers = { upgrade: "websocket", [FEED_MEMBER_HEADER]: JSON.stringify({ ...member, identifier, checkedAt } satisfies FeedMember) };
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
      if (this.closed) this.closeAll();
    } catch (error) {
      console.error(JSON.stringify({ level: "error", cable: "subscribe", error: String(error) }));
      this.send({ identifier, type: "reject_subscription" });
    } finally {
      this.subscribing.delete(identifier);
    }
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
