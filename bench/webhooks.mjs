#!/usr/bin/env node
// npm run bench:webhooks [-- --webhooks N --fanouts N --seconds N --connections N --rounds N]
//
// Webhooks and the write path, against `npm start` on a free loopback port (throw-away data directory):
//   (a) fan-out: --webhooks account webhooks (default 100) on a receiver this script runs on 127.0.0.1,
//       all subscribed to contact_created; one contact create at a time (--fanouts of them), timed from
//       the request to the first and to the last of its deliveries; deliveries per second;
//   (b) throughput: with the webhooks deleted (no receiver listens), --connections requests in flight
//       for --seconds per burst, in --rounds interleaved rounds of GET /api/v1/profile (authentication
//       and one read: the baseline), POST .../conversations/{id}/messages and POST .../contacts:
//       requests per second, p50/p95/p99, and each request's database cost from Server-Timing.
// A Node script, not a workerd test: the receiver is a real HTTP server, the load comes over TCP like a
// client's, and the clock is finer than workerd's (which only advances on I/O).
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { benchLog, boundedOptions, freePort, httpClient, percentile, sleep, startLocalServer } from "./lib/local-server.mjs";

const options = boundedOptions({
  webhooks: [100, 500],
  fanouts: [3, 10],
  seconds: [10, 60],
  connections: [8, 32],
  rounds: [3, 10],
});
/** The whole run, server start included, gives up after this long. */
const DEADLINE_MS = 15 * 60_000;
const FANOUT_TIMEOUT_MS = 120_000;

const log = benchLog("webhooks");
const runId = randomBytes(3).toString("hex");
let server = null;

// ---------------------------------------------------------------------------------------------------
// The receiver: every webhook has its own path; it answers 200 at once and notes when each arrived.

async function startReceiver() {
  const received = [];
  const waiters = new Set();
  const http = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const at = performance.now();
      let payload = {};
      try {
        payload = JSON.parse(body);
      } catch {
        // counted, but matches no event
      }
      received.push({ path: req.url, deliveryId: req.headers["webhook-id"], event: payload.event, subjectId: payload.id, at });
      res.end("ok");
      for (const check of waiters) check();
    });
  });
  const port = await freePort();
  await new Promise((resolve) => http.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    /** the deliveries of `event` about `subjectId`, once there are `count` of them */
    waitFor(event, subjectId, count) {
      const matching = () => received.filter((r) => r.event === event && r.subjectId === subjectId);
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = matching();
          if (found.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${matching().length} of ${count} deliveries of ${event} ${subjectId} arrived within ${FANOUT_TIMEOUT_MS / 1000} s`));
        }, FANOUT_TIMEOUT_MS);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => http.close(resolve)),
  };
}

// ---------------------------------------------------------------------------------------------------

/** Requests for `seconds`, `connections` in flight, each worker one after another; every answer must be 200. */
async function timedBurst(label, seconds, connections, request) {
  const times = [];
  const costs = [];
  let issued = 0;
  const t0 = performance.now();
  const stopAt = t0 + seconds * 1000;
  const worker = async (w) => {
    while (performance.now() < stopAt) {
      const i = issued++;
      const started = performance.now();
      const res = await request(i, w);
      if (res.status !== 200) throw new Error(`${label} #${i}: ${res.status} ${JSON.stringify(res.body)}`);
      times.push(performance.now() - started);
      costs.push(res.timing);
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, w) => worker(w)));
  const elapsed = (performance.now() - t0) / 1000;
  const rps = times.length / elapsed;
  log(`${label}: ${times.length} requests in ${elapsed.toFixed(1)} s, ${rps.toFixed(0)}/s, p50 ${percentile(times, 50).toFixed(1)} ms`);
  return { requests: times.length, elapsed, rps, times, costs };
}

async function main() {
  const { webhooks: WEBHOOKS, fanouts: FANOUTS, seconds: SECONDS, connections: CONNECTIONS, rounds: ROUNDS } = options;
  log("starting npm start on a free loopback port with a throw-away data directory...");
  server = await startLocalServer({ name: "webhooks", deadlineMs: DEADLINE_MS });
  const { must, call } = httpClient(server.base);
  log(`server answers on ${server.base}`);

  const platform = { key: server.platformToken };
  const account = await must("POST", "/platform/api/v1/accounts", { ...platform, body: { name: "Webhooks bench" } });
  const user = await must("POST", "/platform/api/v1/users", { ...platform, body: { name: "Bench Admin", email: `bench.${runId}@example.com`, password: "Passw0rd!long" } });
  await must("POST", `/platform/api/v1/accounts/${account.id}/account_users`, { ...platform, body: { user_id: user.id, role: "administrator" } });
  const key = user.access_token;
  const base = `/api/v1/accounts/${account.id}`;

  // (a) fan-out ------------------------------------------------------------------------------------
  const receiver = await startReceiver();
  log(`receiver on ${receiver.url}; creating ${WEBHOOKS} webhooks subscribed to contact_created...`);
  const hookIds = [];
  for (let i = 0; i < WEBHOOKS; i++) {
    const created = await must("POST", `${base}/webhooks`, { key, body: { url: `${receiver.url}/hook/${i}`, subscriptions: ["contact_created"] } });
    hookIds.push(created.payload.webhook.id);
    if ((i + 1) % 25 === 0 || i + 1 === WEBHOOKS) log(`  ${i + 1}/${WEBHOOKS} webhooks`);
  }

  const fanouts = [];
  for (let n = 1; n <= FANOUTS; n++) {
    const t0 = performance.now();
    const res = await call("POST", `${base}/contacts`, { key, body: { name: `Fan-out ${n}`, email: `fanout.${runId}.${n}@example.com` } });
    const answered = performance.now() - t0;
    if (res.status !== 200) throw new Error(`contact create: ${res.status} ${JSON.stringify(res.body)}`);
    const contactId = res.body.payload.contact.id;
    const deliveries = await receiver.waitFor("contact_created", contactId, WEBHOOKS);
    await sleep(500); // late copies, if any, would show up as duplicates
    const all = receiver.received.filter((r) => r.event === "contact_created" && r.subjectId === contactId);
    const times = all.map((r) => r.at - t0);
    const result = {
      answered,
      first: Math.min(...times),
      last: Math.max(...deliveries.map((r) => r.at - t0)),
      paths: new Set(all.map((r) => r.path)).size,
      ids: new Set(all.map((r) => r.deliveryId)).size,
      copies: all.length,
    };
    result.perSecond = (WEBHOOKS / result.last) * 1000;
    // the fan-out's own pace, without the queue's batching wait before the first delivery
    result.spreadPerSecond = (WEBHOOKS / Math.max(1, result.last - result.first)) * 1000;
    fanouts.push(result);
    log(
      `fan-out ${n}/${FANOUTS}: ${result.copies} deliveries to ${result.paths} webhooks (${result.ids} delivery ids); first after ${result.first.toFixed(0)} ms, all after ${result.last.toFixed(0)} ms: ${result.perSecond.toFixed(0)} deliveries/s from the request, ${result.spreadPerSecond.toFixed(0)}/s from the first delivery`,
    );
  }

  log(`deleting the ${WEBHOOKS} webhooks: the writes below have no receiver...`);
  for (const id of hookIds) await must("DELETE", `${base}/webhooks/${id}`, { key });
  await receiver.close();

  // (b) throughput -----------------------------------------------------------------------------------
  log(`seeding an API inbox and ${CONNECTIONS} conversations (one per connection)...`);
  const inbox = await must("POST", `${base}/inboxes`, { key, body: { name: "Bench inbox", channel: { type: "api" } } });
  const conversations = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const contact = await must("POST", `${base}/contacts`, { key, body: { name: `Customer ${i}`, email: `customer.${runId}.${i}@example.com` } });
    conversations.push((await must("POST", `${base}/conversations`, { key, body: { inbox_id: inbox.id, contact_id: contact.payload.contact.id } })).id);
  }

  let contactSeq = 0;
  const kinds = [
    ["GET /api/v1/profile (baseline)", () => call("GET", "/api/v1/profile", { key })],
    ["POST messages (create)", (i, w) => call("POST", `${base}/conversations/${conversations[w]}/messages`, { key, body: { content: `bench ${runId} ${i}` } })],
    ["POST contacts (create)", () => call("POST", `${base}/contacts`, { key, body: { name: `Bench ${contactSeq}`, email: `bench.${runId}.${contactSeq++}@example.com` } })],
  ];
  log("warming up...");
  for (const [, request] of kinds) for (let i = 0; i < 5; i++) await request(i, 0);

  // Interleaved rounds, so that the baseline and the writes see the same load on a shared machine.
  const bursts = kinds.map(() => []);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [k, [label, request]] of kinds.entries()) {
      bursts[k].push(await timedBurst(`round ${round}/${ROUNDS} ${label}`, SECONDS, CONNECTIONS, request));
    }
  }
  log("done");

  // Report -------------------------------------------------------------------------------------------
  const overall = (rounds) => {
    const times = rounds.flatMap((r) => r.times);
    const costs = rounds.flatMap((r) => r.costs);
    const cost = (k) => percentile(costs.map((c) => c[k]), 50);
    const each = rounds.map((r) => r.rps);
    return {
      requests: times.length,
      rps: times.length / rounds.reduce((s, r) => s + r.elapsed, 0),
      low: Math.min(...each),
      high: Math.max(...each),
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      p99: percentile(times, 99),
      cost: `${cost("roundTrips")} / ${cost("rowsRead")} / ${cost("rowsWritten")}`,
    };
  };
  const results = bursts.map(overall);
  const baseline = results[0];
  const f = (x, digits = 1) => x.toFixed(digits);
  const date = new Date().toISOString().slice(0, 10);
  const fanRows = fanouts.map(
    (r, i) =>
      `| ${i + 1} | ${r.copies} to ${r.paths} webhooks, ${r.ids} delivery ids | ${f(r.answered, 0)} | ${f(r.first, 0)} | ${f(r.last, 0)} | ${f(r.perSecond, 0)} | ${f(r.spreadPerSecond, 0)} |`,
  );
  const table = [
    "",
    `Recorded ${date}: ${WEBHOOKS} webhooks, ${FANOUTS} fan-outs; then ${ROUNDS} rounds of ${SECONDS} s per burst, ${CONNECTIONS} connections.`,
    "",
    "| fan-out | deliveries | contact create answered (ms) | first delivery (ms) | all delivered (ms) | deliveries/s (from the request) | deliveries/s (first to last) |",
    "|---|---|---|---|---|---|---|",
    ...fanRows,
    "",
    "| endpoint | requests | requests/s | rounds (requests/s) | p50 ms | p95 ms | p99 ms | round trips / rows read / rows written (median) | p50 × baseline |",
    "|---|---|---|---|---|---|---|---|---|",
    ...results.map(
      (r, i) =>
        `| ${kinds[i][0]} | ${r.requests} | ${f(r.rps, 0)} | ${f(r.low, 0)}–${f(r.high, 0)} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${r.cost} | ${f(r.p50 / baseline.p50, 2)} |`,
    ),
    "",
  ].join("\n");
  console.log(table);
}

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
