/**
 * The real `@rails/actioncable` client (what Chatwoot's dashboard uses) against the Worker, inside the
 * Workers runtime: its WebSocket adapter is a small class over the socket the Worker answers an upgrade
 * with, so the client's own protocol code (welcome, subscribe, confirm and reject, pings, perform) runs
 * unchanged.
 */
import { exports } from "cloudflare:workers";
import { adapters, createConsumer, type Consumer } from "@rails/actioncable";
import { get, patch } from "../support/http";
import { arrivals } from "../support/arrivals";
import { addToAccount, createUser } from "../support/world";
import { widgetWorld } from "../public/widget-support";

type Handler = ((event: any) => void) | null;

/** Just what the client uses of the browser's WebSocket: readyState and its constants, protocol, send, close, on* handlers. */
export class WorkerWebSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  readyState = WorkerWebSocket.CONNECTING;
  protocol = "";
  onopen: Handler = null;
  onmessage: Handler = null;
  onclose: Handler = null;
  onerror: Handler = null;
  private socket: WebSocket | null = null;

  constructor(url: string, protocols: string[] = []) {
    void this.connect(url, protocols);
  }

  private async connect(url: string, protocols: string[]) {
    const res = await exports.default.fetch(
      new Request(url.replace(/^ws/, "http"), { headers: { upgrade: "websocket", "sec-websocket-protocol": protocols.join(", ") } }),
    );
    const socket = res.webSocket;
    if (!socket) {
      this.readyState = WorkerWebSocket.CLOSED;
      this.onerror?.({});
      this.onclose?.({ code: 1006 });
      return;
    }
    this.protocol = res.headers.get("sec-websocket-protocol") ?? "";
    socket.addEventListener("message", (e) => {
      this.onmessage?.({ data: e.data });
    });
    socket.addEventListener("close", (e) => {
      this.readyState = WorkerWebSocket.CLOSED;
      this.onclose?.({ code: e.code });
    });
    socket.accept();
    this.socket = socket;
    this.readyState = WorkerWebSocket.OPEN;
    this.onopen?.({});
  }

  send(data: string) {
    this.socket?.send(data);
  }

  close() {
    if (this.readyState === WorkerWebSocket.CLOSED) return;
    this.readyState = WorkerWebSocket.CLOSED;
    try {
      this.socket?.close(1000, "client closed");
    } catch {
      // already closing
    }
    this.onclose?.({ code: 1000 });
  }
}

// the client's connection monitor listens for page visibility, which the Workers runtime has no event for
if (typeof (globalThis as any).addEventListener !== "function") (globalThis as any).addEventListener = () => {};
if (typeof (globalThis as any).removeEventListener !== "function") (globalThis as any).removeEventListener = () => {};
adapters.WebSocket = WorkerWebSocket as unknown as typeof WebSocket;

export type FeedMessage = { event: string; data: Record<string, any> };

export type Listener = {
  consumer: Consumer;
  messages: FeedMessage[];
  /** "confirmed" or "rejected" */
  outcome: Promise<"confirmed" | "rejected">;
  next(match: (m: FeedMessage) => boolean, timeoutMs?: number): Promise<FeedMessage>;
  perform(action: string, data?: Record<string, unknown>): void;
  close(): void;
};

/** A consumer with one RoomChannel subscription, as Chatwoot's dashboard opens it. */
export function listen(identifier: Record<string, unknown>): Listener {
  const consumer = createConsumer("ws://desk.test/cable");
  const received = arrivals<FeedMessage>("message", (m) => m.event);
  const messages = received.items;
  let settle: (o: "confirmed" | "rejected") => void = () => {};
  const outcome = new Promise<"confirmed" | "rejected">((resolve) => (settle = resolve));
  const subscription = consumer.subscriptions.create(
    { channel: "RoomChannel", ...identifier },
    {
      connected: () => settle("confirmed"),
      rejected: () => settle("rejected"),
      received: (message: FeedMessage) => received.add(message),
    },
  );
  const next = received.next;
  return {
    consumer,
    messages,
    outcome,
    next,
    perform: (action, data = {}) => subscription.perform(action, data),
    close: () => consumer.disconnect(),
  };
}

/** The user's pubsub_token, as the profile shows it. */
export async function pubsubToken(key: string): Promise<string> {
  const res = await get("/api/v1/profile", key);
  return res.body.pubsub_token;
}

/** A confirmed subscription of the user (by key) to the account's feed. */
export async function subscribe(person: { id: number; key: string }, accountId: number): Promise<Listener> {
  const listener = listen({ pubsub_token: await pubsubToken(person.key), account_id: accountId, user_id: person.id });
  const outcome = await listener.outcome;
  if (outcome !== "confirmed") throw new Error(`subscription ${outcome}`);
  return listener;
}

/** Resolves after `ms`: to show that a message does not arrive. */
export const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

/** An account whose inbox has the agent as its member, an administrator, and an agent outside the inbox. */
export async function feedWorld(name = "Feed") {
  const w = await widgetWorld(name);
  // changes here are made by hand: auto-assignment would hand new conversations to the agents listening
  await patch(`${w.base}/inboxes/${w.inbox.id}`, w.admin.key, { enable_auto_assignment: false });
  const outsider = await createUser(w.platformKey, `${name} Outsider`);
  await addToAccount(w.platformKey, w.accountId, outsider.id, "agent");
  const [admin, agent, outside] = await Promise.all([subscribe(w.admin, w.accountId), subscribe(w.agent, w.accountId), subscribe(outsider, w.accountId)]);
  return { w, outsider, admin, agent, outside, closeAll: () => [admin, agent, outside].forEach((l) => l.close()) };
}

