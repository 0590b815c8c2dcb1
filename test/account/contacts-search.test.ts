import { beforeAll, describe, expect, it } from "vitest";
import { shardOf } from "../support/databases";
import { call, get, post } from "../support/http";
import { insertContactAttributeDefinition, seedContacts } from "../support/contact-fixtures";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
const ids: Record<string, number> = {};

const names = (res: { body: { payload: { name: string }[] } }) => res.body.payload.map((c) => c.name);
const filter = (body: unknown, query = "") => post(`${world.base}/contacts/filter${query}`, world.agent.key, body);
const cond = (attribute_key: string, filter_operator: string, values: unknown[], query_operator?: string) => ({
  attribute_key,
  filter_operator,
  values,
  ...(query_operator && { query_operator }),
});

beforeAll(async () => {
  world = await createWorld("Search");
  await insertContactAttributeDefinition(world.accountId, { key: "plan", displayType: 6, values: ["free", "pro"] });
  await insertContactAttributeDefinition(world.accountId, { key: "seats", displayType: 1 });
  await insertContactAttributeDefinition(world.accountId, { key: 'odd."key', displayType: 7 });
  const seeds: Record<string, unknown>[] = [
    { name: "Ada Lovelace", email: "ada@analytical.org", identifier: "ADA-1", additional_attributes: { city: "London", company_name: "Analytical" }, custom_attributes: { plan: "pro", seats: 12 } },
    { name: "Alan Turing", email: "alan@bletchley.uk", phone_number: "+441234500000", additional_attributes: { city: "London", country_code: "GB" }, custom_attributes: { plan: "free", seats: 2 } },
    { name: "Grace Hopper", phone_number: "+12025550100", additional_attributes: { city: "New York", company_name: "Navy" }, blocked: true },
    { name: "Katherine Johnson", identifier: "kj%_1", custom_attributes: { seats: 40 } },
    { name: "Mary Jackson", identifier: "mj", custom_attributes: { seats: "15", 'odd."key': true } },
    { name: "Lonely visitor" },
  ];
  for (const seed of seeds) {
    const res = await post(`${world.base}/contacts`, world.admin.key, seed);
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    ids[seed.name as string] = res.body.payload.contact.id;
  }
  await post(`${world.base}/contacts/${ids["Ada Lovelace"]}/labels`, world.admin.key, { labels: ["vip"] });
  // Test setup: an old last activity for one contact.
  await (await shardOf(world.accountId)).prepare("UPDATE contacts SET last_activity_at = ? WHERE id = ?").bind(Date.parse("2020-01-01"), ids["Alan Turing"]).run();
});

describe("search", () => {
  it("matches name, email and phone number case-insensitively and identifier as typed, over all contacts", async () => {
    expect(names(await get(`${world.base}/contacts/search?q=LOVE`, world.agent.key))).toEqual(["Ada Lovelace"]);
    expect(names(await get(`${world.base}/contacts/search?q=BLETCHLEY`, world.agent.key))).toEqual(["Alan Turing"]);
    expect(names(await get(`${world.base}/contacts/search?q=${encodeURIComponent("+1202")}`, world.agent.key))).toEqual(["Grace Hopper"]);
    expect(names(await get(`${world.base}/contacts/search?q=ADA-1`, world.agent.key))).toEqual(["Ada Lovelace"]);
    expect(names(await get(`${world.base}/contacts/search?q=%25_`, world.agent.key))).toEqual(["Katherine Johnson"]);
    expect(names(await get(`${world.base}/contacts/search?q=visitor`, world.agent.key))).toEqual(["Lonely visitor"]);
  });

  it("answers Chatwoot's meta with has_more, pages by 15 and honours sort", async () => {
    const res = await get(`${world.base}/contacts/search?q=a&sort=-name`, world.agent.key);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ count: 5, current_page: 1, has_more: false });
    expect(names(res)).toEqual(["Mary Jackson", "Katherine Johnson", "Grace Hopper", "Alan Turing", "Ada Lovelace"]);
    const page2 = await get(`${world.base}/contacts/search?q=a&page=2`, world.agent.key);
    expect(page2.body.meta).toEqual({ count: 0, current_page: "2", has_more: false });
  });

  it("reports has_more when a further page exists", async () => {
    // Unlisted contacts (name only): search covers them, the filter tests below never see them.
    for (let i = 0; i < 16; i++) await post(`${world.base}/contacts`, world.admin.key, { name: `Zed ${i}` });
    const first = await get(`${world.base}/contacts/search?q=zed`, world.agent.key);
    expect(first.body.meta).toEqual({ count: 15, current_page: 1, has_more: true, next_cursor: expect.any(String) });
    const byCursor = await get(`${world.base}/contacts/search?q=zed&cursor=${first.body.meta.next_cursor}`, world.agent.key);
    expect(byCursor.body.meta).toMatchObject({ count: 1, has_more: false });
    expect(byCursor.body.meta).not.toHaveProperty("next_cursor");
    const second = await get(`${world.base}/contacts/search?q=zed&page=2`, world.agent.key);
    expect(second.body.meta).toEqual({ count: 1, current_page: "2", has_more: false });
  });

  it("keeps the index in step with every create, update, merge and delete", async () => {
    const found = async (q: string) => names(await get(`${world.base}/contacts/search?q=${encodeURIComponent(q)}`, world.agent.key));
    const created = await post(`${world.base}/contacts`, world.admin.key, { name: "Émile Zola", email: "emile@rougon.fr" });
    const id = created.body.payload.contact.id;
    expect(await found("ÉMILE")).toEqual(["Émile Zola"]);
    expect(await found("émile zo")).toEqual(["Émile Zola"]);
    await call("PATCH", `${world.base}/contacts/${id}`, { key: world.admin.key, body: { name: "東京太郎", phone_number: "+33123456789" } });
    expect(await found("Zola")).toEqual([]);
    expect(await found("京太郎")).toEqual(["東京太郎"]);
    expect(await found("3123456")).toEqual(["東京太郎"]);
    const other = await post(`${world.base}/contacts`, world.admin.key, { name: "Mergee", identifier: "merge-me-please" });
    await post(`${world.base}/actions/contact_merge`, world.admin.key, { base_contact_id: id, mergee_contact_id: other.body.payload.contact.id });
    expect(await found("Mergee")).toEqual([]);
    expect(await found("merge-me")).toEqual(["東京太郎"]);
    await call("DELETE", `${world.base}/contacts/${id}`, { key: world.admin.key });
    expect(await found("京太郎")).toEqual([]);
    expect(await found("merge-me")).toEqual([]);
  });

  it("requires q", async () => {
    const res = await get(`${world.base}/contacts/search`, world.agent.key);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe("q");
  });
});

describe("filter", () => {
  it("filters by standard keys with AND binding tighter than OR", async () => {
    // blocked OR (London AND pro) -> Grace, Ada; read left to right it would be (blocked OR London) AND pro -> Ada
    const res = await filter({ payload: [cond("blocked", "equal_to", ["true"], "or"), cond("city", "equal_to", ["london"], "AND"), cond("plan", "equal_to", ["pro"])] });
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(["Ada Lovelace", "Grace Hopper"]);
    expect(res.body.meta).toEqual({ count: 2, current_page: 1, has_more: false });
  });

  it("supports the operators of each key, custom attributes by type, and labels", async () => {
    const cases: [unknown[], string[]][] = [
      [[cond("name", "contains", ["TUR"])], ["Alan Turing"]],
      [[cond("email", "does_not_contain", ["analytical"])], ["Alan Turing", "Grace Hopper", "Katherine Johnson", "Mary Jackson"]],
      [[cond("phone_number", "starts_with", ["+44"])], ["Alan Turing"]],
      [[cond("identifier", "equal_to", ["ADA-1"])], ["Ada Lovelace"]],
      [[cond("country_code", "equal_to", ["gb"])], ["Alan Turing"]],
      [[cond("company", "not_equal_to", ["navy"])], ["Ada Lovelace", "Alan Turing", "Katherine Johnson", "Mary Jackson"]],
      [[cond("labels", "equal_to", ["vip"])], ["Ada Lovelace"]],
      [[cond("labels", "is_not_present", [])], ["Alan Turing", "Grace Hopper", "Katherine Johnson", "Mary Jackson"]],
      [[cond("seats", "is_greater_than", [10])], ["Ada Lovelace", "Katherine Johnson", "Mary Jackson"]],
      [[cond("seats", "equal_to", [15])], ["Mary Jackson"]],
      [[cond('odd."key', "equal_to", [true])], ["Mary Jackson"]],
      [[cond('odd."key', "not_equal_to", ["true"], "AND"), cond("seats", "is_present", [])], ["Ada Lovelace", "Alan Turing", "Katherine Johnson"]],
      [[cond("seats", "is_less_than", ["10"], "AND"), cond("plan", "equal_to", ["free"])], ["Alan Turing"]],
      [[cond("last_activity_at", "is_less_than", ["2021-01-01"])], ["Alan Turing"]],
      [[cond("last_activity_at", "days_before", [30])], ["Alan Turing"]],
      [[cond("created_at", "is_greater_than", ["2021-01-01"], "AND"), cond("name", "equal_to", ["grace hopper"])], ["Grace Hopper"]],
    ];
    for (const [payload, expected] of cases) {
      const res = await filter({ payload });
      expect(res.status, JSON.stringify(payload)).toBe(200);
      expect(Number(/db-round-trips;desc="(\d+)"/.exec(res.headers.get("server-timing")!)![1])).toBeLessThanOrEqual(3);
      expect(names(res), JSON.stringify(payload)).toEqual(expected);
    }
  });

  it("refuses unknown keys, operators, query operators and bad values with a 422 naming the condition", async () => {
    const cases: [unknown, string, string][] = [
      [{ payload: [cond("password", "equal_to", ["x"])] }, "payload[0].attribute_key", "unknown_attribute"],
      [{ payload: [cond("name", "is_greater_than", ["x"])] }, "payload[0].filter_operator", "invalid_operator"],
      [{ payload: [cond("name", "equal_to; DROP TABLE contacts", ["x"])] }, "payload[0].filter_operator", "invalid_operator"],
      [{ payload: [cond("name", "equal_to", ["x"], "XOR"), cond("email", "equal_to", ["y"])] }, "payload[0].query_operator", "invalid_query_operator"],
      [{ payload: [cond("name", "equal_to", ["x"]), cond("email", "equal_to", ["y"])] }, "payload[0].query_operator", "invalid_query_operator"],
      [{ payload: [cond("name", "equal_to", ["x"], "AND"), cond("created_at", "is_greater_than", ["not a date"])] }, "payload[1].values", "invalid_value"],
      [{ payload: [cond("seats", "equal_to", ["many"])] }, "payload[0].values", "invalid_value"],
      [{ payload: [cond("name", "equal_to", [])] }, "payload[0].values", "invalid_value"],
      [{ payload: [] }, "payload", "too_few"],
      [{ payload: [{ attribute_key: "name" }] }, "payload[0].filter_operator", "required"],
      [{ payload: "name" }, "payload", "invalid_type"],
    ];
    for (const [body, field, code] of cases) {
      const res = await filter(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0], JSON.stringify(body)).toMatchObject({ field, code });
    }
    expect((await call("POST", `${world.base}/contacts/filter`, { key: world.agent.key, rawBody: "{bad json", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await filter({ payload: [cond("name", "contains", ["a"])] }, "?sort=nope")).status).toBe(422);
  });

  it("lists the contacts having any of labels[] on GET /contacts", async () => {
    await post(`${world.base}/contacts/${ids["Grace Hopper"]}/labels`, world.admin.key, { labels: ["navy"] });
    const one = await get(`${world.base}/contacts?labels[]=vip`, world.agent.key);
    expect(names(one)).toEqual(["Ada Lovelace"]);
    expect(one.body.meta).toEqual({ count: 1, current_page: 1, has_more: false });
    const both = await get(`${world.base}/contacts?labels[]=vip&labels[]=navy&sort=-name`, world.agent.key);
    expect(names(both)).toEqual(["Grace Hopper", "Ada Lovelace"]);
  });

  it("keeps working, bound, with quotes and many values", async () => {
    const res = await filter({ payload: [cond("name", "equal_to", [...Array.from({ length: 99 }, (_, i) => `x' OR 1=1 -- ${i}`), "ada lovelace"])] });
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(["Ada Lovelace"]);
  });
});

describe("cost at scale (3,000 contacts)", () => {
  let big: World;
  const rowsRead = (res: { headers: Headers }) => Number(/db-rows-read;desc="(\d+)"/.exec(res.headers.get("server-timing")!)![1]);
  const idsOf = (res: { body: { payload: { id: number }[] } }) => res.body.payload.map((c) => c.id);

  beforeAll(async () => {
    big = await createWorld("Big search");
    await seedContacts(big.accountId, 3_000);
  });

  it("searches through the index: rows read follow the matches, not the account", async () => {
    const rare = await get(`${big.base}/contacts/search?q=c1234%40&include_contact_inboxes=false`, big.agent.key);
    expect(rare.body.payload.map((c: { email: string }) => c.email)).toEqual(["c1234@bench.test"]);
    expect(rowsRead(rare)).toBeLessThan(30);
    const none = await get(`${big.base}/contacts/search?q=no-such-contact&include_contact_inboxes=false`, big.agent.key);
    expect(none.body.meta).toEqual({ count: 0, current_page: 1, has_more: false });
    expect(rowsRead(none)).toBeLessThan(20);
  });

  it("walks a one-character search by cursor, each request within its budget, to the same answer as by page", async () => {
    const byPage: number[] = [];
    for (let page = 1; ; page++) {
      const res = await get(`${big.base}/contacts/search?q=7&page=${page}&include_contact_inboxes=false`, big.agent.key);
      byPage.push(...idsOf(res));
      if (!res.body.meta.has_more) break;
    }
    const byCursor: number[] = [];
    let path = `${big.base}/contacts/search?q=7&include_contact_inboxes=false`;
    for (;;) {
      const res = await get(path, big.agent.key);
      expect(rowsRead(res)).toBeLessThan(3 * 1_000 + 100);
      byCursor.push(...idsOf(res));
      if (!res.body.meta.has_more) break;
      path = `${big.base}/contacts/search?q=7&include_contact_inboxes=false&cursor=${res.body.meta.next_cursor}`;
    }
    expect(byCursor.length).toBeGreaterThan(15);
    expect(byCursor).toEqual(byPage);
  }, 60_000);

  it("filters through indexes where a key has one, and continues a scan by cursor where none does", async () => {
    const bench = (payload: unknown[], query = "") => post(`${big.base}/contacts/filter?include_contact_inboxes=false${query}`, big.agent.key, { payload });
    // city "City 7" holds 1 in 50; the label index, email equality and trigram contains are as narrow
    const city = await bench([cond("city", "equal_to", ["city 7"])]);
    expect(city.body.meta).toMatchObject({ count: 15, has_more: true });
    expect(rowsRead(city)).toBeLessThan(3 * (3_000 / 50) + 40);
    const email = await bench([cond("email", "equal_to", ["c21@bench.test"], "OR"), cond("name", "contains", ["Contact 1234"])]);
    expect(rowsRead(email)).toBeLessThan(40);
    expect(email.body.payload.length).toBeGreaterThanOrEqual(1);
    // blocked and country_code have no index: a paged scan, at most 1,000 contacts a request
    const all: number[] = [];
    let cursor = "";
    for (let n = 0; n < 10; n++) {
      const res = await bench([cond("blocked", "equal_to", ["true"], "OR"), cond("country_code", "equal_to", ["nowhere"])], cursor);
      expect(res.status).toBe(200);
      expect(rowsRead(res)).toBeLessThan(3 * 1_000 + 300);
      all.push(...idsOf(res));
      if (!res.body.meta.has_more) break;
      cursor = `&cursor=${res.body.meta.next_cursor}`;
    }
    expect(all).toEqual([]);
    expect(cursor).not.toBe("");
  }, 60_000);
});
