/** Each kind of key against each surface: only the right kind gets in, and only to its own objects. */
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { call, get, patch, post } from "../support/http";
import { createWorld } from "../support/world";

const acme = await createWorld("Acme");
const globex = await createWorld("Globex");
const acmeBot = await post("/platform/api/v1/agent_bots", acme.platformKey, { name: "Acme Bot", account_id: acme.accountId });
const acmeBotKey: string = acmeBot.body.access_token;

describe("no key or an unknown key", () => {
  it.each([
    ["GET", "/platform/api/v1/accounts"],
    ["GET", "/api/v1/profile"],
    ["POST", "/api/v1/profile/reset_access_token"],
    ["POST", "/api/v1/notification_subscriptions"],
    ["GET", `/api/v1/accounts/${acme.accountId}`],
    ["POST", "/mcp"],
    ["GET", "/mcp"],
    ["DELETE", "/mcp"],
  ])("%s %s answers 401", async (method, path) => {
    const missing = await call(method, path);
    expect(missing.status).toBe(401);
    expect(missing.body.errors[0]).toMatchObject({ field: "api_access_token", code: "missing_key" });
    const unknown = await call(method, path, { key: "no-such-key-anywhere" });
    expect(unknown.status).toBe(401);
    expect(unknown.body.errors[0].code).toBe("invalid_key");
  });
});

describe("routes that take no key", () => {
  // every route outside the keyed surfaces (platform, account, profile, push subscriptions, reports, public) is named here,
  // so a route cannot join the keyless ones unnoticed
  it("are exactly the known ones", () => {
    const keyed = /^\/(platform\/api\/v1|public\/api\/v1|api\/v2)\/|^\/api\/v1\/(accounts|profile|notification_subscriptions)(\/|$)|^\/auth\/(validate_token|sign_out)$|^\/mcp$/;
    const keyless = new Set(app.routes.filter((r) => r.method !== "ALL" && !keyed.test(r.path)).map((r) => `${r.method} ${r.path}`));
    expect([...keyless].sort()).toEqual(KEYLESS.sort());
  });

  it("the e-mail confirmation link answers the same whatever key comes with it, and never 401", async () => {
    const path = "/auth/confirmation?confirmation_token=no-such-token";
    const anonymous = await get(path);
    expect(anonymous.status).toBe(422);
    expect(anonymous.body.errors[0]).toMatchObject({ field: "confirmation_token", code: "invalid_token" });
    for (const key of [acme.admin.key, acme.platformKey, "not-a-key"]) {
      const res = await get(path, key);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(anonymous.body);
    }
  });
});

describe("how the key is sent", () => {
  it("is accepted as api_access_token, Api-Access-Token (n8n and others) or a bearer token", async () => {
    const path = `/api/v1/accounts/${acme.accountId}`;
    expect((await call("GET", path, { headers: { api_access_token: acme.agent.key } })).status).toBe(200);
    expect((await call("GET", path, { headers: { "Api-Access-Token": acme.agent.key } })).status).toBe(200);
    expect((await call("GET", path, { headers: { authorization: `Bearer ${acme.agent.key}` } })).status).toBe(200);
    const wrong = await call("GET", path, { headers: { "Api-Access-Token": "no-such-key" } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].code).toBe("invalid_key");
  });
});

describe("platform keys", () => {
  it("reach the Platform API only", async () => {
    expect((await get(`/platform/api/v1/accounts/${acme.accountId}`, acme.platformKey)).status).toBe(200);
    const profile = await get("/api/v1/profile", acme.platformKey);
    expect(profile.status).toBe(403);
    expect(profile.body.errors[0].code).toBe("wrong_key_type");
    expect((await get(`/api/v1/accounts/${acme.accountId}`, acme.platformKey)).status).toBe(403);
  });

  it("reach only the objects their own app created", async () => {
    const other = globex.platformKey;
    const account = await get(`/platform/api/v1/accounts/${acme.accountId}`, other);
    expect(account.status).toBe(403);
    expect(account.body.errors[0].code).toBe("not_permissible");
    expect((await get(`/platform/api/v1/users/${acme.admin.id}`, other)).status).toBe(403);
    expect((await patch(`/platform/api/v1/users/${acme.admin.id}`, other, { name: "Hijacked" })).status).toBe(403);
    expect((await get(`/platform/api/v1/agent_bots/${acmeBot.body.id}`, other)).status).toBe(403);
    expect((await get(`/platform/api/v1/accounts/${acme.accountId}/account_users`, other)).status).toBe(403);
    const stillAcme = await get(`/platform/api/v1/users/${acme.admin.id}`, acme.platformKey);
    expect(stillAcme.body.name).toBe("Acme Admin");
  });
});

describe("user keys", () => {
  it("reach the profile and their own account, not the Platform API", async () => {
    expect((await get("/api/v1/profile", acme.agent.key)).status).toBe(200);
    expect((await get(`/api/v1/accounts/${acme.accountId}`, acme.agent.key)).status).toBe(200);
    const platform = await get("/platform/api/v1/accounts", acme.admin.key);
    expect(platform.status).toBe(403);
    expect(platform.body.errors[0].code).toBe("wrong_key_type");
  });

  it("cannot read or change another account", async () => {
    const read = await get(`/api/v1/accounts/${globex.accountId}`, acme.admin.key);
    expect(read.status).toBe(403);
    expect(read.body.errors[0].code).toBe("not_a_member");
    expect((await patch(`/api/v1/accounts/${globex.accountId}`, acme.admin.key, { name: "Mine now" })).status).toBe(403);
    expect((await get(`/api/v1/accounts/${globex.accountId}`, globex.admin.key)).body.name).toBe("Globex");
  });

  it("get a 404 for an account that does not exist and a 422 for a malformed account id", async () => {
    const missing = await get("/api/v1/accounts/999999", acme.admin.key);
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0]).toMatchObject({ field: "account_id", code: "not_found" });
    const malformed = await get("/api/v1/accounts/abc", acme.admin.key);
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors[0].field).toBe("account_id");
  });

  it("may be sent as a bearer token", async () => {
    const res = await call("GET", "/api/v1/profile", { headers: { authorization: `Bearer ${acme.agent.key}` } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(acme.agent.id);
  });
});

describe("agent bot keys", () => {
  it("are refused outside the routes bots may call", async () => {
    const account = await get(`/api/v1/accounts/${acme.accountId}`, acmeBotKey);
    expect(account.status).toBe(403);
    expect(account.body.errors[0].code).toBe("bot_not_allowed");
    expect((await get("/api/v1/profile", acmeBotKey)).status).toBe(403);
    expect((await get("/platform/api/v1/accounts", acmeBotKey)).status).toBe(403);
  });

  it("are refused in another account, even on a bot route", async () => {
    const res = await post(`/api/v1/accounts/${globex.accountId}/conversations/1/messages`, acmeBotKey, { content: "hi" });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe("not_a_member");
  });
});

describe("a suspended account", () => {
  it("refuses its members until it is active again", async () => {
    const world = await createWorld("Sleepy");
    await patch(`/platform/api/v1/accounts/${world.accountId}`, world.platformKey, { status: "suspended" });
    const res = await get(world.base, world.admin.key);
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe("account_suspended");
    await patch(`/platform/api/v1/accounts/${world.accountId}`, world.platformKey, { status: "active" });
    expect((await get(world.base, world.admin.key)).status).toBe(200);
  });
});

/** The routes that need no key, each for its reason. */
const KEYLESS = [
  "GET /", // a page pointing at the docs and demos
  "GET /api", // the server version
  "GET /api/v1/live", // the live socket: a short-lived ticket instead
  "GET /cable", // the live account feed: each subscription proves itself with the user's pubsub_token
  "GET /auth/confirmation", // an e-mail confirmation link: the token is the credential
  "POST /auth/sign_in", // the e-mail and password are the credential
  "POST /auth/password", // a reset request: the link goes to the e-mail, whoever asks
  "PUT /auth/password", // a new password: the mailed reset token is the credential
  "GET /docs", // the API reference
  "GET /openapi.json",
  "GET /files/:collection/:account_id/:file_id/:file_name?", // a signed, expiring file URL
  // the website widget's page: the website token names the inbox, a visitor token (signed) the visitor
  "GET /widget",
  // the website widget's API: ?website_token= names the inbox, the X-Auth-Token visitor token the visitor
  "POST /api/v1/widget/config",
  "GET /api/v1/widget/inbox_members",
  "GET /api/v1/widget/campaigns",
  "GET /api/v1/widget/contact",
  "PATCH /api/v1/widget/contact",
  "PATCH /api/v1/widget/contact/set_user",
  "POST /api/v1/widget/contact/destroy_custom_attributes",
  "GET /api/v1/widget/conversations",
  "POST /api/v1/widget/conversations",
  "POST /api/v1/widget/conversations/update_last_seen",
  "POST /api/v1/widget/conversations/toggle_typing",
  "POST /api/v1/widget/conversations/transcript",
  "GET /api/v1/widget/conversations/toggle_status",
  "POST /api/v1/widget/conversations/set_custom_attributes",
  "POST /api/v1/widget/conversations/destroy_custom_attributes",
  "GET /api/v1/widget/messages",
  "POST /api/v1/widget/messages",
  "PATCH /api/v1/widget/messages/:id",
  "POST /api/v1/widget/events",
  "POST /api/v1/widget/labels",
  "DELETE /api/v1/widget/labels/:label",
  "POST /api/v1/widget/direct_uploads",
  "GET /widget-demo",
  "GET /widget-demo/app.js",
  "GET /agent-demo",
  "GET /agent-demo/app.js",
  "GET /survey/app.js",
  "GET /survey/responses/:conversation_uuid", // the CSAT survey page: the uuid in the link is the credential
  // the public help-center site: published articles of portals that are not archived, for anyone
  "GET /hc/:portal_slug",
  "GET /hc/:portal_slug/sitemap.xml",
  "GET /hc/:portal_slug/articles/:article_slug",
  "GET /hc/:portal_slug/:locale",
  "GET /hc/:portal_slug/:locale/articles",
  "GET /hc/:portal_slug/:locale/categories/:category_slug",
];
