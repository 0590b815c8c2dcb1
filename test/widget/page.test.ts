/** GET /widget: the website widget's page (docs/widget.md). */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sign } from "hono/jwt";
import { call, get } from "../support/http";
import { shardOf } from "../support/databases";
import { loadPage, pageGlobals, tokenPayload, websiteWorld } from "./website-support";

const site = await websiteWorld("Page Shop", { welcome_title: "Hi </script><script>alert(1)</script>", allowed_domains: "shop.example, *.shop.example", selected_feature_flags: ["attachments", "end_conversation"] });
const open = await websiteWorld("Open Shop");

describe("GET /widget", () => {
  it("makes an anonymous visitor and hands the page a 180-day HS256 token, the pubsub token and the channel", async () => {
    const res = await loadPage(`website_token=${site.token}&locale=fr`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html: string = res.body;
    expect(html).toMatch(/^<!doctype html><html lang="fr"><head><meta charset="utf-8">/);
    expect(html).toContain('<link rel="stylesheet" href="/packs/css/widget.css">');
    expect(html).toContain('<script type="module" src="/packs/js/widget.js"></script>');
    expect(html).toContain('<body><div id="app"></div></body></html>');
    // the welcome title's markup stays inside the JSON: no second script element
    expect(html.match(/<script/g)).toHaveLength(2);
    const globals = pageGlobals(html);
    expect(Object.keys(globals).sort()).toEqual(["authToken", "chatwootPubsubToken", "chatwootWebChannel", "globalConfig"]);
    const channel = globals.chatwootWebChannel;
    expect(Object.keys(channel).sort()).toEqual(
      [
        "avatarUrl", "hasAConnectedAgentBot", "locale", "websiteName", "websiteToken", "welcomeTagline", "welcomeTitle", "widgetColor", "portal",
        "enabledFeatures", "enabledLanguages", "replyTime", "preChatFormEnabled", "preChatFormOptions", "workingHoursEnabled", "csatSurveyEnabled",
        "workingHours", "outOfOfficeMessage", "utcOffset", "timezone", "allowMessagesAfterResolved", "disableBranding",
      ].sort(),
    );
    expect(channel).toMatchObject({ websiteToken: site.token, websiteName: "Page Shop site", welcomeTitle: "Hi </script><script>alert(1)</script>", hasAConnectedAgentBot: "", portal: null, enabledFeatures: ["attachments", "end_conversation"], replyTime: "in_a_few_minutes", utcOffset: "+00:00" });
    expect(channel.enabledLanguages).toContainEqual({ name: "English (en)", iso_639_1_code: "en" });
    expect(globals.globalConfig).toMatchObject({ INSTALLATION_NAME: "edgedesk", MAXIMUM_FILE_UPLOAD_SIZE: 40, DIRECT_UPLOADS_ENABLED: "false" });

    const payload = tokenPayload(globals.authToken);
    expect(JSON.parse(atob(globals.authToken.split(".")[0]))).toMatchObject({ alg: "HS256" });
    expect(Object.keys(payload).sort()).toEqual(["exp", "iat", "inbox_id", "source_id"]);
    expect(payload.inbox_id).toBe(site.inbox.id);
    expect(payload.exp - payload.iat).toBe(180 * 86_400);
    const row = await (await shardOf(site.accountId))
      .prepare("SELECT ci.pubsub_token, c.name FROM contact_inboxes ci JOIN contacts c ON c.id = ci.contact_id WHERE ci.inbox_id = ? AND ci.source_id = ?")
      .bind(site.inbox.id, payload.source_id)
      .first<{ pubsub_token: string; name: string }>();
    expect(row!.pubsub_token).toBe(globals.chatwootPubsubToken);
    expect(row!.name).toMatch(/^[a-z]+-[a-z]+$/);
    expect(payload.source_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("reuses the visitor of a valid token and hands the same token back; a token of another inbox or secret makes a new visitor", async () => {
    const first = pageGlobals((await loadPage(`website_token=${site.token}`)).body);
    const again = await loadPage(`website_token=${site.token}&cw_conversation=${first.authToken}`);
    expect(pageGlobals(again.body)).toMatchObject({ authToken: first.authToken, chatwootPubsubToken: first.chatwootPubsubToken });

    const elsewhere = pageGlobals((await loadPage(`website_token=${open.token}&cw_conversation=${first.authToken}`)).body);
    expect(elsewhere.authToken).not.toBe(first.authToken);
    expect(tokenPayload(elsewhere.authToken).inbox_id).toBe(open.inbox.id);

    const forged = await sign({ ...tokenPayload(first.authToken) }, "not-the-secret", "HS256");
    const fresh = pageGlobals((await loadPage(`website_token=${site.token}&cw_conversation=${forged}`)).body);
    expect(fresh.chatwootPubsubToken).not.toBe(first.chatwootPubsubToken);
    const expired = await sign({ ...tokenPayload(first.authToken), exp: Math.floor(Date.now() / 1000) - 1 }, env.WIDGET_TOKEN_SECRET, "HS256");
    expect(pageGlobals((await loadPage(`website_token=${site.token}&cw_conversation=${expired}`)).body).chatwootPubsubToken).not.toBe(first.chatwootPubsubToken);
    const garbage = await loadPage(`website_token=${site.token}&cw_conversation=not.a.jwt`);
    expect(garbage.status).toBe(200);
  });

  it("is framed only by the inbox's allowed domains, or by anyone when it lists none; the page runs no inline script", async () => {
    const limited = await loadPage(`website_token=${site.token}`);
    const policy = limited.headers.get("content-security-policy")!;
    expect(policy).toContain("frame-ancestors shop.example *.shop.example;");
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toContain("unsafe-inline");
    expect(limited.headers.get("x-frame-options")).toBeNull();
    expect((await loadPage(`website_token=${open.token}`)).headers.get("content-security-policy")).toContain("frame-ancestors *;");
  });

  it("is framed by no one when the allowed domains it lists are none a CSP can name, and names a non-ASCII domain in punycode", async () => {
    const unnamable = await websiteWorld("Underscore Shop", { allowed_domains: "bad_host.example" });
    expect((await loadPage(`website_token=${unnamable.token}`)).headers.get("content-security-policy")).toContain("frame-ancestors 'none';");
    const idn = await websiteWorld("Book Shop", { allowed_domains: "bücher.example, bad_host.example" });
    expect((await loadPage(`website_token=${idn.token}`)).headers.get("content-security-policy")).toContain("frame-ancestors xn--bcher-kva.example;");
  });

  it("answers 404 for an unknown token or an API inbox's identifier, 422 without a token, and 401 for a suspended account", async () => {
    const unknown = await loadPage("website_token=no-such-token");
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0]).toMatchObject({ field: "website_token", code: "not_found" });
    const api = await call("POST", `${open.base}/inboxes`, { key: open.admin.key, body: { name: "API", channel: { type: "api" } } });
    expect((await loadPage(`website_token=${api.body.inbox_identifier}`)).status).toBe(404);
    const missing = await get("/widget");
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].field).toBe("website_token");

    const paused = await websiteWorld("Paused Shop");
    const visitor = pageGlobals((await loadPage(`website_token=${paused.token}`)).body);
    await call("PATCH", `/platform/api/v1/accounts/${paused.accountId}`, { key: paused.platformKey, body: { status: "suspended" } });
    for (const query of [`website_token=${paused.token}`, `website_token=${paused.token}&cw_conversation=${visitor.authToken}`]) {
      const res = await loadPage(query);
      expect(res.status).toBe(401);
      expect(res.body.errors[0]).toMatchObject({ field: "website_token", code: "account_suspended" });
    }
  });
});
