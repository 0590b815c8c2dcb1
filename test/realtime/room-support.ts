/** WebSockets to live rooms, opened through the Worker like a browser would. */
import { exports } from "cloudflare:workers";
import { post } from "../support/http";
import { arrivals } from "../support/arrivals";

export type Frame = { event: string; data: Record<string, any> };

export type Socket = {
  frames: Frame[];
  status: number;
  /** resolves with the first frame (after `from`) for which `match` holds */
  next(match: (f: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  close(): void;
};

export async function openSocket(path: string): Promise<Socket & { body?: any }> {
  const res = await exports.default.fetch(new Request(`https://desk.test${path}`, { headers: { upgrade: "websocket" } }));
  const received = arrivals<Frame>("frame", (f) => f.event);
  const frames = received.items;
  const ws = res.webSocket;
  if (!ws) {
    const body = await res.json().catch(() => null);
    return { frames, status: res.status, body, next: () => Promise.reject(new Error("no socket")), close: () => {} };
  }
  ws.accept();
  ws.addEventListener("message", (e) => {
    if (typeof e.data === "string" && e.data.startsWith("{")) received.add(JSON.parse(e.data));
  });
  const next = received.next;
  await next((f) => f.event === "room.joined");
  return { frames, status: res.status, next, close: () => ws.close(1000, "done") };
}

/** Resolves after `ms`: to show that a frame does not arrive. */
export const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

export async function agentTicket(base: string, key: string, displayId: number) {
  const res = await post(`${base}/conversations/${displayId}/live_ticket`, key);
  if (res.status !== 200) throw new Error(`ticket failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { ticket: string; url: string; expires_at: number };
}
