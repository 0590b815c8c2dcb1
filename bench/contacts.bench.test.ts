/**
 * Contact list cost by account size: for each sort, page 1 and the last page of an account with 1,000
 * and one with 100,000 contacts, the database round trips and D1 rows read (from Server-Timing) and the
 * median latency as a multiple of GET /api measured in the same run. Prints a markdown table.
 */
import { env, exports } from "cloudflare:workers";
import { expect, it } from "vitest";
import { createWorld } from "../test/support/world";

/** Latency: the median of RUNS blocks, each the mean of BLOCK back-to-back requests (workerd's clock is coarse). */
const RUNS = 5;
const BLOCK = 4;
const SORTS = ["", "name", "-name", "email", "-email", "phone_number", "-phone_number", "last_activity_at", "-last_activity_at",
  "created_at", "-created_at", "company", "-company", "city", "-city", "country", "-country"];

/**
 * Seeds `count` contacts in one statement (a recursive CTE, so no bound-parameter limit applies): 90 %
 * listed, a spread of names (some starting with a digit, some empty), 50 cities, a third without
 * company, a fifth without last activity. The derived sort columns follow src/domain/contact-fields.ts.
 */
async function seed(accountId: number, count: number) {
  await env.DB.prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?2),
     rows AS (SELECT n,
       CASE WHEN n % 50 = 0 THEN '' WHEN n % 17 = 0 THEN n || ' Street' ELSE 'Contact ' || ((n * 7919) % 100003) END AS name,
       CASE WHEN n % 10 < 7 THEN 'c' || n || '@bench.test' END AS email,
       CASE WHEN n % 10 IN (6, 7, 8) THEN '+1555' || substr('0000000' || n, -7) END AS phone,
       CASE WHEN n % 10 = 8 THEN 'id-' || n END AS identifier,
       'City ' || (n % 50) AS city, CASE WHEN n % 3 > 0 THEN 'Company ' || (n % 97) END AS company,
       'Country ' || (n % 20) AS country,
       CASE WHEN n % 5 > 0 THEN 1700000000000 + ((n * 104729) % 1000000) * 1000 END AS activity
       FROM seq)
     INSERT INTO contacts (account_id, name, email, phone_number, identifier, blocked, additional_attributes, custom_attributes,
       last_activity_at, resolved, name_sort, company_sort, city_sort, country_sort, created_at, updated_at)
     SELECT ?1, name, email, phone, identifier, 0,
       json_object('city', city, 'company_name', company, 'country', country), '{}', activity,
       (email IS NOT NULL OR phone IS NOT NULL OR identifier IS NOT NULL),
       CASE WHEN name = '' THEN NULL WHEN substr(name, 1, 1) GLOB '[+0-9]' THEN '1' || lower(name) ELSE '0' || lower(name) END,
       lower(company), lower(city), lower(country), 1700000000000 + n, 1700000000000 + n
     FROM rows`,
  )
    .bind(accountId, count)
    .run();
  const listed = await env.DB.prepare("SELECT count(*) AS n FROM contacts WHERE account_id = ? AND resolved = 1").bind(accountId).first<{ n: number }>();
  await env.DB.prepare("INSERT INTO counters (account_id, key, value) VALUES (?, 'contacts.resolved', ?)").bind(accountId, listed!.n).run();
  return listed!.n;
}

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
    const listed = await seed(world.accountId, size);
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
