import { describe, expect, it } from "vitest";
import { createPlatformApp, del, get, patch, post, put } from "../support/http";
import { createUser, addToAccount } from "../support/world";

const appKey = await createPlatformApp("Accounts app");
const otherAppKey = await createPlatformApp("Other app");

describe("POST /platform/api/v1/accounts", () => {
  it("creates an account owned by the calling app", async () => {
    const res = await post("/platform/api/v1/accounts", appKey, {
      name: "Initech",
      locale: "fr",
      domain: "initech.example",
      support_email: "Help@Initech.example",
      limits: { agents: 5 },
      custom_attributes: { plan: "team" },
      features: { help_center: false, campaigns: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "Initech",
      locale: "fr",
      domain: "initech.example",
      support_email: "help@initech.example",
      status: "active",
      enabled_features: { agent_bots: true, automations: true, custom_attributes: true, integrations: true, reports: true, campaigns: true },
      custom_attributes: { plan: "team" },
      limits: { agents: 5 },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const list = await get("/platform/api/v1/accounts", appKey);
    expect(list.body.map((a: any) => a.id)).toContain(res.body.id);
    const otherList = await get("/platform/api/v1/accounts", otherAppKey);
    expect(otherList.body.map((a: any) => a.id)).not.toContain(res.body.id);
  });

  it("refuses a bad status, a bad email and a long domain, naming each field", async () => {
    const res = await post("/platform/api/v1/accounts", appKey, { name: "X", status: 7, support_email: "nope", domain: "d".repeat(101) });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.field).sort()).toEqual(["domain", "status", "support_email"]);
  });
});

describe("GET/PATCH/DELETE /platform/api/v1/accounts/:id", () => {
  it("shows and updates an account, merging feature flags", async () => {
    const { body: account } = await post("/platform/api/v1/accounts", appKey, { name: "Hooli", features: { reports: false } });
    const shown = await get(`/platform/api/v1/accounts/${account.id}`, appKey);
    expect(shown.body).toEqual(account);

    const updated = await patch(`/platform/api/v1/accounts/${account.id}`, appKey, {
      name: "Hooli XYZ",
      status: "suspended",
      features: { reports: true, help_center: false },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: "Hooli XYZ", status: "suspended" });
    expect(updated.body.enabled_features).toMatchObject({ reports: true });
    expect(updated.body.enabled_features.help_center).toBeUndefined();

    const viaPut = await put(`/platform/api/v1/accounts/${account.id}`, appKey, { status: 0 });
    expect(viaPut.body.status).toBe("active");
  });

  it("answers 404 for an unknown id and 403 for another app's account", async () => {
    const missing = await get("/platform/api/v1/accounts/987654", appKey);
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0]).toMatchObject({ field: "id", code: "not_found" });
    const { body: account } = await post("/platform/api/v1/accounts", appKey, { name: "Mine" });
    expect((await patch(`/platform/api/v1/accounts/${account.id}`, otherAppKey, { name: "Theirs" })).status).toBe(403);
    expect((await del(`/platform/api/v1/accounts/${account.id}`, otherAppKey)).status).toBe(403);
    expect((await get(`/platform/api/v1/accounts/${account.id}`, appKey)).body.name).toBe("Mine");
  });

  it("deletes an account with everything in it, keeping its users", async () => {
    const { body: account } = await post("/platform/api/v1/accounts", appKey, { name: "Doomed" });
    const user = await createUser(appKey, "Doomed Admin");
    await addToAccount(appKey, account.id, user.id, "administrator");
    const bot = await post("/platform/api/v1/agent_bots", appKey, { name: "Doomed Bot", account_id: account.id });
    expect((await get(`/api/v1/accounts/${account.id}`, user.key)).status).toBe(200);

    const res = await del(`/platform/api/v1/accounts/${account.id}`, appKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await get(`/platform/api/v1/accounts/${account.id}`, appKey)).status).toBe(404);
    expect((await get(`/api/v1/accounts/${account.id}`, user.key)).status).toBe(404);
    expect((await get(`/platform/api/v1/agent_bots/${bot.body.id}`, appKey)).status).toBe(404);
    const profile = await get("/api/v1/profile", user.key);
    expect(profile.status).toBe(200);
    expect(profile.body.accounts).toEqual([]);
  });
});

describe("account users", () => {
  it("adds a user with a role, changes the role, lists and removes", async () => {
    const { body: account } = await post("/platform/api/v1/accounts", appKey, { name: "Team Co" });
    const user = await createUser(appKey, "Member");
    const base = `/platform/api/v1/accounts/${account.id}/account_users`;

    const added = await post(base, appKey, { user_id: user.id, role: "agent" });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ account_id: account.id, user_id: user.id, role: "agent" });

    const promoted = await post(base, appKey, { user_id: user.id, role: 1 });
    expect(promoted.body.role).toBe("administrator");
    expect((await get(base, appKey)).body).toEqual([{ account_id: account.id, user_id: user.id, role: "administrator" }]);
    expect((await get(`/api/v1/accounts/${account.id}`, user.key)).status).toBe(200);

    const removed = await del(base, appKey, { user_id: user.id });
    expect(removed.status).toBe(200);
    expect((await get(base, appKey)).body).toEqual([]);
    expect((await get(`/api/v1/accounts/${account.id}`, user.key)).status).toBe(403);
    expect((await del(base, appKey, { user_id: user.id })).status).toBe(200);
  });

  it("validates the role and the user", async () => {
    const { body: account } = await post("/platform/api/v1/accounts", appKey, { name: "Strict Co" });
    const base = `/platform/api/v1/accounts/${account.id}/account_users`;
    const user = await createUser(appKey, "Someone");

    const badRole = await post(base, appKey, { user_id: user.id, role: "owner" });
    expect(badRole.status).toBe(422);
    expect(badRole.body.errors[0].field).toBe("role");
    const noUser = await post(base, appKey, { role: "agent" });
    expect(noUser.body.errors[0]).toMatchObject({ field: "user_id", code: "required" });
    const unknownUser = await post(base, appKey, { user_id: 424242, role: "agent" });
    expect(unknownUser.status).toBe(404);

    const foreignUser = await createUser(otherAppKey, "Foreign");
    const foreign = await post(base, appKey, { user_id: foreignUser.id, role: "agent" });
    expect(foreign.status).toBe(403);
    expect((await get(base, appKey)).body).toEqual([]);
  });
});
