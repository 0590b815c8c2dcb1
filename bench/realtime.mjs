#!/usr/bin/env node
// npm run bench:realtime [-- --messages N --burst N --concurrency N]
//
// Live rooms over real sockets: starts `npm start` on a free loopback port with a throw-away data
// directory, sets up an account, an API inbox, a visitor and a conversation, subscribes the visitor's
// and an agent's WebSocket to the conversation's room, then measures, with GET /api as the baseline of
// the same run:
//   (a) the time from a message create (account API) to its `message.created` frame on each socket;
//   (b) toggle-typing requests per second against that one room, in bounded bursts (--burst per kind).
// A Node script rather than a workerd test: a real socket client over TCP, and a clock finer than
// workerd's (which only advances on I/O). Needs Node 22 (global WebSocket): `npm run` puts the
// project's own Node first on PATH.
import { randomBytes } from "node:crypto";
import { frameLog } from "./lib/frames.mjs";
import { benchLog, boundedOptions, httpClient, percentile, sleep, startLocalServer } from "./lib/local-server.mjs";

/** Bounded on purpose: a few hundred requests on a shared 2-core machine. */
const { messages: MESSAGES, burst: BURST, concurrency: CONCURRENCY } = boundedOptions({ messages: [100, 1000], burst: [300, 2000], concurrency: [8, 32] });
const WARMUP = 5;
const ROUNDS = 3;
const FRAME_TIMEOUT_MS = 5_000;
/** The whole run, server start included, gives up after this long. */
const DEADLINE_MS = 6 * 60_000;

if (typeof WebSocket !== "function") {
  console.error(`This bench needs Node 22 or later (global WebSocket); this is ${process.version}. Run it with \`npm run bench:realtime\`.`);
  process.exit(2);
}

const log = benchLog("realtime");

// ---------------------------------------------------------------------------------------------------
// HTTP and sockets

let base = "";
let call;
let must;

/** A subscribed room socket that stamps every frame with the local clock as it arrives. */
function openSocket(path) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, "ws") + path);
    const received = frameLog(FRAME_TIMEOUT_MS, path);
    const timer = setTimeout(() => reject(new Error(`no room.joined on ${path}`)), FRAME_TIMEOUT_MS);
    ws.addEventListener("error", () => reject(new Error(`socket refused: ${path}`)));
    ws.addEventListener("message", (e) => {
      const frame = e.data === "pong" ? { event: "pong", data: {} } : JSON.parse(e.data);
      received.add(frame, performance.now());
      if (frame.event === "room.joined") {
        clearTimeout(timer);
        resolve(socket);
      }
    });
    const socket = {
      frames: received.frames,
      next: received.next,
      send: (text) => ws.send(text),
      close: () => ws.close(1000, "done"),
    };
  });
}

// ---------------------------------------------------------------------------------------------------
// Statistics

const ms = (x) => x.toFixed(2);
const summary = (xs) => ({ median: percentile(xs, 50), p95: percentile(xs, 95), max: Math.max(...xs) });

/** `total` requests, `CONCURRENCY` in flight; answers requests per second and each request's time. */
async function burst(total, label, request) {
  let issued = 0;
  const times = [];
  const costs = [];
  const t0 = performance.now();
  const worker = async () => {
    while (issued < total) {
      const i = issued++;
      const started = performance.now();
      const res = await request(i);
      if (res.status !== 200) throw new Error(`${label} #${i}: ${res.status} ${JSON.stringify(res.body)}`);
      times.push(performance.now() - started);
      costs.push(res.timing);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - t0) / 1000;
  log(`${label}: ${total} requests in ${seconds.toFixed(2)} s, ${(total / seconds).toFixed(0)}/s`);
  return { rps: total / seconds, seconds, requests: total, times, costs };
}

// ---------------------------------------------------------------------------------------------------

async function main() {
  log("starting npm start on a free loopback port with a throw-away data directory...");
  server = await startLocalServer({ name: "realtime", deadlineMs: DEADLINE_MS });
  const platformToken = server.platformToken;
  base = server.base;
  ({ call, must } = httpClient(base));
  log(`server answers on ${base}`);

  const account = await must("POST", "/platform/api/v1/accounts", { key: platformToken, body: { name: "Realtime bench" } });
  const user = await must("POST", "/platform/api/v1/users", { key: platformToken, body: { name: "Bench Agent", email: `bench.${Date.now()}@example.com`, password: "Passw0rd!long" } });
  await must("POST", `/platform/api/v1/accounts/${account.id}/account_users`, { key: platformToken, body: { user_id: user.id, role: "administrator" } });
  const key = user.access_token;
  const accountBase = `/api/v1/accounts/${account.id}`;
  const inbox = await must("POST", `${accountBase}/inboxes`, { key, body: { name: "Bench API inbox", channel: { type: "api" } } });
  const contactsPath = `/public/api/v1/inboxes/${inbox.inbox_identifier}/contacts`;
  const visitor = await must("POST", contactsPath, { body: { name: "Vera Visitor" } });
  const conversation = await must("POST", `${contactsPath}/${visitor.source_id}/conversations`, { body: {} });
  const publicPath = `${contactsPath}/${visitor.source_id}/conversations/${conversation.id}`;
  const ticket = await must("POST", `${accountBase}/conversations/${conversation.id}/live_ticket`, { key });
  const contactSocket = await openSocket(`${publicPath}/live?pubsub_token=${visitor.pubsub_token}`);
  const agentSocket = await openSocket(ticket.url);
  log(`account ${account.id}, conversation ${conversation.id}: visitor and agent sockets joined the room`);

  // (a) message create -> frame on each subscribed socket. The baselines are taken in the same loop,
  // one of each per message, so that all three see the same load on a shared machine.
  const apiTimes = [];
  const pingTimes = [];
  const toContact = [];
  const toAgent = [];
  const responses = [];
  let frameBeforeResponse = 0;
  const runId = randomBytes(3).toString("hex");
  const quarter = Math.max(1, Math.floor(MESSAGES / 4));
  for (let i = -WARMUP; i < MESSAGES; i++) {
    let t0 = performance.now();
    await must("GET", "/api");
    const api = performance.now() - t0;

    const fromPing = agentSocket.frames.length;
    t0 = performance.now();
    agentSocket.send("ping");
    const pong = await agentSocket.next((f) => f.event === "pong", fromPing);
    const ping = pong.at - t0;

    const content = `bench ${runId} ${i}`;
    const match = (f) => f.event === "message.created" && f.data.content === content;
    const [fromC, fromA] = [contactSocket.frames.length, agentSocket.frames.length];
    t0 = performance.now();
    const created = call("POST", `${accountBase}/conversations/${conversation.id}/messages`, { key, body: { content } }).then((res) => {
      if (res.status !== 200) throw new Error(`message create: ${res.status} ${JSON.stringify(res.body)}`);
      return performance.now();
    });
    const [answeredAt, c, a] = await Promise.all([created, contactSocket.next(match, fromC), agentSocket.next(match, fromA)]);
    if (i < 0) continue;
    apiTimes.push(api);
    pingTimes.push(ping);
    toContact.push(c.at - t0);
    toAgent.push(a.at - t0);
    responses.push(answeredAt - t0);
    if (c.at <= answeredAt) frameBeforeResponse++;
    if ((i + 1) % quarter === 0) {
      const recent = (xs) => ms(percentile(xs.slice(-quarter), 50));
      log(`message -> frame: ${i + 1}/${MESSAGES} (last ${quarter}: median ${recent(toContact)} ms to the visitor's socket, GET /api ${recent(apiTimes)} ms)`);
    }
  }

  // (b) toggle typing against the one room, beside GET /api at the same concurrency, in interleaved
  // rounds for the same reason.
  const typingPath = `${publicPath}/toggle_typing`;
  const typingFrames = () => agentSocket.frames.filter((f) => f.event.startsWith("conversation.typing_")).length;
  const perRound = Math.max(1, Math.floor(BURST / ROUNDS));
  const bursts = { api: [], repeatedOn: [], alternating: [] };
  let repeatedOnFrames = 0;
  let alternatingFrames = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const label = `round ${round}/${ROUNDS}`;
    bursts.api.push(await burst(perRound, `${label} GET /api`, () => call("GET", "/api")));

    await must("POST", typingPath, { body: { typing_status: "off" } });
    await sleep(200);
    let before = typingFrames();
    bursts.repeatedOn.push(await burst(perRound, `${label} toggle_typing on (repeated)`, () => call("POST", typingPath, { body: { typing_status: "on" } })));
    await sleep(200);
    repeatedOnFrames += typingFrames() - before;

    await must("POST", typingPath, { body: { typing_status: "off" } });
    await sleep(200);
    before = typingFrames();
    bursts.alternating.push(
      await burst(perRound, `${label} toggle_typing on/off (alternating)`, (i) => call("POST", typingPath, { body: { typing_status: i % 2 ? "off" : "on" } })),
    );
    await sleep(200);
    alternatingFrames += typingFrames() - before;
  }
  await must("POST", typingPath, { body: { typing_status: "off" } });
  if (contactSocket.frames.some((f) => f.event.startsWith("conversation.typing_"))) throw new Error("the visitor's socket received its own typing");

  contactSocket.close();
  agentSocket.close();

  // Report
  const a = summary(apiTimes);
  const p = summary(pingTimes);
  const rc = summary(responses);
  const fc = summary(toContact);
  const fa = summary(toAgent);
  const row = (name, x) => `| ${name} | ${ms(x.median)} | ${ms(x.p95)} | ${ms(x.max)} | ${(x.median / a.median).toFixed(1)} |`;
  /** All rounds together: requests over the seconds they took; and the spread of the rounds. */
  const overall = (rounds) => {
    const rps = rounds.reduce((n, r) => n + r.requests, 0) / rounds.reduce((n, r) => n + r.seconds, 0);
    const each = rounds.map((r) => r.rps);
    const times = rounds.flatMap((r) => r.times);
    const costs = rounds.flatMap((r) => r.costs);
    const cost = (k) => percentile(costs.map((c) => c[k]), 50);
    const written = costs.reduce((n, c) => n + c.rowsWritten, 0);
    return { rps, low: Math.min(...each), high: Math.max(...each), median: percentile(times, 50), p95: percentile(times, 95), roundTrips: cost("roundTrips"), rowsRead: cost("rowsRead"), written };
  };
  const [api, on, alt] = [overall(bursts.api), overall(bursts.repeatedOn), overall(bursts.alternating)];
  const burstRow = (name, x, frames) =>
    `| ${name} | ${x.rps.toFixed(0)} | ${x.low.toFixed(0)}–${x.high.toFixed(0)} | ${ms(x.median)} | ${ms(x.p95)} | ${x.roundTrips} / ${x.rowsRead} / ${x.written} | ${frames} | ${(x.rps / api.rps).toFixed(2)} |`;
  const date = new Date().toISOString().slice(0, 10);
  const table = [
    "",
    `Recorded ${date}: ${MESSAGES} messages (after ${WARMUP} warm-up); ${ROUNDS} rounds of ${perRound} requests per burst, ${CONCURRENCY} in flight.`,
    "",
    "| measure | median ms | p95 ms | max ms | × GET /api (median) |",
    "|---|---|---|---|---|",
    row("GET /api (baseline)", a),
    row("socket `ping` → `pong` through the room (baseline)", p),
    row("POST messages → its HTTP response", rc),
    row("POST messages → `message.created` on the visitor's socket", fc),
    row("POST messages → `message.created` on the agent's socket", fa),
    "",
    `The frame reached the visitor's socket before the HTTP response in ${frameBeforeResponse} of ${MESSAGES} creates.`,
    "",
    "| burst | requests/s | rounds | median ms | p95 ms | round trips / rows read (median) / rows written (all) | typing frames on the agent's socket | × GET /api (requests/s) |",
    "|---|---|---|---|---|---|---|---|",
    burstRow("GET /api (baseline)", api, "–"),
    burstRow("toggle_typing `on`, repeated", on, repeatedOnFrames),
    burstRow("toggle_typing `on`/`off`, alternating", alt, alternatingFrames),
    "",
  ].join("\n");
  log("done");
  console.log(table);
}

let server = null;

main()
  .then(async () => {
    await server.stop();
    process.exit(0);
  })
  .catch((error) => {
    console.error(error instanceof Error ? error.stack : error);
    if (server) console.error(`--- server output (last 4000 characters) ---\n${server.output()}`);
    process.exit(1);
  });
