import { describe, expect, it } from "vitest";
import { call, post } from "../support/http";
import { createWorld } from "../support/world";
import { shardOf } from "../support/databases";
import { publicInbox } from "../public/widget-support";

// TIGHT limits (vitest.config.ts): public 8 per 2 s per address and inbox, public creation 3 per 3 s.
// The public limits count per inbox (or portal) as the router resolved it: every spelling of one
// identifier that reaches the same inbox must spend the same allowance.
const world = await createWorld("Spelled Co");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const waitOutWindow = () => sleep(3100);

/** `identifier` with its character at `index` percent-encoded, in upper- or lower-case hex. */
function encodedAt(identifier: string, index: number, hexCase: "upper" | "lower" = "upper") {
  const hex = identifier.charCodeAt(index).toString(16);
  const escape = `%${hexCase === "upper" ? hex.toUpperCase() : hex.toLowerCase()}`;
  return identifier.slice(0, index) + escape + identifier.slice(index + 1);
}

/** Ways to write the path of one inbox that the router resolves to that inbox. */
function spellings(identifier: string) {
  const base = "/public/api/v1/inboxes";
  return [
    `${base}/${identifier}`,
    `${base}/${encodedAt(identifier, 0)}`,
    `${base}/${encodedAt(identifier, identifier.length - 1, "lower")}`,
    `${base}/${[...identifier].map((ch) => `%${ch.charCodeAt(0).toString(16)}`).join("")}`,
    `${base}/${identifier}/`,
    `/public/%61pi/v1/inboxes/${encodedAt(identifier, 1)}`,
  ];
}

const from = (address: string) => ({ "cf-connecting-ip": address });

function expectRefused(reply: { status: number; body: any }, policy: string) {
  expect(reply.status).toBe(429);
  expect(reply.body.errors).toEqual([{ field: "", message: expect.stringContaining(policy), code: "rate_limited" }]);
}

describe("public rate limits count per inbox however the path spells it", () => {
  it("shares one contact-creation allowance across percent-encoded and trailing-slash spellings", async () => {
    await waitOutWindow();
    const inbox = await publicInbox(world.accountId);
    const paths = spellings(inbox.identifier);
    const create = (path: string) => call("POST", `${path.replace(/\/$/, "")}/contacts`, { body: {}, headers: from("203.0.113.20") });

    const allowed = [await create(paths[0]), await create(paths[1]), await call("POST", `${inbox.base}/contacts/`, { body: {}, headers: from("203.0.113.20") })];
    expect(allowed.map((r) => r.status)).toEqual([200, 200, 200]);
    // 3 + 5 requests: within public_api's 8, so each refusal is public_create's
    for (const path of paths.slice(1)) expectRefused(await create(path), "public_create");

    expect(await contactsOf(inbox.id)).toBe(3);
  });

  it("shares one read allowance across every spelling of the inbox", async () => {
    await waitOutWindow();
    const inbox = await publicInbox(world.accountId);
    const paths = spellings(inbox.identifier);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await call("GET", paths[i % paths.length], { headers: from("192.0.2.30") })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
    for (const path of paths) expectRefused(await call("GET", path, { headers: from("192.0.2.30") }), "public_api");
    // the inbox's deeper routes count against the same allowance
    expectRefused(await call("GET", `${paths[1]}/contacts/anyone`, { headers: from("192.0.2.30") }), "public_api");
    // a double slash reaches no inbox at all: no route, so no allowance to spend and nothing served
    for (const path of [`/public/api/v1/inboxes//${inbox.identifier}`, `/public/api/v1//inboxes/${inbox.identifier}`]) {
      const reply = await call("GET", path, { headers: from("192.0.2.30") });
      expect(reply.status).toBe(404);
      expect(reply.body.errors[0].code).toBe("route_not_found");
    }
  });

  it("shares one read allowance across every spelling of a help-center portal", async () => {
    await waitOutWindow();
    const portal = await post(`${world.base}/portals`, world.admin.key, { name: "Docs", slug: "spelled-docs" });
    expect(portal.status).toBe(200);
    const paths = ["/public/api/v1/portals/spelled-docs", "/public/api/v1/portals/%73pelled-docs", "/public/api/v1/portals/spelled%2Ddocs/", "/public/api/v1/portals/spelled-docs/articles"];
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await call("GET", paths[i % paths.length], { headers: from("192.0.2.31") })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
    for (const path of paths) expectRefused(await call("GET", path, { headers: from("192.0.2.31") }), "public_api");
  });

  it("counts CSAT survey lookups per client address, not per uuid: guessing new uuids spends one allowance", async () => {
    await waitOutWindow();
    const survey = () => `/public/api/v1/csat_survey/${crypto.randomUUID()}`;
    const answer = { submitted_values: { csat_survey_response: { rating: 5 } } };
    // at once, so that the burst fits one window however slow the machine
    const replies = await Promise.all([
      ...Array.from({ length: 10 }, () => call("GET", survey(), { headers: from("192.0.2.32") })),
      ...Array.from({ length: 2 }, () => call("PUT", survey(), { body: answer, headers: from("192.0.2.32") })),
    ]);
    expect(replies.filter((r) => r.status === 404)).toHaveLength(8);
    const refused = replies.filter((r) => r.status !== 404);
    expect(refused).toHaveLength(4);
    for (const reply of refused) expectRefused(reply, "public_api");
    // another address has its own allowance
    expect((await call("GET", survey(), { headers: from("192.0.2.33") })).status).toBe(404);
  });

  it("counts a public write before reading its body: a refused request is a 429 whatever it sends", async () => {
    await waitOutWindow();
    const inbox = await publicInbox(world.accountId);
    const create = (rawBody: string) =>
      call("POST", `${inbox.base}/contacts`, { rawBody, headers: { ...from("203.0.113.21"), "content-type": "application/json" } });
    expect((await create("{}")).status).toBe(200);
    expect((await create("{}")).status).toBe(200);
    expect((await create("{}")).status).toBe(200);
    expectRefused(await create('{"name": "Broken'), "public_create");
    expectRefused(await create(JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) })), "public_create");
    expect(await contactsOf(inbox.id)).toBe(3);
  });
});

async function contactsOf(inboxId: number) {
  const row = await (await shardOf(world.accountId)).prepare("SELECT count(*) AS n FROM contact_inboxes WHERE inbox_id = ?").bind(inboxId).first<{ n: number }>();
  return row!.n;
}
