/**
 * Contact list cost by account size: for each sort, page 1 and the last page of an account with 1,000
 * and one with 100,000 contacts, the database round trips and D1 rows read (from Server-Timing) and the
 * median latency as a multiple of GET /api measured in the same run. Prints a markdown table.
 */
import { exports } from "cloudflare:workers";
import { expect, it } from "vitest";
import { seedContacts } from "../test/support/contact-fixtures";
import { createWorld } from "../test/support/world";

/** Latency: the median of RUNS blocks, each the mean of BLOCK back-to-back requests (workerd's clock is coarse). */
const RUNS = 5;
const BLOCK = 4;
const SORTS = ["", "name", "-name", "email", "-email", "phone_number", "-phone_number", "last_activity_at", "-last_activity_at",
  "created_at", "-created_at", "company", "-company", "city", "-city", "country", "-country"];

type Sample = { roundTrips: number; rowsRead: number; ms: number; status: number };

async function measure(path: string, key?: string): Promise<Sample> {
  const headers: Record<string, string> = key ? { api_access_token: key } : {};
  const started = performance.now();
  const res = await exports.default.fetch(new Request(`https://desk.test${path}`, { headers }));
  await res.text();
  const ms = performance.now() - started;
  const timing = res.headers.get("server-timing") ?? "";
  const metric = (name: string) => Number(new RegExp(`${name};desc="(\\d+)"`).exec(timing)?.[1] ?? NaN);
  return { roundTrips: metric("db-round-trips"), rowsRead: metric("db-rows-read"), ms, status: res.status };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function medianOf(path: string, key?: string) {
  const blocks: number[] = [];
  let first: Sample | null = null;
  for (let i = 0; i < RUNS; i++) {
    const samples: Sample[] = [];
    for (let j = 0; j < BLOCK; j++) samples.push(await measure(path, key));
    expect(samples.every((s) => s.status === 200), path).toBe(true);
    first ??= samples[0];
    blocks.push(samples.reduce((sum, s) => sum + s.ms, 0) / BLOCK);
  }
  return { ...first!, ms: median(blocks) };
}

it("measures the contact list at 1,000 and 100,000 contacts", async () => {
  const lines: string[] = [];
  for (const size of [1_000, 100_000]) {
    const world = await createWorld(`Bench ${size}`);
    const started = Date.now();
    const listed = await seedContacts(world.accountId, size);
    const lastPage = Math.ceil(listed / 15);
    for (let i = 0; i < 20; i++) await measure("/api"); // warm-up: the first requests of a run are slower
    const baseline = await medianOf("/api");
    lines.push(`\n### ${size.toLocaleString("en")} contacts (${listed} listed, last page ${lastPage}; seeded in ${Date.now() - started} ms; GET /api median ${baseline.ms.toFixed(2)} ms)\n`);
    lines.push("| sort | page | round trips | rows read | median latency (× GET /api) |", "|---|---|---|---|---|");
    for (const sort of SORTS) {
      for (const page of [1, lastPage]) {
        const query = `sort=${sort}&page=${page}&include_contact_inboxes=false`.replace(/^sort=&/, "");
        const m = await medianOf(`${world.base}/contacts?${query}`, world.agent.key);
        lines.push(`| ${sort || "(default)"} | ${page} | ${m.roundTrips} | ${m.rowsRead} | ${(m.ms / baseline.ms).toFixed(1)} |`);
      }
    }
    for (const [label, path] of [
      ["search q=contact 1 (page 1)", `${world.base}/contacts/search?q=contact%201&include_contact_inboxes=false`],
      ["search q=no-such-contact (page 1)", `${world.base}/contacts/search?q=no-such-contact&include_contact_inboxes=false`],
      ["list with contact_inboxes (page 1, sort=name)", `${world.base}/contacts?sort=name`],
    ]) {
      const m = await medianOf(path, world.agent.key);
      lines.push(`| ${label} | 1 | ${m.roundTrips} | ${m.rowsRead} | ${(m.ms / baseline.ms).toFixed(1)} |`);
    }
  }
  console.log(lines.join("\n"));
});
