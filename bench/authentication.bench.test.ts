/**
 * What authentication costs: every account request reads its key (or sign-in), the owner, the account
 * and the membership from the directory before it does anything else (src/domain/identity/access.ts).
 * For a few requests that stop early or do little else, the round trips and D1 rows read (Server-Timing)
 * and the median latency as a multiple of GET /api, measured in the same run; then the throughput of a
 * stream of such requests, eight in flight, also against GET /api. Prints a markdown table.
 */
import { exports } from "cloudflare:workers";
import { expect, it } from "vitest";
import { createWorld } from "../test/support/world";
import { type Sample, measure } from "./lib/measure";

/** Latency: the median of RUNS blocks, each the mean of BLOCK back-to-back requests (workerd's clock is coarse). */
const RUNS = 7;
const BLOCK = 5;
/** Throughput: this many requests, IN_FLIGHT at a time, per kind. */
const STREAM = 600;
const IN_FLIGHT = 8;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function medianOf(path: string, headers: Record<string, string>, status: number) {
  const blocks: number[] = [];
  let first: Sample | null = null;
  for (let i = 0; i < RUNS; i++) {
    const samples: Sample[] = [];
    for (let j = 0; j < BLOCK; j++) samples.push(await measure(path, headers));
    expect(samples.every((s) => s.status === status), path).toBe(true);
    first ??= samples[0];
    blocks.push(samples.reduce((sum, s) => sum + s.ms, 0) / BLOCK);
  }
  return { ...first!, ms: median(blocks) };
}

/** Requests per second of STREAM requests, IN_FLIGHT at a time. */
async function throughput(path: string, headers: Record<string, string>) {
  let next = 0;
  const started = performance.now();
  const lane = async () => {
    while (next++ < STREAM) await measure(path, headers);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return STREAM / ((performance.now() - started) / 1000);
}

it("measures what authentication costs", { timeout: 600_000 }, async () => {
  const a = await createWorld("Bench A");
  const b = await createWorld("Bench B");
  const signIn = await exports.default.fetch(
    new Request("https://desk.test/auth/sign_in", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: a.agent.email, password: "Passw0rd!long" }),
    }),
  );
  expect(signIn.status).toBe(200);
  const session = Object.fromEntries(["access-token", "client", "uid"].map((name) => [name, signIn.headers.get(name)!]));
  const key = (k: string) => ({ api_access_token: k });

  const cases: Array<[string, string, Record<string, string>, number]> = [
    ["GET /api (no key; the baseline)", "/api", {}, 200],
    ["GET /api/v1/profile, a user's key", "/api/v1/profile", key(a.agent.key), 200],
    ["GET …/labels, an agent's key", `${a.base}/labels`, key(a.agent.key), 200],
    ["GET …/labels, a signed-in client", `${a.base}/labels`, session, 200],
    ["GET …/labels, an unknown key (401)", `${a.base}/labels`, key("not-a-key"), 401],
    ["GET …/labels of another account (403)", `${b.base}/labels`, key(a.agent.key), 403],
  ];
  for (let i = 0; i < 30; i++) await measure("/api", {}); // warm-up: the first requests of a run are slower
  const baseline = await medianOf("/api", {}, 200);
  const baselineRate = await throughput("/api", {});
  const lines = [
    `GET /api median ${baseline.ms.toFixed(2)} ms, ${baselineRate.toFixed(0)} requests/s with ${IN_FLIGHT} in flight`,
    "",
    "| request | round trips | rows read | median latency (× GET /api) | requests/s (× GET /api) |",
    "|---|---|---|---|---|",
  ];
  for (const [label, path, headers, status] of cases.slice(1)) {
    const m = await medianOf(path, headers, status);
    const rate = await throughput(path, headers);
    // a refused key proves nobody, so its answer carries no database figures (src/http/server-timing.ts)
    const figure = (n: number) => (Number.isNaN(n) ? "not shown" : String(n));
    lines.push(`| ${label} | ${figure(m.roundTrips)} | ${figure(m.rowsRead)} | ${(m.ms / baseline.ms).toFixed(2)} | ${(rate / baselineRate).toFixed(2)} |`);
  }
  console.log(lines.join("\n"));
});
