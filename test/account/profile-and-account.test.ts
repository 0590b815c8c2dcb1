import { describe, expect, it } from "vitest";
import { call, get, patch, post, put } from "../support/http";
import { addToAccount, createUser, createWorld } from "../support/world";

const world = await createWorld("Profile Co");

describe("/api/v1/profile", () => {
  it("shows the caller's own record", async () => {
    const res = await get("/api/v1/profile", world.agent.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: world.agent.id,
      email: world.agent.email,
      access_token: world.agent.key,
      account_id: world.accountId,
      role: "agent",
      accounts: [{ id: world.accountId, name: "Profile Co", role: "agent" }],
    });
  });

  it("updates the profile from a flat or a wrapped body, merging UI settings", async () => {
    await put("/api/v1/profile", world.agent.key, { name: "Agent Smith", ui_settings: { theme: "dark", sidebar: true } });
    const res = await patch("/api/v1/profile", world.agent.key, {
      profile: { display_name: "Smith", ui_settings: { sidebar: false }, phone_number: "+14155550100" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Agent Smith",
      display_name: "Smith",
      available_name: "Smith",
      ui_settings: { theme: "dark", sidebar: false },
      custom_attributes: { phone_number: "+14155550100" },
    });
  });

  it("changes the password only with the current one", async () => {
    const wrong = await put("/api/v1/profile", world.admin.key, {
      current_password: "not it",
      password: "N3w!Password",
      password_confirmation: "N3w!Password",
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0]).toMatchObject({ field: "current_password", code: "invalid_current_password" });

    const mismatch = await put("/api/v1/profile", world.admin.key, {
      current_password: "Passw0rd!long",
      password: "N3w!Password",
      password_confirmation: "Different!1",
    });
    expect(mismatch.body.errors[0].field).toBe("password_confirmation");

    const ok = await put("/api/v1/profile", world.admin.key, {
      current_password: "Passw0rd!long",
      password: "N3w!Password",
      password_confirmation: "N3w!Password",
    });
    expect(ok.status).toBe(200);
    const again = await put("/api/v1/profile", world.admin.key, {
      current_password: "Passw0rd!long",
      password: "An0ther!Pass",
      password_confirmation: "An0ther!Pass",
    });
    expect(again.status).toBe(422);
  });

  it("refuses a bad phone number and an email another user has", async () => {
    const res = await put("/api/v1/profile", world.agent.key, { phone_number: "555-1234", email: world.admin.email });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: "phone_number", message: "should be in e164 format", code: "invalid_format" }]);
    const taken = await put("/api/v1/profile", world.agent.key, { email: world.admin.email, current_password: "Passw0rd!long" });
    expect(taken.body.errors[0]).toMatchObject({ field: "email", code: "taken" });
    // the password comes first: without it, the answer tells nothing about who has the address
    const unproven = await put("/api/v1/profile", world.agent.key, { email: world.admin.email });
    expect(unproven.body.errors).toEqual([{ field: "current_password", message: "is required to change the email", code: "required" }]);
  });
});

describe("POST /api/v1/profile/reset_access_token", () => {
  it("gives the caller a new key and answers the profile with it; the old key is refused, a sign-in keeps working", async () => {
    const user = await createUser(world.platformKey, "Key Resetter");
    await addToAccount(world.platformKey, world.accountId, user.id, "agent");
    const signedIn = await post("/auth/sign_in", null, { email: user.email, password: "Passw0rd!long" });
    const session = { "access-token": signedIn.headers.get("access-token")!, client: signedIn.headers.get("client")!, uid: signedIn.headers.get("uid")! };
    const before = (await get("/api/v1/profile", user.key)).body;
    const res = await post("/api/v1/profile/reset_access_token", user.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, email: user.email, account_id: world.accountId });
    expect(res.body.access_token).toEqual(expect.any(String));
    expect(res.body.access_token).not.toBe(user.key);
    // the feed's token is renewed too: the old key could read it
    expect(res.body.pubsub_token).not.toBe(before.pubsub_token);
    const old = await get("/api/v1/profile", user.key);
    expect(old.status).toBe(401);
    expect(old.body.errors[0].code).toBe("invalid_key");
    expect((await get("/api/v1/profile", res.body.access_token)).body.access_token).toBe(res.body.access_token);
    expect((await get(`/api/v1/accounts/${world.accountId}`, res.body.access_token)).status).toBe(200);
    // a sign-in is not the key: it stays, and resets the key as the user
    const again = await call("POST", "/api/v1/profile/reset_access_token", { headers: session });
    expect(again.status).toBe(200);
    expect(again.body.access_token).not.toBe(res.body.access_token);
    expect((await get("/api/v1/profile", res.body.access_token)).status).toBe(401);
  });

  it("answers 401 without a key or with an unknown one, and refuses a body it cannot read, changing nothing", async () => {
    const missing = await post("/api/v1/profile/reset_access_token", null);
    expect(missing.status).toBe(401);
    expect(missing.body.errors[0]).toMatchObject({ field: "api_access_token", code: "missing_key" });
    expect((await post("/api/v1/profile/reset_access_token", "no-such-key")).status).toBe(401);
    const user = await createUser(world.platformKey, "Bad Body");
    const malformed = await call("POST", "/api/v1/profile/reset_access_token", { key: user.key, rawBody: '{"a": ', headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual(expect.any(Array));
    expect((await get("/api/v1/profile", user.key)).status).toBe(200);
  });

  it("refuses keys that are not a user's: a platform key and a bot key", async () => {
    expect((await post("/api/v1/profile/reset_access_token", world.platformKey)).status).toBe(403);
    const bot = await post(`/api/v1/accounts/${world.accountId}/agent_bots`, world.admin.key, { name: "Resetting bot" });
    expect((await post("/api/v1/profile/reset_access_token", bot.body.access_token)).status).toBe(403);
  });
});

describe("/api/v1/accounts/:id", () => {
  it("shows the account to its members", async () => {
    const res = await get(world.base, world.agent.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: world.accountId,
      name: "Profile Co",
      locale: "en",
      domain: null,
      support_email: null,
      status: "active",
      settings: {},
      created_at: expect.any(String),
      features: expect.objectContaining({ help_center: true }),
      latest_chatwoot_version: expect.any(String),
    });
  });

  it("lets administrators update it, keeping company details and settings", async () => {
    const res = await patch(world.base, world.admin.key, {
      name: "Profile Company",
      industry: "Software",
      auto_resolve_after: 60,
      auto_resolve_message: "Closing this for now",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Profile Company",
      custom_attributes: { industry: "Software" },
      settings: { auto_resolve_after: 60, auto_resolve_message: "Closing this for now" },
    });
    const wrapped = await put(world.base, world.admin.key, { account: { company_size: "10-50" } });
    expect(wrapped.body.custom_attributes).toEqual({ industry: "Software", company_size: "10-50" });
  });

  it("refuses agents and out-of-range settings", async () => {
    const agent = await patch(world.base, world.agent.key, { name: "Agent's Co" });
    expect(agent.status).toBe(403);
    expect(agent.body.errors[0].code).toBe("administrator_required");
    const bad = await patch(world.base, world.admin.key, { auto_resolve_after: 5 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("auto_resolve_after");
    expect((await get(world.base, world.admin.key)).body.name).toBe("Profile Company");
  });

  it("answers 401 without a key", async () => {
    expect((await call("PATCH", world.base, { body: { name: "x" } })).status).toBe(401);
    expect((await post(`${world.base}`, null, {})).status).toBe(401);
  });
});
