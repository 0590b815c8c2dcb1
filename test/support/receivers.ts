/**
 * Webhook receivers for tests, inside the Workers runtime. A receiver answers the Worker's fetches to
 * its URL (the queue consumer runs in the test's isolate, so intercepting `fetch` there catches them);
 * everything else goes on to the test network (test-network.ts), never to the internet.
 */
import { vi } from "vitest";

export type Received = { url: string; headers: Headers; body: string; at: number };
type Answer = number | Response | "network-error" | ((request: Received, index: number) => number | Response | "network-error");

export type Receiver = {
  url: string;
  received: Received[];
  /** answers given in turn; the last one repeats */
  answer(...answers: Answer[]): Receiver;
  /** refuses connections until `start()` */
  stop(): Receiver;
  start(): Receiver;
  /** waits until `count` requests have arrived */
  waitFor(count: number, timeout?: number): Promise<Received[]>;
  payloads(): any[];
};

const receivers = new Map<string, Receiver>();

function routeFor(url: string): Receiver | undefined {
  let best: Receiver | undefined;
  for (const [prefix, receiver] of receivers) if (url.startsWith(prefix) && (!best || prefix.length > best.url.length)) best = receiver;
  return best;
}

/** The runtime's own fetch (to the test network), taken before any test's spy can stand in its place. */
const network = globalThis.fetch;

/** The global fetch that routes to the receivers, while it is installed. */
let routed: typeof fetch | null = null;

/**
 * Installs the routing fetch, again whenever something replaced it: the files that share a test
 * isolate (vitest.config.ts) each make receivers, and a file's `vi.restoreAllMocks()` puts back whatever
 * fetch was there before its own spies. Receivers stay registered for the isolate's life: their URLs are
 * unique, so a delivery retried after its file ended still reaches its own receiver, never another's.
 */
function intercept() {
  if (routed && globalThis.fetch === routed) return;
  routed = async (input, init) => {
    const request = new Request(input, init);
    const receiver = routeFor(request.url);
    if (!receiver) return network(request);
    return (receiver as Receiver & { handle(r: Request): Promise<Response> }).handle(request);
  };
  globalThis.fetch = routed;
}

/** A receiver at `url` (an address the test made up; nothing listens there) answering 200 by default. */
export function receiver(url = `https://receiver-${crypto.randomUUID().slice(0, 8)}.example.com/hook`): Receiver {
  intercept();
  let answers: Answer[] = [200];
  let stopped = false;
  const received: Received[] = [];
  const self = {
    url,
    received,
    answer(...next: Answer[]) {
      answers = next;
      return self;
    },
    stop() {
      stopped = true;
      return self;
    },
    start() {
      stopped = false;
      return self;
    },
    async waitFor(count: number, timeout = 10_000) {
      await vi.waitUntil(() => received.length >= count, { timeout, interval: 20 });
      return received;
    },
    payloads: () => received.map((r) => JSON.parse(r.body)),
    async handle(request: Request): Promise<Response> {
      if (stopped) throw new TypeError("Network connection lost (the test stopped this receiver)");
      const seen = { url: request.url, headers: request.headers, body: await request.text(), at: Date.now() };
      const index = received.push(seen) - 1;
      let answer = answers[Math.min(index, answers.length - 1)];
      if (typeof answer === "function") answer = answer(seen, index);
      if (answer === "network-error") throw new TypeError("Network connection lost");
      return typeof answer === "number" ? new Response(answer === 204 ? null : "ok", { status: answer }) : answer;
    },
  };
  receivers.set(url, self);
  return self;
}
