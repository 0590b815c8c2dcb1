/**
 * The website widget's limits (TIGHT, vitest.config.ts: widget_page 3 per 3 s per address, public
 * creation 3 per 3 s per address and inbox): each /widget load without a visitor token makes a contact
 * and is counted per address; a load with a valid token is not; starting conversations counts as the
 * public API's creations do.
 */
import { describe, expect, it } from "vitest";
import { call } from "../support/http";
import { loadPage, pageGlobals, websiteWorld } from "../widget/website-support";

const site = await websiteWorld("Limited Shop");
const otherSite = await websiteWorld("Other Shop");

function expectRefused(reply: { status: number; body: any; headers: Headers }, policy: string) {
  expect(reply.status).toBe(429);
  expect(reply.body.errors).toEqual([{ field: "", message: expect.stringContaining(policy), code: "rate_limited" }]);
  expect(reply.headers.get("retry-after")).toEqual(expect.any(String));
}

describe("the widget's limits", () => {
  it("counts page loads without a token per address, and never a load with a valid token", async () => {
    const first = await loadPage(`website_token=${site.token}`, "192.0.2.10");
    expect(first.status).toBe(200);
    const token = pageGlobals(first.body).authToken;
    for (let i = 0; i < 2; i++) expect((await loadPage(`website_token=${site.token}`, "192.0.2.10")).status).toBe(200);
    expectRefused(await loadPage(`website_token=${site.token}`, "192.0.2.10"), "widget_page");
    // a forged or foreign token is no token
    expectRefused(await loadPage(`website_token=${site.token}&cw_conversation=not-a-token`, "192.0.2.10"), "widget_page");
    expect((await loadPage(`website_token=${site.token}&cw_conversation=${token}`, "192.0.2.10")).status).toBe(200);
    expect((await loadPage(`website_token=${site.token}`, "192.0.2.11")).status).toBe(200);
  });

  it("counts a load with another website's valid token, which makes a contact here as no token does", async () => {
    const foreign = pageGlobals((await loadPage(`website_token=${otherSite.token}`, "192.0.2.30")).body).authToken;
    const load = () => loadPage(`website_token=${site.token}&cw_conversation=${foreign}`, "192.0.2.31");
    for (let i = 0; i < 3; i++) expect((await load()).status).toBe(200);
    expectRefused(await load(), "widget_page");
    const config = () => call("POST", `/api/v1/widget/config?website_token=${site.token}`, { body: {}, headers: { "x-auth-token": foreign, "cf-connecting-ip": "192.0.2.32" } });
    for (let i = 0; i < 3; i++) expect((await config()).status).toBe(200);
    expectRefused(await config(), "widget_page");
  });

  it("counts new conversations against public_create", async () => {
    const page = await loadPage(`website_token=${site.token}`, "192.0.2.20");
    const token = pageGlobals(page.body).authToken;
    const start = () =>
      call("POST", `/api/v1/widget/conversations?website_token=${site.token}`, { body: { message: { content: "hi" } }, headers: { "x-auth-token": token, "cf-connecting-ip": "192.0.2.20" } });
    for (let i = 0; i < 3; i++) expect((await start()).status).toBe(200);
    expectRefused(await start(), "public_create");
  });
});
