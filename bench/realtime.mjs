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
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { root } from "../scripts/lib/wrangler.mjs";

const { values: args } = parseArgs({
  options: {
    messages: { type: "string", default: "100" },
    burst: { type: "string", default: "300" },
    concurrency: { type: "string", default: "8" },
  },
});
/** Bounded on purpose: a few hundred requests on a shared 2-core machine. */
const bounded = (name, value, max) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    console.error(`--${name} must be an integer from 1 to ${max}, got ${value}`);
    process.exit(2);
  }
  return n;
};
const MESSAGES = bounded("messages", args.messages, 1000);
const BURST = bounded("burst", args.burst, 2000);
const CONCURRENCY = bounded("concurrency", args.concurrency, 32);
const WARMUP = 5;
const ROUNDS = 3;
const FRAME_TIMEOUT_MS = 5_000;
/** The whole run, server start included, gives up after this long. */
const DEADLINE_MS = 6 * 60_000;

if (typeof WebSocket !== "function") {
  console.error(`This bench needs Node 22 or later (global WebSocket); this is ${process.version}. Run it with \`npm run bench:realtime\`.`);
  process.exit(2);
}

const startedAt = performance.now();
const log = (line) => console.log(`[bench:realtime ${((performance.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${line}`);

// ---------------------------------------------------------------------------------------------------
// The server: `npm start` in its own process group, so that stopping it ends wrangler and workerd too.

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const dataDir = mkdtempSync(join(tmpdir(), "edgedesk-bench-realtime-"));
const platformToken = randomBytes(24).toString("hex");
let server = null;
let serverOutput = "";

/** Stops the server's whole process group: politely, then for sure. */
async function stopServer() {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((r) => server.once("exit", r));
  signalServer("SIGTERM");
  await Promise.race([exited, sleep(10_000)]);
  signalServer("SIGKILL");
}

function signalServer(signal) {
  try {
    if (server) process.kill(-server.pid, signal);
  } catch {
    // already gone
  }
}

/** Last resort when the run ends early (error, deadline, Ctrl-C): nothing may outlive the bench. */
function cleanUp() {
  if (server && server.exitCode === null) signalServer("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
}
process.on("exit", cleanUp);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));
const deadline = setTimeout(() => {
  console.error(`bench:realtime gave up after ${DEADLINE_MS / 1000} s`);
  process.exit(1);
}, DEADLINE_MS);

async function startServer() {
  const port = await freePort();
  server = spawn(process.execPath, [join(root, "scripts", "start.mjs"), "--port", String(port), "--persist-to", dataDir], {
    cwd: root,
    env: { ...process.env, DESK_PLATFORM_TOKEN: platformToken },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout.on("data", (d) => (serverOutput += d));
  server.stderr.on("data", (d) => (serverOutput += d));
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`npm start exited:\n${serverOutput}`);
    if (await fetch(`${base}/api`).then((r) => r.ok, () => false)) return base;
    await sleep(500);
  }
  throw new Error(`the server did not answer within 180 s:\n${serverOutput}`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------
// HTTP and sockets

let base = "";

async function call(method, path, { key, body } = {}) {
  const headers = {};
  if (key) headers.api_access_token = key;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let parsed = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // keep the text for the error message
  }
  return { status: res.status, body: parsed, timing: parseTiming(res.headers.get("server-timing")) };
}

/** The database cost the Worker reports for the request (see src/app.ts). */
function parseTiming(header) {
  const value = (name) => Number(new RegExp(`${name};desc="(\\d+)"`).exec(header ?? "")?.[1] ?? 0);
  return { roundTrips: value("db-round-trips"), rowsRead: value("db-rows-read"), rowsWritten: value("db-rows-written") };
}

async function must(method, path, options) {
  const res = await call(method, path, options);
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A subscribed room socket that stamps every frame with the local clock as it arrives. */
function openSocket(path) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, "ws") + path);
    const frames = [];
    const waiters = new Set();
    const timer = setTimeout(() => reject(new Error(`no room.joined on ${path}`)), FRAME_TIMEOUT_MS);
    ws.addEventListener("error", () => reject(new Error(`socket refused: ${path}`)));
    ws.addEventListener("message", (e) => {
      const at = performance.now();
      const frame = e.data === "pong" ? { event: "pong", data: {} } : JSON.parse(e.data);
      frames.push({ ...frame, at });
      if (frame.event === "room.joined") {
        clearTimeout(timer);
        resolve(socket);
      }
      for (const w of waiters) w();
    });
    const socket = {
      frames,
      send: (text) => ws.send(text),
      close: () => ws.close(1000, "done"),
      /** the first frame from `from` on for which `match` holds */
      next(match, from = 0) {
        return new Promise((ok, fail) => {
          const check = () => {
            const found = frames.slice(from).find(match);
            if (!found) return;
            waiters.delete(check);
            clearTimeout(t);
            ok(found);
          };
          const t = setTimeout(() => {
            waiters.delete(check);
            fail(new Error(`no matching frame within ${FRAME_TIMEOUT_MS} ms on ${path}`));
          }, FRAME_TIMEOUT_MS);
          waiters.add(check);
          check();
        });
      },
    };
  });
}

// ---------------------------------------------------------------------------------------------------
// Statistics

const sorted = (xs) => [...xs].sort((a, b) => a - b);
/** Nearest-rank percentile. */
const percentile = (xs, p) => sorted(xs)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)];
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
  log(`starting npm start on a free loopback port (data in ${dataDir})...`);
  base = await startServer();
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

main()
  .then(async () => {
    clearTimeout(deadline);
    await stopServer();
    process.exit(0);
  })
  .catch((error) => {
    console.error(error instanceof Error ? error.stack : error);
    if (serverOutput) console.error(`--- server output (last 4000 characters) ---\n${serverOutput.slice(-4000)}`);
    process.exit(1);
  });
