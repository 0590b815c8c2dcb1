import { beforeAll, describe, expect, it } from "vitest";
import { shardOf } from "../support/databases";
import { type Reply, get, post } from "../support/http";
import { seedContacts } from "../support/contact-fixtures";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;

type Seed = {
  name?: string;
  email?: string;
  phone_number?: string;
  identifier?: string;
  additional_attributes?: Record<string, string>;
  /** set in the database (no API sets it): epoch ms */
  lastActivityAt?: number;
  createdAt?: number;
};

/**
 * Listed contacts with ties (same name in another case, same city, same times) and missing values for
 * every key; plus contacts without email, phone number or identifier, which are never listed.
 */
const SEEDS: Seed[] = [
  { name: "alice", email: "alice@example.com", additional_attributes: { city: "Paris", country: "France", company_name: "Acme" }, lastActivityAt: 3000 },
  { name: "Bob", phone_number: "+33100000002", additional_attributes: { city: "paris" }, lastActivityAt: 1000, createdAt: 5000 },
  { name: "bob", identifier: "bob-2", additional_attributes: { city: "Berlin", country: "Germany" }, lastActivityAt: 1000, createdAt: 5000 },
  { name: "+15550000", phone_number: "+15550000000", additional_attributes: { company_name: "acme" } },
  { name: "42 Street", email: "street@example.com", additional_attributes: { country: "france" }, lastActivityAt: 2000 },
  { name: "", email: "anon@example.com", additional_attributes: { company_name: "Zeta" }, lastActivityAt: 5000 },
  { name: "Zoe", email: "zoe@example.com", phone_number: "+15550000001", additional_attributes: { city: "Amsterdam" } },
  { name: "charlie", identifier: "c-1", createdAt: 1000 },
  { name: "Dora", email: "dora@example.com", additional_attributes: { company_name: "Beta", city: "Oslo", country: "Norway" }, lastActivityAt: 2000 },
  { name: "eve", phone_number: "+4900000001", additional_attributes: { company_name: "beta" }, createdAt: 1000 },
  ...Array.from({ length: 8 }, (_, i): Seed => ({ name: `Filler ${i % 3}`, email: `filler${i}@example.com`, additional_attributes: i % 2 ? { city: "Rome" } : {} })),
];
const UNLISTED: Seed[] = [{ name: "Aaron visitor" }, { name: "" }];

type Listed = { id: number; seed: Seed };
let listed: Listed[] = [];

const text = (v: string | undefined) => (v && v.trim() !== "" ? v.trim().toLowerCase() : null);
/** The value each sort key compares, or null for "no value" (listed last). */
const KEY_OF: Record<string, (s: Seed, id: number) => string | number | null> = {
  name: (s) => (text(s.name) === null ? null : (/^[+0-9]/.test(s.name!.trim()) ? "1" : "0") + text(s.name)),
  email: (s) => s.email ?? null,
  phone_number: (s) => s.phone_number ?? null,
  last_activity_at: (s) => s.lastActivityAt ?? null,
  created_at: (s, id) => s.createdAt ?? 100_000 + id,
  company: (s) => text(s.additional_attributes?.company_name),
  city: (s) => text(s.additional_attributes?.city),
  country: (s) => text(s.additional_attributes?.country),
};

/** The documented order, computed independently of the server. */
function expectedOrder(key: string, descending: boolean): number[] {
  const value = KEY_OF[key];
  const sign = descending ? -1 : 1;
  return [...listed]
    .sort((a, b) => {
      const [va, vb] = [value(a.seed, a.id), value(b.seed, b.id)];
      if (va === null || vb === null) return va === vb ? sign * (a.id - b.id) : va === null ? 1 : -1;
      if (va !== vb) return sign * (va < vb ? -1 : 1);
      return sign * (a.id - b.id);
    })
    .map((c) => c.id);
}

async function allPages(query: string) {
  const ids: number[] = [];
  const pageSizes: number[] = [];
  for (let page = 1; page <= 3; page++) {
    const res = await get(`${world.base}/contacts?${query}&page=${page}`, world.agent.key);
    expect(res.status).toBe(200);
    const more = page * 15 < listed.length;
    expect(res.body.meta).toEqual({ count: listed.length, current_page: String(page), ...(more && { next_cursor: expect.any(String) }) });
    pageSizes.push(res.body.payload.length);
    ids.push(...res.body.payload.map((c: { id: number }) => c.id));
  }
  return { ids, pageSizes };
}

/** Follows the `Link: <...>; rel="next"` headers from `path` to the end; checks meta.next_cursor agrees. */
async function cursorWalk(path: string, key: string, limit = 1_000) {
  const ids: number[] = [];
  const rowsRead: number[] = [];
  let next: string | null = path;
  for (let n = 0; next !== null && n < limit; n++) {
    const res: Reply = await get(next, key);
    expect(res.status, next).toBe(200);
    ids.push(...res.body.payload.map((c: { id: number }) => c.id));
    rowsRead.push(Number(/db-rows-read;desc="(\d+)"/.exec(res.headers.get("server-timing")!)![1]));
    const link: string | null = res.headers.get("link");
    const url: string | null = link ? /^<https:\/\/[^/]+([^>]+)>; rel="next"$/.exec(link)![1] : null;
    expect(url === null, "Link and meta.next_cursor agree").toBe(res.body.meta.next_cursor === undefined);
    if (url) expect(new URL(url, "https://x").searchParams.get("cursor")).toBe(res.body.meta.next_cursor);
    next = url;
  }
  return { ids, rowsRead };
}

beforeAll(async () => {
  world = await createWorld("Lists");
  for (const seed of [...SEEDS, ...UNLISTED]) {
    const { lastActivityAt, createdAt, ...body } = seed;
    const res = await post(`${world.base}/contacts`, world.admin.key, body);
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    const id: number = res.body.payload.contact.id;
    // Test setup: times no API sets.
    if (lastActivityAt !== undefined || createdAt !== undefined) {
      await (await shardOf(world.accountId)).prepare("UPDATE contacts SET last_activity_at = coalesce(?, last_activity_at), created_at = coalesce(?, created_at) WHERE id = ?")
        .bind(lastActivityAt ?? null, createdAt ?? null, id)
        .run();
    }
    if (!UNLISTED.includes(seed)) listed.push({ id, seed: { ...seed, createdAt: createdAt ?? 100_000 + id } });
  }
  // created_at of the contacts without a set time: what the server stored, so ties and order are real.
  const rows = await (await shardOf(world.accountId)).prepare("SELECT id, created_at FROM contacts WHERE account_id = ?").bind(world.accountId).all<{ id: number; created_at: number }>();
  const stored = new Map(rows.results.map((r) => [r.id, r.created_at]));
  listed = listed.map((c) => ({ ...c, seed: { ...c.seed, createdAt: stored.get(c.id)! } }));
});

describe("list contacts", () => {
  it("lists only contacts with an email, a phone number or an identifier, 15 a page, by id without sort", async () => {
    const { ids, pageSizes } = await allPages("");
    expect(pageSizes).toEqual([15, listed.length - 15, 0]);
    expect(ids).toEqual(listed.map((c) => c.id).sort((a, b) => a - b));
  });

  for (const key of Object.keys(KEY_OF)) {
    for (const descending of [false, true]) {
      const sort = `${descending ? "-" : ""}${key}`;
      it(`orders by ${sort} with ties by id and contacts without a value last`, async () => {
        const { ids, pageSizes } = await allPages(`sort=${encodeURIComponent(sort)}`);
        expect(pageSizes).toEqual([15, listed.length - 15, 0]);
        expect(ids).toEqual(expectedOrder(key, descending));
      });
    }
  }

  for (const key of Object.keys(KEY_OF)) {
    for (const descending of [false, true]) {
      const sort = `${descending ? "-" : ""}${key}`;
      it(`continues by cursor in the order of ${sort}`, async () => {
        const { ids } = await cursorWalk(`${world.base}/contacts?sort=${encodeURIComponent(sort)}&page=1`, world.agent.key);
        expect(ids).toEqual(expectedOrder(key, descending));
      });
    }
  }

  it("refuses a cursor it did not give out, or one of another order, with a 422 on cursor", async () => {
    const first = await get(`${world.base}/contacts?sort=name`, world.agent.key);
    const cursor = first.body.meta.next_cursor as string;
    const forged = btoa(JSON.stringify({ s: "name", k: 5, i: 1 })).replace(/=+$/, "");
    for (const query of [`sort=-name&cursor=${cursor}`, `cursor=${cursor}`, "sort=name&cursor=abc", `sort=name&cursor=${forged}`, "cursor=a%2Bb"]) {
      const res = await get(`${world.base}/contacts?${query}`, world.agent.key);
      expect(res.status, query).toBe(422);
      expect(res.body.errors[0].field).toBe("cursor");
    }
  });

  it("answers current_page 1 without page, and includes contact inboxes", async () => {
    const res = await get(`${world.base}/contacts?sort=name`, world.admin.key);
    expect(res.body.meta.current_page).toBe(1);
    expect(res.body.payload[0]).toHaveProperty("contact_inboxes", []);
    const without = await get(`${world.base}/contacts?include_contact_inboxes=false`, world.admin.key);
    expect(without.body.payload[0]).not.toHaveProperty("contact_inboxes");
  });

  it("answers an empty /contacts/active while no contact has a widget socket open (test/feed/presence.test.ts opens one)", async () => {
    const res = await get(`${world.base}/contacts/active?page=1`, world.agent.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ meta: { count: 0, current_page: "1", has_more: false }, payload: [] });
  });

  it("refuses an unknown sort key and a page below 1", async () => {
    for (const query of ["sort=phone", "sort=--name", "page=0", "page=-1", "page=two"]) {
      const res = await get(`${world.base}/contacts?${query}`, world.agent.key);
      expect(res.status, query).toBe(422);
      expect(res.body.errors[0].field).toBe(query.split("=")[0]);
    }
  });

  it("costs at most 3 round trips and reads rows in proportion to the page, not the account", async () => {
    for (const sort of ["name", "-name", "email", "-last_activity_at", "created_at", "city"]) {
      const res = await get(`${world.base}/contacts?sort=${sort}&include_contact_inboxes=false`, world.agent.key);
      const timing = res.headers.get("server-timing")!;
      expect(Number(/db-round-trips;desc="(\d+)"/.exec(timing)![1])).toBeLessThanOrEqual(3);
      // auth (a handful) + at most 15 index entries per part + 15 rows + the counter
      expect(Number(/db-rows-read;desc="(\d+)"/.exec(timing)![1]), sort).toBeLessThan(60);
    }
  });
});

describe("cost at scale", () => {
  it("reads the same rows for page 1 of an account with 3,000 contacts as of one with 20", async () => {
    const big = await createWorld("Big");
    const listedCount = await seedContacts(big.accountId, 3_000);
    const rowsRead = async (w: World, query: string) => {
      const res = await get(`${w.base}/contacts?${query}&include_contact_inboxes=false`, w.agent.key);
      expect(res.status).toBe(200);
      return { rows: Number(/db-rows-read;desc="(\d+)"/.exec(res.headers.get("server-timing")!)![1]), body: res.body };
    };
    for (const sort of ["", "name", "-name", "email", "-phone_number", "last_activity_at", "-created_at", "company", "-city", "country"]) {
      const small = await rowsRead(world, `sort=${sort}`);
      const large = await rowsRead(big, `sort=${sort}`);
      expect(large.body.meta.count).toBe(listedCount);
      expect(large.body.payload).toHaveLength(15);
      expect(large.rows, sort).toBeLessThanOrEqual(small.rows + 2);
    }
    // Walked by cursor to the end, in orders with missing values and ties: complete, in the documented
    // order, and the last page costs what the first costs.
    for (const [sort, order] of [
      ["name", "name_sort IS NULL, name_sort, id"],
      ["-company", "company_sort IS NULL, company_sort DESC, id DESC"],
    ] as const) {
      const { ids, rowsRead } = await cursorWalk(`${big.base}/contacts?sort=${sort}&include_contact_inboxes=false`, big.agent.key);
      const stored = await (await shardOf(big.accountId)).prepare(`SELECT id FROM contacts WHERE account_id = ? AND resolved = 1 ORDER BY ${order}`).bind(big.accountId).all<{ id: number }>();
      expect(ids, sort).toEqual(stored.results.map((r) => r.id));
      // (a descending page after a cursor may also look at up to a page of entries without a value)
      expect(Math.max(...rowsRead), sort).toBeLessThanOrEqual(rowsRead[0] + 20);
      const lastByPage = await get(`${big.base}/contacts?sort=${sort}&include_contact_inboxes=false&page=${Math.ceil(ids.length / 15)}`, big.agent.key);
      expect(Number(/db-rows-read;desc="(\d+)"/.exec(lastByPage.headers.get("server-timing")!)![1])).toBeGreaterThan(ids.length);
    }
  }, 60_000);
});
