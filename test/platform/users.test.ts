import { describe, expect, it } from "vitest";
import { call, createPlatformApp, del, get, patch, post, put } from "../support/http";
import { addToAccount, uniqueEmail } from "../support/world";
import { directory } from "../support/databases";

const appKey = await createPlatformApp("Users app");
const otherAppKey = await createPlatformApp("Other users app");

/** How many platform apps own the user (rows of platform_app_permissibles). */
async function grantsOn(userId: number) {
  const row = await directory().prepare("SELECT count(*) AS n FROM platform_app_permissibles WHERE permissible_type = 'User' AND permissible_id = ?")
    .bind(userId)
    .first<{ n: number }>();
  return row!.n;
}

describe("POST /platform/api/v1/users", () => {
  it("creates a confirmed user with its own API key and every field of the User record", async () => {
    const email = uniqueEmail("grace");
    const res = await post("/platform/api/v1/users", appKey, {
      name: "Grace Hopper",
      display_name: "Grace",
      email: email.toUpperCase(),
      password: "Passw0rd!long",
      custom_attributes: { team: "compilers" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      access_token: expect.stringMatching(/^[\w-]{32,}$/),
      account_id: null,
      available_name: "Grace",
      avatar_url: "",
      confirmed: true,
      display_name: "Grace",
      message_signature: null,
      email,
      hmac_identifier: "",
      inviter_id: null,
      name: "Grace Hopper",
      provider: "email",
      pubsub_token: expect.any(String),
      role: null,
      ui_settings: {},
      uid: email,
      type: null,
      unconfirmed_email: null,
      custom_attributes: { team: "compilers" },
      accounts: [],
    });
    const profile = await get("/api/v1/profile", res.body.access_token);
    expect(profile.body.id).toBe(res.body.id);
  });

  it("returns a user the calling app already made, unchanged (a Chatwoot client creating it twice)", async () => {
    const email = uniqueEmail("linus");
    const first = await post("/platform/api/v1/users", appKey, { name: "Linus", email });
    const again = await post("/platform/api/v1/users", appKey, { name: "Someone Else", email: email.toUpperCase() });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, name: "Linus", access_token: first.body.access_token });
    expect(await grantsOn(first.body.id)).toBe(1);
  });

  it("refuses the email of a user another app made: 422 taken, nothing of the user shown, nothing granted", async () => {
    const email = uniqueEmail("victim");
    const { body: victim } = await post("/platform/api/v1/users", appKey, { name: "Victim", email, password: "Passw0rd!long" });
    const res = await post("/platform/api/v1/users", otherAppKey, { name: "Someone Else", email: email.toUpperCase() });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      description: "email has already been taken",
      errors: [{ field: "email", message: "has already been taken", code: "taken" }],
    });
    expect(JSON.stringify(res.body)).not.toContain(victim.access_token);
    expect(JSON.stringify(res.body)).not.toContain(String(victim.id));
    expect(await grantsOn(victim.id)).toBe(1);
    // the other app still reaches nothing of the user
    for (const [method, path] of [
      ["GET", `/platform/api/v1/users/${victim.id}`],
      ["PATCH", `/platform/api/v1/users/${victim.id}`],
      ["DELETE", `/platform/api/v1/users/${victim.id}`],
      ["GET", `/platform/api/v1/users/${victim.id}/login`],
      ["POST", `/platform/api/v1/users/${victim.id}/token`],
    ]) {
      const denied = await call(method, path, { key: otherAppKey, body: method === "PATCH" ? { name: "Hijacked" } : undefined });
      expect(denied.status, `${method} ${path}`).toBe(403);
    }
    const mine = await get(`/platform/api/v1/users/${victim.id}`, appKey);
    expect(mine.body).toMatchObject({ name: "Victim", email, access_token: victim.access_token });
  });

  it("refuses the email of a user no platform app made (an invited agent)", async () => {
    const { body: account } = await post("/platform/api/v1/accounts", appKey, { name: "Inviting Co" });
    const { body: admin } = await post("/platform/api/v1/users", appKey, { name: "Inviter", email: uniqueEmail("inviter") });
    await addToAccount(appKey, account.id, admin.id, "administrator");
    const invitee = uniqueEmail("invitee");
    const invited = await post(`/api/v1/accounts/${account.id}/agents`, admin.access_token, { name: "Invitee", email: invitee });
    expect(invited.status).toBe(200);
    const res = await post("/platform/api/v1/users", appKey, { name: "Invitee", email: invitee });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: "email", message: "has already been taken", code: "taken" }]);
    expect(await grantsOn(invited.body.id)).toBe(0);
  });

  it("checks the email, the name and the password rule", async () => {
    const res = await post("/platform/api/v1/users", appKey, { name: " ", email: "no at sign", password: "short" });
    expect(res.status).toBe(422);
    expect(Object.fromEntries(res.body.errors.map((e: any) => [e.field, e.code]))).toEqual({
      name: "blank",
      email: "invalid_format",
      password: "too_short",
    });
    const weak = await post("/platform/api/v1/users", appKey, { name: "Weak", email: uniqueEmail(), password: "alllowercase" });
    expect(weak.body.errors[0]).toMatchObject({ field: "password", code: "invalid" });
  });
});

describe("GET/PATCH/DELETE /platform/api/v1/users/:id", () => {
  it("shows the accounts the user belongs to, with role and permissions", async () => {
    const { body: account } = await post("/platform/api/v1/accounts", appKey, { name: "Shown Co" });
    const { body: user } = await post("/platform/api/v1/users", appKey, { name: "Ada", email: uniqueEmail("ada") });
    await addToAccount(appKey, account.id, user.id, "administrator");
    const res = await get(`/platform/api/v1/users/${user.id}`, appKey);
    expect(res.body.account_id).toBe(account.id);
    expect(res.body.role).toBe("administrator");
    expect(res.body.accounts).toEqual([
      {
        id: account.id,
        name: "Shown Co",
        status: "active",
        active_at: expect.any(String),
        role: "administrator",
        permissions: ["administrator"],
        availability: "online",
        availability_status: "offline", // not live on the account's feed
        auto_offline: true,
        custom_role_id: null,
        custom_role: null,
      },
    ]);
  });

  it("updates fields and merges custom attributes", async () => {
    const { body: user } = await post("/platform/api/v1/users", appKey, {
      name: "Merge Me",
      email: uniqueEmail("merge"),
      custom_attributes: { a: 1, b: 2 },
    });
    const newEmail = uniqueEmail("merged");
    const res = await patch(`/platform/api/v1/users/${user.id}`, appKey, {
      name: "Merged",
      email: newEmail,
      custom_attributes: { b: 3, c: 4 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Merged", email: newEmail, custom_attributes: { a: 1, b: 3, c: 4 } });
  });

  it("refuses an email another user has, and changes nothing", async () => {
    const taken = uniqueEmail("taken");
    await post("/platform/api/v1/users", appKey, { name: "Holder", email: taken });
    const own = uniqueEmail();
    const { body: user } = await post("/platform/api/v1/users", appKey, { name: "Wanter", email: own });
    const res = await patch(`/platform/api/v1/users/${user.id}`, appKey, { name: "Renamed", email: taken.toUpperCase() });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: "email", message: "has already been taken", code: "taken" }]);
    expect((await get(`/platform/api/v1/users/${user.id}`, appKey)).body).toMatchObject({ name: "Wanter", email: own });
  });

  it("refuses an email another user is waiting to confirm, and changes nothing", async () => {
    const { body: squatter } = await post("/platform/api/v1/users", appKey, { name: "Squatter", email: uniqueEmail(), password: "Passw0rd!long" });
    const pending = uniqueEmail("pending");
    const change = await put("/api/v1/profile", squatter.access_token, { email: pending, current_password: "Passw0rd!long" });
    expect(change.body.unconfirmed_email).toBe(pending);
    const own = uniqueEmail();
    const { body: user } = await post("/platform/api/v1/users", appKey, { name: "Wanter", email: own });
    const res = await patch(`/platform/api/v1/users/${user.id}`, appKey, { email: pending });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: "email", message: "has already been taken", code: "taken" }]);
    expect((await get(`/platform/api/v1/users/${user.id}`, appKey)).body.email).toBe(own);
  });

  it("changes the email at once, dropping the user's own pending change", async () => {
    const { body: user } = await post("/platform/api/v1/users", appKey, { name: "Mover", email: uniqueEmail(), password: "Passw0rd!long" });
    await put("/api/v1/profile", user.access_token, { email: uniqueEmail("wanted"), current_password: "Passw0rd!long" });
    const set = uniqueEmail("set");
    const res = await patch(`/platform/api/v1/users/${user.id}`, appKey, { email: set });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: set, uid: set, unconfirmed_email: null });
  });

  it("deletes a user: its key stops working", async () => {
    const { body: user } = await post("/platform/api/v1/users", appKey, { name: "Gone", email: uniqueEmail("gone") });
    const res = await del(`/platform/api/v1/users/${user.id}`, appKey);
    expect(res.status).toBe(200);
    expect((await get(`/platform/api/v1/users/${user.id}`, appKey)).status).toBe(404);
    expect((await get("/api/v1/profile", user.access_token)).status).toBe(401);
  });

  it("answers 404 for an unknown user and 422 for a malformed id", async () => {
    expect((await get("/platform/api/v1/users/31337", appKey)).status).toBe(404);
    const malformed = await get("/platform/api/v1/users/abc", appKey);
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors[0].field).toBe("id");
  });
});

describe("login link and token", () => {
  it("issues a single-use login link and reveals the user's key", async () => {
    const email = uniqueEmail("sso");
    const { body: user } = await post("/platform/api/v1/users", appKey, { name: "SSO", email });
    const login = await get(`/platform/api/v1/users/${user.id}/login`, appKey);
    expect(login.status).toBe(200);
    const url = new URL(login.body.url);
    expect(url.pathname).toBe("/app/login");
    expect(url.searchParams.get("email")).toBe(email);
    expect(url.searchParams.get("sso_auth_token")).toMatch(/^[0-9a-f]{64}$/);
    const second = await get(`/platform/api/v1/users/${user.id}/login`, appKey);
    expect(new URL(second.body.url).searchParams.get("sso_auth_token")).not.toBe(url.searchParams.get("sso_auth_token"));

    const token = await post(`/platform/api/v1/users/${user.id}/token`, appKey);
    expect(token.body).toEqual({
      access_token: user.access_token,
      expiry: null,
      user: { id: user.id, name: "SSO", display_name: null, email, pubsub_token: user.pubsub_token },
    });
    expect((await post(`/platform/api/v1/users/${user.id}/token`, otherAppKey)).status).toBe(403);
  });
});
