import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, get } from "../support/http";
import { createWorld } from "../support/world";
import { publicInbox } from "../public/widget-support";

// This project runs with the TIGHT limits of vitest.config.ts: account and platform 5 per 2 s per key,
// public 8 per 2 s per address and inbox, public creation 3 per 3 s.
// createWorld makes exactly 5 platform calls; each test first waits out every window.
const world = await createWorld("Limited Co");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Structured-field parameters of one list member, e.g. `"account_api";r=4;t=2` -> { r: 4, t: 2 }. */
function member(header: string | null, policy: string): Record<string, number> {
  const item = (header ?? "").split(",").map((s) => s.trim()).find((s) => s.startsWith(`"${policy}"`));
  if (!item) throw new Error(`no ${policy} in ${header}`);
  return Object.fromEntries(item.split(";").slice(1).map((p) => p.split("=")).map(([k, v]) => [k, Number(v)]));
}

async function waitOutWindow() {
  await sleep(3100);
}

describe("rate limits", () => {
  it("counts down on every answer, refuses the burst with 429, Retry-After and the error body, then recovers", async () => {
    await waitOutWindow();
    const path = `${world.base}/contacts`;
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await get(path, world.agent.key));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.slice(0, 5).map((a) => member(a.headers.get("ratelimit"), "account_api").r)).toEqual([4, 3, 2, 1, 0]);
    for (const a of answers) expect(member(a.headers.get("ratelimit-policy"), "account_api")).toEqual({ q: 5, w: 2 });

    const refused = answers[5];
    expect(refused.status).toBe(429);
    expect(refused.body.errors).toEqual([{ field: "", message: expect.stringContaining("account_api"), code: "rate_limited" }]);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    expect(member(refused.headers.get("ratelimit"), "account_api")).toEqual({ r: 0, t: retryAfter });
    expect(refused.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answers[6].status).toBe(429);

    await sleep(retryAfter * 1000 + 50);
    const recovered = await get(path, world.agent.key);
    expect(recovered.status).toBe(200);
    expect(member(recovered.headers.get("ratelimit"), "account_api").r).toBe(4);
  });

  it("counts per key: another key of the same account still has its allowance", async () => {
    await waitOutWindow();
    for (let i = 0; i < 5; i++) await get(`${world.base}/contacts`, world.agent.key);
    expect((await get(`${world.base}/contacts`, world.agent.key)).status).toBe(429);
    expect((await get(`${world.base}/contacts`, world.admin.key)).status).toBe(200);
  });

  it("limits the platform API per platform key", async () => {
    await waitOutWindow();
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await get("/platform/api/v1/accounts", world.platformKey)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("limits public contact and conversation creation much tighter than reads, per address and inbox", async () => {
    await waitOutWindow();
    const inbox = await publicInbox(world.accountId);
    const from = (address: string) => ({ "cf-connecting-ip": address });
    const create = (address: string) => call("POST", `${inbox.base}/contacts`, { body: {}, headers: from(address) });

    const created = [await create("203.0.113.7"), await create("203.0.113.7"), await create("203.0.113.7")];
    expect(created.map((r) => r.status)).toEqual([200, 200, 200]);
    const refused = await create("203.0.113.7");
    expect(refused.status).toBe(429);
    expect(member(refused.headers.get("ratelimit"), "public_create")).toMatchObject({ r: 0 });
    expect(member(refused.headers.get("ratelimit-policy"), "public_create")).toEqual({ q: 3, w: 3 });
    // both policies are announced on a creation
    expect(member(refused.headers.get("ratelimit-policy"), "public_api")).toEqual({ q: 8, w: 2 });

    // reads from the same address still pass: they have their own, larger allowance
    const read = await call("GET", `${inbox.base}/contacts/${created[0].body.source_id}`, { headers: from("203.0.113.7") });
    expect(read.status).toBe(200);
    // another address is counted apart
    expect((await create("198.51.100.4")).status).toBe(200);
  });

  it("limits public reads per address and inbox", async () => {
    await waitOutWindow();
    const inbox = await publicInbox(world.accountId);
    const statuses = [];
    for (let i = 0; i < 9; i++) statuses.push((await call("GET", inbox.base, { headers: { "cf-connecting-ip": "192.0.2.1" } })).status);
    expect(statuses.slice(0, 8).every((s) => s === 200)).toBe(true);
    expect(statuses[8]).toBe(429);
    const otherInbox = await publicInbox(world.accountId);
    expect((await call("GET", otherInbox.base, { headers: { "cf-connecting-ip": "192.0.2.1" } })).status).toBe(200);
  });

  it("limits the help-center site's pages per address and portal, as the public API", async () => {
    await waitOutWindow();
    const portal = await call("POST", `${world.base}/portals`, { key: world.admin.key, body: { name: "Limited docs", slug: "limited-docs" } });
    expect(portal.status).toBe(200);
    const statuses = [];
    for (let i = 0; i < 9; i++) statuses.push((await call("GET", "/hc/limited-docs/en", { headers: { "cf-connecting-ip": "192.0.2.7" } })).status);
    expect(statuses.slice(0, 8).every((s) => s === 200)).toBe(true);
    expect(statuses[8]).toBe(429);
    expect((await call("GET", "/hc/limited-docs/en", { headers: { "cf-connecting-ip": "192.0.2.8" } })).status).toBe(200);
  });

  it("limits opening the live feed (/cable) per address, as the public API", async () => {
    await waitOutWindow();
    const open = async (address: string) => {
      const res = await exports.default.fetch(new Request("http://desk.test/cable", { headers: { upgrade: "websocket", "cf-connecting-ip": address } }));
      res.webSocket?.accept();
      res.webSocket?.close(1000, "done");
      return res;
    };
    const statuses = [];
    for (let i = 0; i < 9; i++) statuses.push((await open("192.0.2.9")).status);
    expect(statuses.slice(0, 8).every((s) => s === 101)).toBe(true);
    const refused = await open("192.0.2.9");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeTruthy();
    expect((await refused.json<{ errors: Array<{ code: string }> }>()).errors[0].code).toBe("rate_limited");
    expect((await open("192.0.2.10")).status).toBe(101);
  });
});

