#!/usr/bin/env node
// npm run bench:feed [-- --messages N]
//
// The live account feed over real sockets: starts `npm start` on a free loopback port with a throw-away
// data directory, sets up an account whose agents are all members of one inbox, opens 1, 10 and 100
// ActionCable connections to /cable (one agent each, subscribed to RoomChannel as Chatwoot's apps do),
// and measures, with GET /api as the baseline of the same run:
//   (a) the time from a message create (account API) to its `message.created` frame on every socket;
//   (b) what an idle connection gets: pings per minute and their bytes (what keeps the feed awake).
// A Node script, as bench:realtime: a real socket client over TCP and a fine clock. Needs Node 22
// (global WebSocket): `npm run` puts the project's own Node first on PATH.
import { randomBytes } from "node:crypto";
import { frameLog } from "./lib/frames.mjs";
import { benchLog, boundedOptions, httpClient, percentile, sleep, startLocalServer } from "./lib/local-server.mjs";

/** Bounded on purpose: a few hundred requests and at most 100 sockets on a shared 2-core machine. */
const { messages: MESSAGES } = boundedOptions({ messages: [30, 200] });
const SOCKET_COUNTS = [1, 10, 100];
const WARMUP = 3;
const IDLE_SECONDS = 9;
const FRAME_TIMEOUT_MS = 10_000;
/** 100 subscriptions at once on a busy machine take a while: each is a lookup and a socket to the feed. */
const SUBSCRIBE_TIMEOUT_MS = 60_000;
/** The whole run, server start included, gives up after this long. */
const DEADLINE_MS = 8 * 60_000;
const PASSWORD = "Passw0rd!long";

if (typeof WebSocket !== "function") {
  console.error(`This bench needs Node 22 or later (global WebSocket); this is ${process.version}. Run it with \`npm run bench:feed\`.`);
  process.exit(2);
}

const log = benchLog("feed");
let server = null;
let base = "";
let call;
let must;

/** One ActionCable connection subscribed to the account's RoomChannel as `agent`; stamps frames as they arrive. */
function subscribe(agent, accountId) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, "ws") + "/cable", "actioncable-v1-json");
    const identifier = JSON.stringify({ channel: "RoomChannel", pubsub_token: agent.pubsubToken, account_id: accountId, user_id: agent.id });
    const received = frameLog(FRAME_TIMEOUT_MS, `user ${agent.id}'s socket`);
    let bytes = 0;
    const timer = setTimeout(() => reject(new Error(`no confirm_subscription for user ${agent.id}`)), SUBSCRIBE_TIMEOUT_MS);
    ws.addEventListener("error", () => reject(new Error(`socket refused for user ${agent.id}`)));
    ws.addEventListener("message", (e) => {
      bytes += e.data.length;
      const frame = JSON.parse(e.data);
      received.add(frame, performance.now());
      if (frame.type === "welcome") ws.send(JSON.stringify({ command: "subscribe", identifier }));
      if (frame.type === "reject_subscription") reject(new Error(`subscription rejected for user ${agent.id}`));
      if (frame.type === "confirm_subscription") {
        clearTimeout(timer);
        resolve(socket);
      }
    });
    const socket = {
      frames: received.frames,
      bytes: () => bytes,
      close: () => ws.close(1000, "done"),
      /** the first event frame from `from` on for which `match(event, data)` holds */
      next: (match, from = 0) => received.next((f) => f.message && match(f.message.event, f.message.data), from),
    };
  });
}

const ms = (x) => x.toFixed(2);

async function setUp(agentCount) {
  const platform = (method, path, body) => must(method, `/platform/api/v1${path}`, { key: server.platformToken, body });
  const account = await platform("POST", "/accounts", { name: "Feed bench" });
  const person = async (name, role) => {
    const user = await platform("POST", "/users", { name, email: `${name.replace(/\W/g, "").toLowerCase()}.${randomBytes(4).toString("hex")}@example.com`, password: PASSWORD });
    await platform("POST", `/accounts/${account.id}/account_users`, { user_id: user.id, role });
    const profile = await must("GET", "/api/v1/profile", { key: user.access_token });
    return { id: user.id, key: user.access_token, pubsubToken: profile.pubsub_token };
  };
  const admin = await person("Bench Admin", "administrator");
  const accountBase = `/api/v1/accounts/${account.id}`;
  const inbox = await must("POST", `${accountBase}/inboxes`, { key: admin.key, body: { name: "Bench inbox", channel: { type: "api" } } });
  const agents = [];
  for (let i = 0; i < agentCount; i++) {
    agents.push(await person(`Agent ${i}`, "agent"));
    if ((i + 1) % 25 === 0) log(`agents: ${i + 1}/${agentCount}`);
  }
  await must("POST", `${accountBase}/inbox_members`, { key: admin.key, body: { inbox_id: inbox.id, user_ids: agents.map((a) => a.id) } });
  const contact = await must("POST", `${accountBase}/contacts`, { key: admin.key, body: { name: "Casey Customer", inbox_id: inbox.id } });
  const conversation = await must("POST", `${accountBase}/conversations`, { key: admin.key, body: { inbox_id: inbox.id, contact_id: contact.payload.contact.id } });
  return { accountId: account.id, accountBase, admin, agents, conversationId: conversation.id };
}

/** (a) for `sockets` subscribed agents: message create -> its frame on every socket, beside GET /api. */
async function measureFanOut(world, sockets) {
  const connections = await Promise.all(world.agents.slice(0, sockets).map((agent) => subscribe(agent, world.accountId)));
  log(`${sockets} socket(s) subscribed`);
  const runId = randomBytes(3).toString("hex");
  const api = [];
  const response = [];
  const first = [];
  const all = [];
  let beforeAnswer = 0;
  for (let i = -WARMUP; i < MESSAGES; i++) {
    let t0 = performance.now();
    await must("GET", "/api");
    const apiTime = performance.now() - t0;
    const content = `bench ${runId} ${i}`;
    const from = connections.map((c) => c.frames.length);
    t0 = performance.now();
    const created = call("POST", `${world.accountBase}/conversations/${world.conversationId}/messages`, { key: world.admin.key, body: { content } }).then((res) => {
      if (res.status !== 200) throw new Error(`message create: ${res.status} ${JSON.stringify(res.body)}`);
      return performance.now();
    });
    const frames = connections.map((c, n) => c.next((event, data) => event === "message.created" && data.content === content, from[n]));
    const [answeredAt, ...arrived] = await Promise.all([created, ...frames]);
    if (i < 0) continue;
    const times = arrived.map((f) => f.at - t0);
    // every socket had the frame by the time the write's answer was in
    if (arrived.every((f) => f.at <= answeredAt)) beforeAnswer++;
    api.push(apiTime);
    response.push(answeredAt - t0);
    first.push(Math.min(...times));
    all.push(Math.max(...times));
  }
  for (const c of connections) c.close();
  await sleep(300);
  const median = (xs) => percentile(xs, 50);
  const apiMedian = median(api);
  log(`${sockets} socket(s): GET /api ${ms(apiMedian)} ms, frame on every socket ${ms(median(all))} ms (median)`);
  return { sockets, api: apiMedian, response: median(response), first: median(first), all: median(all), allP95: percentile(all, 95), beforeAnswer };
}

/** (b) one idle subscribed connection: what it receives while nothing happens. */
async function measureIdle(world) {
  const connection = await subscribe(world.agents[0], world.accountId);
  const bytesBefore = connection.bytes();
  const framesBefore = connection.frames.length;
  await sleep(IDLE_SECONDS * 1000);
  const frames = connection.frames.slice(framesBefore);
  const pings = frames.filter((f) => f.type === "ping").length;
  const bytes = connection.bytes() - bytesBefore;
  connection.close();
  return { pingsPerMinute: (pings * 60) / IDLE_SECONDS, bytesPerMinute: (bytes * 60) / IDLE_SECONDS, others: frames.length - pings };
}

async function main() {
  log("starting npm start on a free loopback port with a throw-away data directory...");
  server = await startLocalServer({ name: "feed", deadlineMs: DEADLINE_MS });
  base = server.base;
  ({ call, must } = httpClient(base));
  log(`server answers on ${base}; setting up ${Math.max(...SOCKET_COUNTS)} agents`);
  const world = await setUp(Math.max(...SOCKET_COUNTS));

  const rows = [];
  for (const sockets of SOCKET_COUNTS) rows.push(await measureFanOut(world, sockets));
  log(`idle connection for ${IDLE_SECONDS} s...`);
  const idle = await measureIdle(world);

  const date = new Date().toISOString().slice(0, 10);
  const table = [
    "",
    `Recorded ${date}: ${MESSAGES} messages per row (after ${WARMUP} warm-up), every agent a member of the conversation's inbox.`,
    "",
    "| subscribed sockets | GET /api ms (baseline) | POST messages → response ms | → frame on the first socket ms | → frame on every socket ms (p95) | first socket ÷ GET /api | every socket ÷ GET /api | every socket before the answer |",
    "|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.sockets} | ${ms(r.api)} | ${ms(r.response)} | ${ms(r.first)} | ${ms(r.all)} (${ms(r.allP95)}) | ${(r.first / r.api).toFixed(1)} | ${(r.all / r.api).toFixed(1)} | ${r.beforeAnswer} of ${MESSAGES} |`,
    ),
    "",
    `An idle subscribed connection received ${idle.pingsPerMinute.toFixed(0)} pings a minute (${idle.bytesPerMinute.toFixed(0)} bytes a minute, ${idle.others} other frames in ${IDLE_SECONDS} s).`,
    "",
  ].join("\n");
  log("done");
  console.log(table);
}

main()
  .then(async () => {
    await server.stop();
    process.exit(0);
  })
  .catch(async (error) => {
    console.error(error instanceof Error ? error.stack : error);
    if (server) console.error(`--- server output (last 4000 characters) ---\n${server.output()}`);
    await server?.stop();
    process.exit(1);
  });
