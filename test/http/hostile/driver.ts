/**
 * A generic driver for hostile-input tests: a route is a method, a path template with real ids, a key
 * and (for writes) a "body shape" naming its fields and their kinds. The driver sends hostile path
 * params, query params, JSON, form-urlencoded and multipart bodies, and checks every answer:
 * never a 5xx, and every failure in the specification's error body.
 *
 * Cases come in two strengths:
 * - strict: input no route can accept (a string id, an object where text goes, a body that is not an
 *   object, malformed JSON, text/plain). These must be a 4xx, and for writes the database must be
 *   unchanged afterwards (read back as a fingerprint of every table).
 * - tolerant: odd but possibly legal input (emoji, 100,000 characters, null, a string "1"). These may
 *   succeed; they must never be a 5xx, and a failure must carry the error body.
 */
import { expect } from "vitest";
import { allShards, directory } from "../../support/databases";
import { call, type Reply } from "../../support/http";

/** s text, n integer, f number (Unix seconds: a fraction is fine), id positive id, b boolean, o object, a array, e enum (a name). */
export type Kind = "s" | "n" | "f" | "id" | "b" | "o" | "a" | "e";
export type Shape = Record<string, Kind>;

export type Route = {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** with `:name` placeholders */
  path: string;
  /** real values for the placeholders */
  params: Record<string, string | number>;
  key: string | null;
  /** headers sent with every case (a signed-in client's `access-token`, `client` and `uid`, a widget's `X-Auth-Token`) */
  headers?: Record<string, string>;
  /** a query string sent with every case, after the case's own (the website widget's `website_token=...`) */
  search?: string;
  /** fields of the JSON body (routes that read one) */
  body?: Shape;
  /** query parameters the route reads */
  query?: Shape;
  /** a body the route accepts; each case changes one field of it, so the domain sees the odd value */
  valid?: Record<string, unknown>;
  /**
   * An HTML page (the help-center site): a failure is its 404 page rather than the error body, and it
   * reads its query as a person types it (a page number that is not one shows the first page), so a
   * wrong query value may succeed.
   */
  page?: boolean;
};

export type Problem = { case: string; status: number; body: unknown };

const LONG = "x".repeat(100_000);
const EMOJI = "👩🏽‍💻 Ünïcödé ☃ \u202e\u0000 \ud83d";
const deep = (levels: number): unknown => (levels === 0 ? 1 : { a: deep(levels - 1) });
const deepArray = (levels: number): unknown => (levels === 0 ? 1 : [deepArray(levels - 1)]);

/** Path values no id or slug route may accept (each must be a 4xx). */
export const HOSTILE_PATH = ["abc", "0", "-1", "1.5", "1e3", "99999999999999999999", "%00", "y".repeat(300), "%F0%9F%92%A9", "%FF", "null"];

/** Path values that name nothing yet pass any format check: an unknown slug, an unknown id. */
const UNKNOWN_PATH = ["no-such-thing", "2147483647"];

/**
 * Each query parameter a route reads with a plausible value, one at a time (one the route refuses would
 * hide the others), sent with an unknown path value: the query then runs against something that does not
 * exist (a search in an unknown portal was a 500).
 */
function plausibleQueries(shape: Shape = {}): string[] {
  const sample: Record<Kind, string | null> = { s: "reset", n: "1", f: "1", id: "1", b: "true", e: null, o: null, a: null };
  return Object.entries(shape).flatMap(([name, kind]) => (sample[kind] === null ? [] : [`${encodeURIComponent(name)}=${sample[kind]}`]));
}

/** Values that are the wrong type for a field of this kind, whatever its schema (strict). */
function wrongFor(kind: Kind): Array<[string, unknown]> {
  const objects: Array<[string, unknown]> = [
    ["object", { a: 1 }],
    ["deep object", deep(200)],
    ["__proto__ object", JSON.parse('{"__proto__": {"polluted": 1}}')],
  ];
  const arrays: Array<[string, unknown]> = [
    ["array", [1, "a"]],
    ["deep array", deepArray(200)],
  ];
  switch (kind) {
    case "s":
    case "e":
      return [...objects, ...arrays];
    case "n":
      return [...objects, ...arrays, ["word", "abc"], ["float", 1.5], ["huge", 1e300], ["huge string", "99999999999999999999"]];
    case "f":
      return [...objects, ...arrays, ["word", "abc"], ["negative", -1], ["huge", 1e300], ["infinity string", "Infinity"]];
    case "id":
      return [
        ...objects,
        ...arrays,
        ["word", "abc"],
        ["zero", 0],
        ["negative", -1],
        ["float", 1.5],
        ["huge", 1e300],
        ["huge string", "99999999999999999999"],
        ["unsafe integer", 2 ** 60],
        ["exponent string", "1e3"],
      ];
    case "b":
      return [...objects, ...arrays, ["word", "maybe"], ["number 2", 2]];
    case "o":
      return [...arrays, ["number", 42], ["not json", "{not json"], ["true", true]];
    case "a":
      return [["object", { a: 1 }], ["number", 42], ["true", true], ["deep array", deepArray(200)]];
  }
}

/** Odd but possibly legal values: any field may see these (tolerant). */
const ODD: Array<[string, unknown]> = [
  ["null", null],
  ["empty string", ""],
  ["long string", LONG],
  ["emoji", EMOJI],
  ["true", true],
  ["false", false],
  ["zero", 0],
  ["negative", -1],
  ["float", 1.5],
  ["huge", 1e300],
  ["huge integer", 99999999999999999999],
  ["numeric string", "12"],
  ["empty object", {}],
  ["empty array", []],
  ["array of strings", ["abc"]],
  ["array of huge", [1e300]],
  ["quotes", `'"; DROP TABLE users; --`],
  ["like wildcards", "%_%\\"],
  ["constructor key", JSON.parse('{"constructor": {"prototype": {"polluted": 1}}}')],
];

/** Whole bodies that are not an object (strict for any route that reads a body). */
const NOT_OBJECTS: Array<[string, string]> = [
  ["null", "null"],
  ["array", "[]"],
  ["array of objects", '[{"a":1}]'],
  ["string", '"string"'],
  ["number", "42"],
  ["true", "true"],
];

/** Form bodies (urlencoded and multipart) with Rails-style mistakes; each key is tried per field. */
function formCases(field: string): Array<[string, Array<[string, string]>]> {
  return [
    // "oops", not "abc": a tolerant case may rename a slug to it, and "abc" is a hostile path value
    [`${field}=oops`, [[field, "oops"]]],
    [`${field}[]=oops`, [[`${field}[]`, "oops"]]],
    [`${field}[a][b][c][d]=1`, [[`${field}[a][b][c][d]`, "1"]]],
    [`${field}={not json`, [[field, "{not json"]]],
    [`${field}[0]=1&${field}[x]=2`, [[`${field}[0]`, "1"], [`${field}[x]`, "2"]]],
    [`${field}[__proto__][polluted]=1`, [[`${field}[__proto__][polluted]`, "1"]]],
    [`${field}=<long>`, [[field, "z".repeat(30_000)]]],
  ];
}

const GLOBAL_FORM_CASES: Array<[string, Array<[string, string]>]> = [
  ["__proto__[polluted]=1", [["__proto__[polluted]", "1"]]],
  ["constructor[prototype][polluted]=1", [["constructor[prototype][polluted]", "1"]]],
  ["a[b][c][d]=1", [["a[b][c][d]", "1"]]],
  ["[]=1", [["[]", "1"]]],
  ["]]]=1", [["]]]", "1"]]],
];

/** Query values tried on every route (tolerant), and on the parameters a route reads (strict where wrong). */
const ODD_QUERY: Array<[string, string]> = [
  ["page=0", "page=0"],
  ["page=-1", "page=-1"],
  ["page=abc", "page=abc"],
  ["page[]=1", "page[]=1"],
  ["page=1&page=2", "page=1&page=2"],
  ["page=huge", "page=99999999999999999999"],
  ["page=1e3", "page=1e3"],
  ["sort=bogus", "sort=bogus"],
  ["sort[]=name", "sort[]=name"],
  ["sort=-", "sort=-"],
  ["q=%", "q=%25"],
  ["nul", "q=%00&page=%00"],
  ["long", `q=${"q".repeat(10_000)}`],
  ["bad escape", "q=%E0%A4%A&page=%"],
  ["__proto__", "__proto__=1&constructor=1"],
];

/**
 * Values no parameter should choke on, whatever it reads (tolerant): bad and cut percent-escapes, a NUL,
 * a number past any integer, text past any limit, and the parameter as a list or a map.
 */
function hostileQueryFor(name: string): Array<[string, string]> {
  const v = (value: string) => `${encodeURIComponent(name)}=${value}`;
  return [
    [`${name}=%FF`, v("%FF")],
    [`${name}=%E0%A4%A`, v("%E0%A4%A")],
    [`${name}=%00`, v("%00")],
    [`${name}=huge`, v("99999999999999999999")],
    [`${name}=<long>`, v("l".repeat(10_000))],
    [`${name}[]=1`, `${encodeURIComponent(name)}[]=1&${encodeURIComponent(name)}[]=2`],
    [`${name}[a]=1`, `${encodeURIComponent(name)}[a]=1`],
  ];
}

function wrongQueryFor(name: string, kind: Kind): Array<[string, string]> {
  const v = (value: string) => `${encodeURIComponent(name)}=${value}`;
  const twice = [`${name} twice`, `${v("1")}&${v("2")}`] as [string, string];
  switch (kind) {
    case "n":
    case "id":
      return [[`${name}=abc`, v("abc")], [`${name}=-1`, v("-1")], [`${name}=1.5`, v("1.5")], [`${name}=huge`, v("99999999999999999999")], twice];
    case "f":
      return [[`${name}=abc`, v("abc")], [`${name}=-1`, v("-1")], [`${name}=huge`, v("99999999999999999999")], [`${name}=Infinity`, v("Infinity")], twice];
    case "a":
      return []; // a repeated parameter is a list here, as it should be
    case "e":
      return [[`${name}=bogus`, v("bogus")], [`${name}=99`, v("99")], twice];
    default:
      return [twice];
  }
}

export function fillPath(route: Route, override: Record<string, string> = {}) {
  return route.path.replace(/:(\w+)/g, (_, name: string) => override[name] ?? encodeURIComponent(String(route.params[name])));
}

/** Every row of every table of every database (the directory, then each shard), as one string: "nothing changed" is this being equal before and after. */
export async function fingerprint(): Promise<string> {
  const databases = [directory(), ...allShards()];
  const prints = await Promise.all(databases.map(databaseFingerprint));
  return JSON.stringify(prints);
}

async function databaseFingerprint(db: D1Database) {
  const { results } = await db.prepare(
    // event_outbox and the delivery log (webhook_deliveries and their attempts) move on their own after
    // earlier successful requests (dispatch and delivery run after the response); the change a failed
    // request must not make is in the other tables. The contact and message indexes are compared through
    // their virtual tables, not their shadow tables (one has no rowid).
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%' AND name NOT LIKE 'article_search%' AND name NOT LIKE 'contact\\_search\\_%' ESCAPE '\\' AND name NOT LIKE 'message\\_search\\_%' ESCAPE '\\' AND name NOT IN ('event_outbox', 'webhook_deliveries', 'webhook_delivery_attempts') ORDER BY name",
  ).all<{ name: string }>();
  const tables = results.map((r) => r.name);
  const rows = await db.batch(tables.map((t) => db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`)));
  return tables.map((t, i) => [t, rows[i].results]);
}

const isErrorBody = (body: any) =>
  body !== null &&
  typeof body === "object" &&
  typeof body.description === "string" &&
  Array.isArray(body.errors) &&
  body.errors.length > 0 &&
  body.errors.every((e: any) => e && typeof e.field === "string" && typeof e.message === "string" && typeof e.code === "string");

const isHtmlPage = (reply: Reply) => /^text\/html/.test(reply.headers.get("content-type") ?? "") && typeof reply.body === "string" && /^<!doctype html>/i.test(reply.body);

export class Checker {
  readonly problems: Problem[] = [];
  count = 0;

  /** Never a 5xx; a failure carries the error body (a page's, its HTML page); strict cases must fail with a 4xx. */
  check(name: string, reply: Reply, strict: boolean, expected?: number[], page = false) {
    this.count++;
    const bad =
      reply.status >= 500 ||
      (reply.status >= 400 && !isErrorBody(reply.body) && !(page && isHtmlPage(reply))) ||
      (strict && (reply.status < 400 || reply.status >= 500)) ||
      (expected && !expected.includes(reply.status));
    if (bad) this.problems.push({ case: name, status: reply.status, body: truncate(reply.body) });
    // a form key or JSON key must never reach Object.prototype
    if (({} as any).polluted !== undefined) {
      this.problems.push({ case: `${name}: Object.prototype polluted`, status: reply.status, body: null });
      delete (Object.prototype as any).polluted;
    }
  }

  assertClean() {
    const lines = this.problems.map((p) => `${p.status} ${JSON.stringify(p.case).slice(1, -1)} ${JSON.stringify(p.body)}`);
    expect(lines.join("\n"), `${this.problems.length} of ${this.count} cases failed`).toBe("");
  }
}

const truncate = (body: unknown) => {
  const text = JSON.stringify(body);
  return text && text.length > 300 ? `${text.slice(0, 300)}…` : body;
};

const withSearch = (route: Route, path: string) => (route.search ? `${path}${path.includes("?") ? "&" : "?"}${route.search}` : path);

const send = (route: Route, path: string, init: { body?: unknown; rawBody?: BodyInit; headers?: Record<string, string> } = {}) =>
  call(route.method, withSearch(route, path), { key: route.key, ...init, headers: { ...route.headers, ...init.headers } });

function multipart(pairs: Array<[string, string]>): FormData {
  const form = new FormData();
  for (const [k, v] of pairs) form.append(k, v);
  return form;
}

const urlencoded = (pairs: Array<[string, string]>) => new URLSearchParams(pairs).toString();

const WRITES = new Set(["POST", "PATCH", "PUT", "DELETE"]);

/** One request of the walk and how its answer is judged (see Checker.check). */
type Case = { name: string; strict: boolean; expected?: number[]; send: () => Promise<Reply> };

/**
 * How many cases of one route are in flight at once. One at a time, the Worker idles while each
 * request waits on the database. Strict cases change nothing, so their order does not matter; tolerant
 * ones may succeed, and two of them racing is a race a client could start too (neither may be a 5xx).
 */
const IN_FLIGHT = 8;

async function runCases(cases: Case[], checker: Checker, page: boolean) {
  let next = 0;
  const lane = async () => {
    while (next < cases.length) {
      const c = cases[next++];
      checker.check(c.name, await c.send(), c.strict, c.expected, page);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, cases.length) }, lane));
}

/**
 * Runs every hostile case against one route. Strict cases run first, inside a database fingerprint
 * for writes; tolerant cases follow (they may succeed and change things).
 */
export async function attack(route: Route, checker: Checker) {
  const name = (what: string) => `${route.method} ${route.path} ${what}`;
  const isWrite = WRITES.has(route.method);
  const base = route.valid ?? {};
  const strict: Case[] = [];
  const tolerant: Case[] = [];
  const add = (list: Case[], what: string, path: string, init: Parameters<typeof send>[2], expected?: number[]) =>
    list.push({ name: name(what), strict: list === strict, expected, send: () => send(route, path, init) });

  // path params; with a query, an unknown path value also gets a plausible query, so the route's query
  // runs against something that does not exist
  for (const param of Object.keys(route.params)) {
    for (const value of HOSTILE_PATH) add(strict, `:${param}=${value.slice(0, 20)}`, fillPath(route, { [param]: value }), route.body ? { body: base } : {});
    for (const value of UNKNOWN_PATH) {
      for (const qs of plausibleQueries(route.query)) add(strict, `:${param}=${value}?${qs}`, `${fillPath(route, { [param]: value })}?${qs}`, route.body ? { body: base } : {});
    }
  }
  const path = fillPath(route);

  // bodies every write must refuse, whatever it reads
  if (isWrite) {
    add(strict, "malformed JSON", path, { rawBody: '{"a": ', headers: { "content-type": "application/json" } }, [400]);
    add(strict, "text/plain", path, { rawBody: "a=1", headers: { "content-type": "text/plain" } }, [415]);
    add(strict, "bad multipart", path, { rawBody: "--x\r\nbroken", headers: { "content-type": "multipart/form-data; boundary=x" } });
  }

  if (route.body) {
    for (const [label, raw] of NOT_OBJECTS) add(strict, `body ${label}`, path, { rawBody: raw, headers: { "content-type": "application/json" } });
    for (const [field, kind] of Object.entries(route.body)) {
      for (const [label, value] of wrongFor(kind)) add(strict, `${field}: ${label}`, path, { body: { ...base, [field]: value } });
    }
  }
  if (route.query) {
    for (const [field, kind] of Object.entries(route.query)) {
      for (const [label, qs] of wrongQueryFor(field, kind)) add(route.page ? tolerant : strict, `?${label}`, `${path}?${qs}`, route.body ? { body: base } : {});
      for (const [label, qs] of hostileQueryFor(field)) add(tolerant, `?${label}`, `${path}?${qs}`, route.body ? { body: base } : {});
    }
  }

  // tolerant: odd values, form bodies, odd query strings
  if (route.body) {
    const fields = Object.keys(route.body);
    for (const field of fields) {
      for (const [label, value] of ODD) add(tolerant, `${field}: ${label}`, path, { body: { ...base, [field]: value } });
    }
    // The form parser turns every key into the same JSON shapes the cases above send field by field
    // (nested objects, arrays, long text); what is its own is how it reads the keys, so one field
    // carries the form cases.
    for (const [label, pairs] of [...formCases(fields[0]), ...GLOBAL_FORM_CASES]) {
      add(tolerant, `urlencoded ${label}`, path, { rawBody: urlencoded(pairs), headers: { "content-type": "application/x-www-form-urlencoded" } });
      add(tolerant, `multipart ${label}`, path, { rawBody: multipart(pairs) });
    }
    const everything = Object.fromEntries(fields.map((f) => [f, EMOJI]));
    add(tolerant, "every field emoji", path, { body: everything });
    add(tolerant, "__proto__ body", path, { rawBody: '{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}}', headers: { "content-type": "application/json" } });
    add(tolerant, "deep body", path, { body: deep(5_000) });
  }
  if (route.method === "GET") {
    for (const [label, qs] of ODD_QUERY) add(tolerant, `?${label}`, `${path}?${qs}`, {});
  }

  const before = isWrite ? await fingerprint() : "";
  await runCases(strict, checker, route.page === true);
  if (isWrite) {
    const after = await fingerprint();
    if (after !== before) checker.problems.push({ case: name("strict cases changed the database"), status: 0, body: diff(before, after) });
  }
  await runCases(tolerant, checker, route.page === true);
}

function diff(before: string, after: string) {
  const a = new Map<string, string>(JSON.parse(before).map(([t, rows]: [string, unknown]) => [t, JSON.stringify(rows)]));
  const changed = (JSON.parse(after) as Array<[string, unknown]>).filter(([t, rows]) => a.get(t) !== JSON.stringify(rows)).map(([t]) => t);
  return { changedTables: changed };
}
