import { describe, expect, it } from "vitest";
import { directory } from "../support/databases";
import { del, get, patch, post, put } from "../support/http";
import { createUser, createWorld, uniqueEmail } from "../support/world";

const world = await createWorld("Agents");
const other = await createWorld("Elsewhere");

const agentShape = (person: { id: number; email: string }, name: string, role: string) => ({
  id: person.id,
  account_id: world.accountId,
  // nobody is live on the account's feed in these tests (test/feed/presence.test.ts)
  availability_status: "offline",
  auto_offline: true,
  confirmed: true,
  email: person.email,
  provider: "email",
  available_name: name,
  name,
  role,
  thumbnail: "",
  custom_role_id: null,
});

describe("GET /agents", () => {
  it("lists the account's agents by name, for any member", async () => {
    const res = await get(`${world.base}/agents`, world.agent.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      agentShape(world.admin, "Agents Admin", "administrator"),
      agentShape(world.agent, "Agents Agent", "agent"),
    ]);
  });

  it("needs a key (401) and a membership (403)", async () => {
    expect((await get(`${world.base}/agents`)).status).toBe(401);
    expect((await get(`${world.base}/agents`, "not-a-key")).status).toBe(401);
    const res = await get(`${world.base}/agents`, other.admin.key);
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe("not_a_member");
  });
});

describe("POST /agents", () => {
  it("creates a new user with its own key, unconfirmed, as an agent", async () => {
    const email = uniqueEmail("newbie");
    const res = await post(`${world.base}/agents`, world.admin.key, { name: "Newbie", email: email.toUpperCase(), role: "agent" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...agentShape({ id: res.body.id, email }, "Newbie", "agent"),
      confirmed: false,
    });
    const list = await get(`${world.base}/agents`, world.admin.key);
    expect(list.body.map((a: { email: string }) => a.email)).toContain(email);
    // Its own API key, which reaches the account it was invited to.
    const key = await directory().prepare("SELECT token FROM access_tokens WHERE owner_type = 'User' AND owner_id = ?").bind(res.body.id).first<{ token: string }>();
    expect((await get(`${world.base}/agents`, key!.token)).status).toBe(200);
  });

  it("reuses an existing user of another account, with the given role and availability", async () => {
    const res = await post(`${world.base}/agents`, world.admin.key, {
      agent: { email: other.agent.email, role: "administrator", availability: "busy", auto_offline: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: other.agent.id, role: "administrator", availability_status: "offline", auto_offline: false, name: "Elsewhere Agent" });
    // the chosen availability is kept (others see it while the agent is live on the feed)
    const profile = await get("/api/v1/profile", other.agent.key);
    expect(profile.body.accounts.find((a: { id: number }) => a.id === world.accountId).availability).toBe("busy");
    // The reused user's own key now reaches this account too.
    expect((await get(`${world.base}/agents`, other.agent.key)).status).toBe(200);
  });

  it("refuses a member twice (422 on email, code taken)", async () => {
    const res = await post(`${world.base}/agents`, world.admin.key, { email: world.agent.email, name: "Again" });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: "email", code: "taken" })]);
  });

  it("validates the body", async () => {
    const missing = await post(`${world.base}/agents`, world.admin.key, { name: "No email" });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: "email", code: "required" })]);

    const bad = await post(`${world.base}/agents`, world.admin.key, { email: uniqueEmail(), name: "X", role: "owner" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("role");

    const noName = await post(`${world.base}/agents`, world.admin.key, { email: uniqueEmail("nameless") });
    expect(noName.status).toBe(422);
    expect(noName.body.errors).toEqual([expect.objectContaining({ field: "name", code: "blank" })]);
  });

  it("is for administrators only", async () => {
    const res = await post(`${world.base}/agents`, world.agent.key, { email: uniqueEmail(), name: "Sneaky" });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe("administrator_required");
    expect((await post(`${world.base}/agents`, other.admin.key, { email: uniqueEmail(), name: "X" })).status).toBe(403);
  });
});

describe("PATCH/PUT /agents/:id", () => {
  it("changes name, role, availability and auto_offline", async () => {
    const person = await createUser(world.platformKey, "Changeling");
    await post(`${world.base}/agents`, world.admin.key, { email: person.email });
    const res = await patch(`${world.base}/agents/${person.id}`, world.admin.key, {
      name: "Renamed",
      role: 1,
      availability: "offline",
      auto_offline: "false",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...agentShape(person, "Renamed", "administrator"),
      availability_status: "offline",
      auto_offline: false,
    });
    const again = await put(`${world.base}/agents/${person.id}`, world.admin.key, { agent: { role: "agent" } });
    expect(again.body).toMatchObject({ name: "Renamed", role: "agent", availability_status: "offline" });
  });

  it("answers 404 for a user who is not an agent of the account, 422 for a bad value, 403 for an agent", async () => {
    const outsider = await patch(`${world.base}/agents/${other.admin.id}`, world.admin.key, { name: "X" });
    expect(outsider.status).toBe(404);
    expect((await patch(`${world.base}/agents/999999`, world.admin.key, { name: "X" })).status).toBe(404);
    const bad = await patch(`${world.base}/agents/${world.agent.id}`, world.admin.key, { availability: "asleep" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("availability");
    expect((await patch(`${world.base}/agents/${world.agent.id}`, world.agent.key, { role: "administrator" })).status).toBe(403);
  });
});

describe("DELETE /agents/:id", () => {
  it("removes the membership and keeps the user", async () => {
    const person = await createUser(world.platformKey, "Leaver");
    await post(`${world.base}/agents`, world.admin.key, { email: person.email });
    expect((await del(`${world.base}/agents/${person.id}`, world.agent.key)).status).toBe(403);

    const res = await del(`${world.base}/agents/${person.id}`, world.admin.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const list = await get(`${world.base}/agents`, world.admin.key);
    expect(list.body.map((a: { id: number }) => a.id)).not.toContain(person.id);
    // The user still exists: its key works on its profile.
    expect((await get("/api/v1/profile", person.key)).status).toBe(200);
    expect((await del(`${world.base}/agents/${person.id}`, world.admin.key)).status).toBe(404);
  });
});
