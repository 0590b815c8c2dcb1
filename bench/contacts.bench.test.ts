/**
 * Contact list cost by account size: for each sort, page 1 and the last page of an account with 1,000
 * and one with 100,000 contacts, the database round trips and D1 rows read (from Server-Timing) and the
 * median latency as a multiple of GET /api measured in the same run. Prints a markdown table.
 */
import { exports } from "cloudflare:workers";
import { expect, it } from "vitest";
import { seedContacts } from "../test/support/contact-fixtures";
import { createWorld } from "../test/support/world";
import { type Sample, measure } from "./lib/measure";

/** Latency: the median of RUNS blocks, each the mean of BLOCK back-to-back requests (workerd's clock is coarse). */
const RUNS = 5;
const BLOCK = 4;
const SORTS = ["", "name", "-name", "email", "-email", "phone_number", "-phone_number", "last_activity_at", "-last_activity_at",
  "created_at", "-created_at", "company", "-company", "city", "-city", "country", "-country"];

/** GET `path` with `key` (none for the baseline). */
const measureAs = (path: string, key?: string) => measure(path, key ? { api_access_token: key } : {});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function medianOf(path: string, key?: string) {
  const blocks: number[] = [];
  let first: Sample | null = null;
  for (let i = 0; i < RUNS; i++) {
    const samples: Sample[] = [];
    for (let j = 0; j < BLOCK; j++) samples.push(await measureAs(path, key));
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
    for (let i = 0; i < 20; i++) await measureAs("/api"); // warm-up: the first requests of a run are slower
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

/**
 * Search, each filter key and the last page by `page` and by `cursor`, at 1,000 and 100,000 contacts:
 * round trips, rows read, what the answer found (`count`, `has_more`) and the median latency.
 */
it("measures contact search, filters and the last page by cursor at 1,000 and 100,000 contacts", async () => {
  const lines: string[] = [];
  const cond = (attribute_key: string, filter_operator: string, values: unknown[]) => ({ attribute_key, filter_operator, values });
  for (const size of [1_000, 100_000]) {
    const world = await createWorld(`Search bench ${size}`);
    const listed = await seedContacts(world.accountId, size);
    const lastPage = Math.ceil(listed / 15);
    for (let i = 0; i < 20; i++) await measureAs("/api");
    const baseline = await medianOf("/api");
    const contacts = `${world.base}/contacts`;
    const cursorOf = async (path: string) =>
      (await exports.default.fetch(new Request(`https://desk.test${path}`, { headers: { api_access_token: world.agent.key } })).then((r) => r.json())) as {
        meta: { next_cursor?: string };
      };
    const gets: Array<[string, string]> = [
      [`list page ${lastPage} by page`, `${contacts}?page=${lastPage}&include_contact_inboxes=false`],
      [`list sort=name page ${lastPage} by page`, `${contacts}?sort=name&page=${lastPage}&include_contact_inboxes=false`],
    ];
    const beforeLast = (await cursorOf(`${contacts}?page=${lastPage - 1}&include_contact_inboxes=false`)).meta.next_cursor;
    if (beforeLast) gets.push([`list page ${lastPage} by cursor`, `${contacts}?cursor=${beforeLast}&include_contact_inboxes=false`]);
    const byName = (await cursorOf(`${contacts}?sort=name&page=${lastPage - 1}&include_contact_inboxes=false`)).meta.next_cursor;
    if (byName) gets.push([`list sort=name page ${lastPage} by cursor`, `${contacts}?sort=name&cursor=${byName}&include_contact_inboxes=false`]);
    for (const q of ["contact 1", "no-such-contact", "c77@bench", "id-88", "+1555000", "co"]) {
      gets.push([`search q=${q}`, `${contacts}/search?q=${encodeURIComponent(q)}&include_contact_inboxes=false`]);
    }
    gets.push(["search q=contact 1 sort=name", `${contacts}/search?q=${encodeURIComponent("contact 1")}&sort=name&include_contact_inboxes=false`]);
    const filters: Array<[string, unknown[]]> = [
      ["email = c77@bench.test", [cond("email", "equal_to", ["c77@bench.test"])]],
      ["phone_number = +15550000076", [cond("phone_number", "equal_to", ["+15550000076"])]],
      ["identifier = id-88", [cond("identifier", "equal_to", ["id-88"])]],
      ["name = 17 street", [cond("name", "equal_to", ["17 street"])]],
      ["city = city 7", [cond("city", "equal_to", ["city 7"])]],
      ["company = company 5", [cond("company", "equal_to", ["company 5"])]],
      ["labels = vip", [cond("labels", "equal_to", ["vip"])]],
      ["created_at > last 10 s of seed", [cond("created_at", "is_greater_than", [Math.floor((1700000000000 + size - 10_000) / 1000)])]],
      ["last_activity_at days_before 1", [cond("last_activity_at", "days_before", [1])]],
      ["name contains street", [cond("name", "contains", ["street"])]],
      ["phone_number starts_with +1555", [cond("phone_number", "starts_with", ["+1555"])]],
      ["country_code = xx (scan)", [cond("country_code", "equal_to", ["xx"])]],
      ["blocked = true (scan)", [cond("blocked", "equal_to", ["true"])]],
    ];
    lines.push(`\n### ${size.toLocaleString("en")} contacts (${listed} listed; GET /api median ${baseline.ms.toFixed(2)} ms)\n`);
    lines.push("| request | round trips | rows read | count / has_more | median latency (× GET /api) |", "|---|---|---|---|---|");
    const row = async (name: string, request: () => Promise<Response>) => {
      const samples: number[] = [];
      let first: { roundTrips: number; rowsRead: number; found: string } | null = null;
      for (let i = 0; i < RUNS * BLOCK; i++) {
        const started = performance.now();
        const res = await request();
        const body = (await res.json()) as { meta: { count: number; has_more?: boolean } };
        samples.push(performance.now() - started);
        expect(res.status, name).toBe(200);
        if (!first) {
          const timing = res.headers.get("server-timing") ?? "";
          const metric = (m: string) => Number(new RegExp(`${m};desc="(\\d+)"`).exec(timing)?.[1] ?? NaN);
          first = { roundTrips: metric("db-round-trips"), rowsRead: metric("db-rows-read"), found: `${body.meta.count} / ${body.meta.has_more ?? "-"}` };
        }
      }
      lines.push(`| ${name} | ${first!.roundTrips} | ${first!.rowsRead} | ${first!.found} | ${(median(samples) / baseline.ms).toFixed(1)} |`);
    };
    const headers = { api_access_token: world.agent.key };
    for (const [name, path] of gets) await row(name, () => exports.default.fetch(new Request(`https://desk.test${path}`, { headers })));
    for (const [name, payload] of filters) {
      await row(`filter ${name}`, () =>
        exports.default.fetch(
          new Request(`https://desk.test${contacts}/filter?include_contact_inboxes=false`, {
            method: "POST",
            headers: { ...headers, "content-type": "application/json" },
            body: JSON.stringify({ payload }),
          }),
        ),
      );
    }
  }
  console.log(lines.join("\n"));
});
