/**
 * Hostile input where the generic table (hostile-input*.test.ts) is too blunt: filters, search,
 * full-text queries, template params, webhook URLs, catastrophic regular expressions, D1's
 * 100-parameter limit, and JSON that would poison later reads.
 */
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { describe, expect, it } from "vitest";
import { renderError } from "../../src/http/errors";
import { call, get, patch, post, type Reply } from "../support/http";
import { Checker, fingerprint } from "./hostile/driver";
import { buildWorld } from "./hostile/routes";

const w = await buildWorld();
const { base, admin } = w;
const key = admin.key;

const ids = (n: number, from = 1_000_000) => Array.from({ length: n }, (_, i) => from + i);

/** Sends each case, checking it never 5xxs and fails in the error body; `expected` pins the status. */
async function run(cases: Array<[string, () => Promise<Reply>, number[]?]>) {
  const checker = new Checker();
  for (const [name, send, expected] of cases) checker.check(name, await send(), false, expected);
  checker.assertClean();
}

const contactFilter = (payload: unknown) => () => post(`${base}/contacts/filter`, key, { payload });
const conversationFilter = (payload: unknown) => () => post(`${base}/conversations/filter`, key, { payload });
const cond = (attribute_key: string, filter_operator: string, values: unknown, extra: Record<string, unknown> = {}) => ({
  attribute_key,
  filter_operator,
  values,
  ...extra,
});

describe("contact filter", () => {
  it("answers malformed payloads with a 422 and never a 500", async () => {
    const many = Array.from({ length: 200 }, () => cond("name", "equal_to", ["a"], { query_operator: "AND" }));
    const twenty = (c: object) => Array.from({ length: 20 }, (_, i) => ({ ...c, query_operator: i < 19 ? "OR" : null }));
    await run([
      ["unknown operator", contactFilter([cond("name", "regexp", ["a"])]), [422]],
      ["operator of another key", contactFilter([cond("created_at", "contains", ["a"])]), [422]],
      ["object value", contactFilter([cond("name", "equal_to", [{ a: 1 }])]), [422]],
      ["nested array value", contactFilter([cond("name", "equal_to", [["a"]])]), [422]],
      ["object values", contactFilter([cond("name", "equal_to", { a: 1 })]), [422]],
      ["missing query_operator", contactFilter([cond("name", "equal_to", ["a"]), cond("email", "equal_to", ["b"])]), [422]],
      ["bogus query_operator", contactFilter([cond("name", "equal_to", ["a"], { query_operator: "XOR" }), cond("email", "equal_to", ["b"])]), [422]],
      ["200 conditions", contactFilter(many), [422]],
      ["unknown custom attribute", contactFilter([cond("no_such_key", "equal_to", ["a"])]), [422]],
      ["key with quotes", contactFilter([cond(`a"'b`, "equal_to", ["a"])]), [422]],
      ["key like a json path", contactFilter([cond("$.a[0]", "equal_to", ["a"])]), [422]],
      ["__proto__ key", contactFilter([cond("__proto__", "equal_to", ["a"])]), [422]],
      ["constructor key", contactFilter([cond("constructor", "equal_to", ["a"])]), [422]],
      ["toString operator", contactFilter([cond("name", "toString", ["a"])]), [422]],
      ["date that is not", contactFilter([cond("created_at", "is_greater_than", ["yesterday"])]), [422]],
      ["huge time", contactFilter([cond("created_at", "is_greater_than", [1e306])]), [200, 422]],
      ["huge days_before", contactFilter([cond("created_at", "days_before", [1e306])]), [200, 422]],
      ["negative days_before", contactFilter([cond("created_at", "days_before", [-1])]), [422]],
      ["float days_before", contactFilter([cond("last_activity_at", "days_before", [1.5])]), [422]],
      ["days_before as text", contactFilter([cond("created_at", "days_before", ["9".repeat(400)])]), [200, 422]],
      ["boolean that is not", contactFilter([cond("blocked", "equal_to", ["maybe"])]), [422]],
      ["no values", contactFilter([cond("name", "equal_to", [])]), [422]],
      ["101 values", contactFilter([cond("name", "equal_to", ids(101).map(String))]), [422]],
      ["20 conditions of 100 values", contactFilter(twenty(cond("email", "contains", ids(100).map(String)))), [200]],
      ["20 label conditions of 100 values", contactFilter(twenty(cond("labels", "equal_to", ids(100).map(String)))), [200]],
      ["like wildcards", contactFilter([cond("name", "contains", ["%", "_", "\\"])]), [200]],
      ["long value", contactFilter([cond("name", "contains", ["x".repeat(256)])]), [422]],
      ["empty payload", contactFilter([]), [422]],
      ["payload object", contactFilter({ a: 1 }), [422]],
      ["payload null", contactFilter(null), [422]],
    ]);
  });
});

describe("conversation filter", () => {
  it("answers malformed payloads with a 422, and 20 conditions of 50 values each without a 500", async () => {
    const twenty = (c: object) => Array.from({ length: 20 }, (_, i) => ({ ...c, query_operator: i < 19 ? "OR" : null }));
    await run([
      ["unknown operator", conversationFilter([cond("status", "regexp", ["open"])]), [422]],
      ["unknown status", conversationFilter([cond("status", "equal_to", ["sleeping"])]), [422]],
      ["object value", conversationFilter([cond("status", "equal_to", [{ a: 1 }])]), [422]],
      ["ids that are not", conversationFilter([cond("assignee_id", "equal_to", ["abc"])]), [422]],
      ["missing query_operator", conversationFilter([cond("status", "equal_to", ["open"]), cond("priority", "equal_to", ["low"])]), [422]],
      ["200 conditions", conversationFilter(Array.from({ length: 200 }, () => cond("status", "equal_to", ["open"], { query_operator: "AND" }))), [422]],
      ["unknown custom attribute", conversationFilter([cond("no_such_key", "equal_to", ["a"])]), [422]],
      ["custom key with quotes", conversationFilter([cond(`a"b`, "equal_to", ["a"], { custom_attribute_type: "conversation_attribute" })]), [422]],
      ["bad custom_attribute_type", conversationFilter([cond("status", "equal_to", ["open"], { custom_attribute_type: "x" })]), [422]],
      ["huge date", conversationFilter([cond("created_at", "is_greater_than", ["9".repeat(400)])]), [200, 422]],
      ["huge days_before", conversationFilter([cond("created_at", "days_before", [1e306])]), [200, 422]],
      ["bad date", conversationFilter([cond("created_at", "is_greater_than", ["soon"])]), [422]],
      ["20 status conditions of 50 values", conversationFilter(twenty(cond("status", "equal_to", Array(50).fill("open")))), [200]],
      ["20 id conditions of 50 values", conversationFilter(twenty(cond("inbox_id", "equal_to", ids(50)))), [200]],
      ["20 label conditions of 50 values", conversationFilter(twenty(cond("labels", "equal_to", ids(50).map(String)))), [200]],
      ["20 contains conditions of 50 values", conversationFilter(twenty(cond("referer", "contains", ids(50).map(String)))), [200]],
      ["20 display_id conditions of 50 values", conversationFilter(twenty(cond("display_id", "not_equal_to", ids(50)))), [200]],
      ["page 0", () => post(`${base}/conversations/filter`, key, { payload: [cond("status", "equal_to", ["open"])], page: 0 }), [422]],
    ]);
  });
});

describe("search", () => {
  it("takes any contact search text literally: %, _, quotes, NUL; 10,000 characters is a 422", async () => {
    const search = (q: string) => () => get(`${base}/contacts/search?q=${encodeURIComponent(q)}`, key);
    await run([
      ["%", search("%"), [200]],
      ["_", search("_"), [200]],
      ["quotes", search(`'"\``), [200]],
      ["backslash", search("\\"), [200]],
      ["NUL", search("a\u0000b"), [200]],
      ["emoji", search("👩🏽‍💻"), [200]],
      ["10,000 characters", search("q".repeat(10_000)), [422]],
      ["blank", search("   "), [422]],
    ]);
    const percent = await get(`${base}/contacts/search?q=%25`, key);
    expect(percent.body.payload).toEqual([]);
  });

  it("takes FTS5 syntax in help-center article queries as plain words", async () => {
    const queries = ['"', '""', "*", "pass*", "NEAR(", "NEAR(reset password, 2)", "AND OR NOT", "reset AND", "^reset", "title:reset", "portal_key:p1", "{title}: reset", "reset'", "(", ")", "-reset", "+", "a\u0000", "\uE000", "💥"];
    const cases: Array<[string, () => Promise<Reply>, number[]]> = [];
    for (const q of queries) {
      cases.push([`account ${q}`, () => get(`${base}/portals/docs/articles?query=${encodeURIComponent(q)}`, key), [200]]);
      cases.push([`public ${q}`, () => get(`/public/api/v1/portals/docs/articles?query=${encodeURIComponent(q)}`), [200]]);
    }
    cases.push(["201 characters", () => get(`/public/api/v1/portals/docs/articles?query=${"r".repeat(201)}`), [422]]);
    await run(cases);
    const found = await get(`/public/api/v1/portals/docs/articles?query=${encodeURIComponent('"reset" * ^pass')}`);
    expect(found.body.payload.map((a: any) => a.slug)).toEqual(["reset-password"]);
  });
});

describe("message template_params", () => {
  it("refuses malformed template params with a 422 and writes no message", async () => {
    const send = (template_params: unknown) => () => post(`${base}/conversations/${w.conversation.id}/messages`, key, { content: "x", template_params });
    const good = { name: "order", category: "UTILITY", language: "en", processed_params: {} };
    const before = await fingerprint();
    await run([
      ["string", send("hello"), [422]],
      ["not json", send("{not json"), [422]],
      ["array", send([good]), [422]],
      ["number", send(42), [422]],
      ["unknown category", send({ ...good, category: "SPAM" }), [422]],
      ["bad language", send({ ...good, language: "not a language" }), [422]],
      ["language of 1,000 characters", send({ ...good, language: "e".repeat(1000) }), [422]],
      ["body values of the wrong type", send({ ...good, processed_params: { body: { 1: 42 } } }), [422]],
      ["body of 100,000 characters", send({ ...good, processed_params: { body: { 1: "x".repeat(100_000) } } }), [422]],
      ["javascript media url", send({ ...good, processed_params: { header: { media_url: "javascript:alert(1)" } } }), [422]],
      ["11 buttons", send({ ...good, processed_params: { buttons: Array(11).fill({ type: "url" }) } }), [422]],
      ["processed_params null", send({ ...good, processed_params: null }), [422]],
      ["__proto__ in body", send({ ...good, processed_params: JSON.parse('{"body": {"__proto__": "x"}}') }), [200, 422]],
    ].filter(([name]) => name !== "__proto__ in body") as Array<[string, () => Promise<Reply>, number[]]>);
    expect(await fingerprint()).toBe(before);
    // a __proto__ key is either refused or kept as plain data: it never changes any object's prototype
    const proto = await send({ ...good, processed_params: JSON.parse('{"body": {"__proto__": "x"}}') })();
    expect([200, 422]).toContain(proto.status);
    expect(({} as any).x).toBeUndefined();
  });
});

describe("webhook urls", () => {
  it("refuses loopback, private, link-local and non-http targets, however they are written", async () => {
    const urls = [
      "http://[::1]",
      "http://[::1]:8080/x",
      "http://[::]",
      "http://[::ffff:127.0.0.1]",
      "http://[::ffff:7f00:1]",
      "http://[fe80::1]",
      "http://[fc00::1]",
      "http://0x7f.1",
      "http://0x7f000001",
      "http://2130706433",
      "http://017700000001",
      "http://0177.0.0.1",
      "http://127.1",
      "http://127.0.0.1.",
      "http://0",
      "http://0.0.0.0",
      "http://localhost",
      "http://LOCALHOST.",
      "http://foo.localhost",
      "http://10.0.0.1",
      "http://192.168.1.1",
      "http://172.16.0.1",
      "http://169.254.169.254/latest/meta-data",
      "http://100.64.0.1",
      "javascript:alert(1)",
      "file:///etc/passwd",
      "ftp://example.com",
      "data:text/plain,hi",
      "http://",
      "//example.com",
      "http://user:pass@127.0.0.1",
      "http://%31%32%37.0.0.1",
      "http://ex ample.com",
      `http://${"a".repeat(3000)}.com`,
    ];
    const before = await fingerprint();
    await run(urls.map((url) => [url, () => post(`${base}/webhooks`, key, { url }), [422]] as [string, () => Promise<Reply>, number[]]));
    await run(urls.map((url) => [`update ${url}`, () => patch(`${base}/webhooks/${w.webhook.id}`, key, { url }), [422]] as [string, () => Promise<Reply>, number[]]));
    expect(await fingerprint()).toBe(before);
  });
});

describe("catastrophic regular expressions", () => {
  it("cannot hang a request: a pattern with nested quantifiers is refused, or a long value answers quickly", async () => {
    const patterns = ["^(a+)+$", "(a*)*b", "^(a|a)*$", "^(a|aa)+$", "(.*a){20}", "^(\\w+\\s?)*$", "(x+x+)+y", "^\\d*\\d*\\d*\\d*x$", "^\\d*\\d*\\d*x$", "^(?:(?:a|a){20}){20}$", "^\\d*\\d*x$"];
    for (const [i, regex_pattern] of patterns.entries()) {
      const attribute_key = `code_${i}`;
      const created = await post(`${base}/custom_attribute_definitions`, key, {
        attribute_display_name: `Code ${i}`,
        attribute_key,
        attribute_model: 1,
        attribute_display_type: "text",
        regex_pattern,
      });
      // all but the last are exponential or of too high a degree; the last is the slowest shape accepted
      expect(created.status, regex_pattern).toBe(i === patterns.length - 1 ? 200 : 422);
      if (created.status === 422) expect(created.body.errors[0]).toMatchObject({ field: "regex_pattern", code: "slow_regex" });
      for (const value of ["a".repeat(1500) + "!", "1".repeat(1500), "ab ".repeat(500) + "!", "x".repeat(1500)]) {
        const started = Date.now();
        const res = await patch(`${base}/contacts/${w.contact.id}`, key, { custom_attributes: { [attribute_key]: value } });
        const took = Date.now() - started;
        expect(res.status, `${regex_pattern} ${value.slice(0, 5)}`).toBeLessThan(500);
        // a hang is minutes or more; the bound leaves room for the cubic shape on a loaded machine
        expect(took, `${regex_pattern} on ${value.slice(0, 5)}… took ${took} ms`).toBeLessThan(10_000);
        const onConversation = await post(`${base}/conversations/${w.conversation.id}/custom_attributes`, key, { custom_attributes: { [attribute_key]: value } });
        expect(onConversation.status).toBeLessThan(500);
      }
    }
  }, 120_000);
});

describe("D1's 100-parameter limit", () => {
  it("cannot be reached through lists in the input: they are chunked or refused with a 422", async () => {
    const labels = (n: number) => Array.from({ length: n }, (_, i) => `label-${i}`);
    await run([
      ["inbox members: 5,000 ids", () => post(`${base}/inbox_members`, key, { inbox_id: w.inbox.id, user_ids: ids(5000) }), [422]],
      ["inbox members: 500 unknown ids", () => post(`${base}/inbox_members`, key, { inbox_id: w.inbox.id, user_ids: ids(500) }), [422]],
      ["inbox members: replace with 500 unknown ids", () => patch(`${base}/inbox_members`, key, { inbox_id: w.inbox.id, user_ids: ids(500) }), [422]],
      ["inbox members: remove 500 ids", () => call("DELETE", `${base}/inbox_members`, { key, body: { inbox_id: w.inbox.id, user_ids: ids(500) } }), [200, 422]],
      ["team members: 5,000 ids", () => post(`${base}/teams/${w.team.id}/team_members`, key, { user_ids: ids(5000) }), [422]],
      ["team members: 500 unknown ids", () => post(`${base}/teams/${w.team.id}/team_members`, key, { user_ids: ids(500) }), [422]],
      ["team members: replace with 500 unknown ids", () => patch(`${base}/teams/${w.team.id}/team_members`, key, { user_ids: ids(500) }), [422]],
      ["team members: remove 500 ids", () => call("DELETE", `${base}/teams/${w.team.id}/team_members`, { key, body: { user_ids: ids(500) } }), [200, 422]],
      ["conversation labels: 100", () => post(`${base}/conversations/${w.conversation.id}/labels`, key, { labels: labels(100) }), [200]],
      ["conversation labels: 1,000", () => post(`${base}/conversations/${w.conversation.id}/labels`, key, { labels: labels(1000) }), [422]],
      ["contact labels: 100", () => post(`${base}/contacts/${w.contact.id}/labels`, key, { labels: labels(100) }), [200]],
      ["contact labels: 1,000", () => post(`${base}/contacts/${w.contact.id}/labels`, key, { labels: labels(1000) }), [422]],
      ["contact list: 20 labels", () => get(`${base}/contacts?${labels(20).map((l) => `labels[]=${l}`).join("&")}`, key), [200]],
      ["contact list: 1,000 labels", () => get(`${base}/contacts?${labels(1000).map((l) => `labels[]=${l}`).join("&")}`, key), [422]],
      ["conversation list: 1,000 labels", () => get(`${base}/conversations?labels=${labels(1000).join(",")}`, key), [422]],
      ["conversation list: 10 labels", () => get(`${base}/conversations?labels=${labels(10).join(",")}`, key), [200]],
      ["destroy 100 custom attributes", () => post(`${base}/contacts/${w.contact.id}/destroy_custom_attributes`, key, { custom_attributes: labels(100) }), [200]],
      ["destroy 1,000 custom attributes", () => post(`${base}/contacts/${w.contact.id}/destroy_custom_attributes`, key, { custom_attributes: labels(1000) }), [422]],
      ["reorder 100 unknown articles", () => post(`${base}/portals/docs/articles/reorder`, key, { positions_hash: Object.fromEntries(ids(100).map((id) => [id, 1])) }), [200, 404, 422]],
      ["reorder 1,000 articles", () => post(`${base}/portals/docs/articles/reorder`, key, { positions_hash: Object.fromEntries(ids(1000).map((id) => [id, 1])) }), [422]],
      ["1,000 list values for a definition", () => post(`${base}/custom_attribute_definitions`, key, { attribute_display_name: "Many", attribute_key: "many", attribute_display_type: "list", attribute_model: 1, attribute_values: labels(1000) }), [200]],
      ["5,000 webhook subscriptions", () => post(`${base}/webhooks`, key, { url: "https://many.example.com", subscriptions: Array(5000).fill("message_created") }), [200, 422]],
      ["5,000 custom attribute keys", () => patch(`${base}/contacts/${w.contact.id}`, key, { custom_attributes: Object.fromEntries(labels(5000).map((l) => [l, 1])) }), [200, 422]],
      ["a form key nested 40 deep", () => call("POST", `${base}/contacts`, { key, rawBody: `name${"[a]".repeat(40)}=1`, headers: { "content-type": "application/x-www-form-urlencoded" } }), [400]],
      ["5,000 working hours", () => patch(`${base}/inboxes/${w.inbox.id}`, key, { working_hours: Array(5000).fill({ day_of_week: 1 }) }), [422]],
    ]);
  });
});

describe("JSON that would poison later reads", () => {
  it("refuses, or survives, objects nested deeper than SQLite's JSON functions go, and values larger than a D1 row", async () => {
    const deep = (levels: number): unknown => (levels === 0 ? "x" : { a: deep(levels - 1) });
    await run([
      ["contact additional_attributes nested 2,000 deep", () => patch(`${base}/contacts/${w.contact.id}`, key, { additional_attributes: deep(2000) })],
      ["contact custom_attributes nested 2,000 deep", () => patch(`${base}/contacts/${w.contact.id}`, key, { custom_attributes: { plan: deep(2000) } })],
      ["conversation custom_attributes nested 2,000 deep", () => post(`${base}/conversations/${w.conversation.id}/custom_attributes`, key, { custom_attributes: { x: deep(2000) } })],
      ["contact additional_attributes of 2.5 MB", () => patch(`${base}/contacts/${w.contact.id}`, key, { additional_attributes: { a: "x".repeat(2_500_000) } })],
      ["account custom fields of 2.5 MB", () => post("/platform/api/v1/accounts", w.platformKey, { name: "Big", custom_attributes: { a: "x".repeat(2_500_000) } })],
      ["a body nested 100,000 deep", () => call("PATCH", `${base}/contacts/${w.contact.id}`, { key, rawBody: `{"custom_attributes":${"[".repeat(100_000)}${"]".repeat(100_000)}}`, headers: { "content-type": "application/json" } }), [400, 422]],
      ["a form body nested 10,000 deep", () => call("PATCH", `${base}/contacts/${w.contact.id}`, { key, rawBody: `custom_attributes${"[a]".repeat(10_000)}=1`, headers: { "content-type": "application/x-www-form-urlencoded" } }), [400, 422]],
      ["message content_attributes of 2.5 MB", () => post(`${base}/conversations/${w.conversation.id}/messages`, key, { content: "x", content_attributes: { a: "x".repeat(2_500_000) } })],
    ]);
    // whatever was stored, the account's lists and filters still answer
    await run([
      ["contact list", () => get(`${base}/contacts`, key), [200]],
      ["contact show", () => get(`${base}/contacts/${w.contact.id}`, key), [200]],
      ["contact filter on country_code", contactFilter([cond("country_code", "equal_to", ["de"])]), [200]],
      ["contact filter on a custom attribute", contactFilter([cond("plan", "equal_to", ["gold"])]), [200]],
      ["conversation filter on a custom attribute", conversationFilter([cond("x", "is_present", [], { custom_attribute_type: "conversation_attribute" })]), [200, 422]],
      ["conversation filter on referer", conversationFilter([cond("referer", "contains", ["a"])]), [200]],
      ["conversation list", () => get(`${base}/conversations?status=all`, key), [200]],
      ["messages", () => get(`${base}/conversations/${w.conversation.id}/messages`, key), [200]],
    ]);
  });
});

describe("the shared error handler", () => {
  it("answers D1's input-size failures with a 422, not a 500", async () => {
    for (const [message, code] of [
      ["D1_ERROR: too many SQL variables at offset 417: SQLITE_ERROR", "too_many_values"],
      ["D1_ERROR: string or blob too big: SQLITE_TOOBIG", "too_large"],
    ]) {
      const app = new Hono().use(requestId()).get("/", () => {
        throw new Error(message);
      });
      app.onError(renderError);
      const res = await app.request("/");
      expect(res.status).toBe(422);
      expect((await res.json<any>()).errors).toEqual([{ field: "", message: expect.any(String), code }]);
    }
  });
});
