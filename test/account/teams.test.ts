import { describe, expect, it } from "vitest";
import { shardOf } from "../support/databases";
import { del, get, patch, post, put } from "../support/http";
import { createUser, createWorld } from "../support/world";

const world = await createWorld("Teams");
const other = await createWorld("Rivals");
const teams = `${world.base}/teams`;

let sequence = 0;
async function newTeam(name = `squad ${++sequence}`) {
  const res = await post(teams, world.admin.key, { name });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body as { id: number; name: string };
}

const ids = (agents: Array<{ id: number }>) => agents.map((a) => a.id);

describe("teams", () => {
  it("creates a team with a lower-cased name and Chatwoot's defaults", async () => {
    const res = await post(teams, world.admin.key, { team: { name: "Billing Desk", description: "Money" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "billing desk",
      description: "Money",
      allow_auto_assign: true,
      account_id: world.accountId,
      is_member: false,
    });
    const shown = await get(`${teams}/${res.body.id}`, world.agent.key);
    expect(shown.body).toEqual(res.body);
  });

  it("refuses a duplicate name in the same account, in any case, but not in another account", async () => {
    await newTeam("Support");
    const dup = await post(teams, world.admin.key, { name: "SUPPORT" });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual([expect.objectContaining({ field: "name", code: "taken" })]);
    expect((await post(`${other.base}/teams`, other.admin.key, { name: "support" })).status).toBe(200);
  });

  it("validates the body", async () => {
    const blank = await post(teams, world.admin.key, { name: "  " });
    expect(blank.status).toBe(422);
    expect(blank.body.errors[0]).toMatchObject({ field: "name", code: "blank" });
    const missing = await post(teams, world.admin.key, { description: "no name" });
    expect(missing.body.errors[0]).toMatchObject({ field: "name", code: "required" });
    const flag = await post(teams, world.admin.key, { name: "flags", allow_auto_assign: "maybe" });
    expect(flag.status).toBe(422);
    expect(flag.body.errors[0].field).toBe("allow_auto_assign");
  });

  it("lists teams with is_member for the caller", async () => {
    const team = await newTeam("alpha");
    await post(`${teams}/${team.id}/team_members`, world.admin.key, { user_ids: [world.agent.id] });
    const asAgent = await get(teams, world.agent.key);
    expect(asAgent.status).toBe(200);
    expect(asAgent.body.find((t: { id: number }) => t.id === team.id)).toMatchObject({ name: "alpha", is_member: true });
    const asAdmin = await get(teams, world.admin.key);
    expect(asAdmin.body.find((t: { id: number }) => t.id === team.id).is_member).toBe(false);
    // Teams are listed by name, and only this account's.
    const names = asAdmin.body.map((t: { name: string }) => t.name);
    expect(names).toEqual([...names].sort());
    expect(asAdmin.body.every((t: { account_id: number }) => t.account_id === world.accountId)).toBe(true);
  });

  it("updates name, description and allow_auto_assign (PATCH and PUT)", async () => {
    const team = await newTeam();
    const res = await patch(`${teams}/${team.id}`, world.admin.key, { name: "Renamed Team", allow_auto_assign: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: team.id, name: "renamed team", allow_auto_assign: false, description: null });
    const put1 = await put(`${teams}/${team.id}`, world.admin.key, { team: { description: "d" } });
    expect(put1.body).toMatchObject({ name: "renamed team", description: "d" });
    // Keeping its own name is not a clash.
    expect((await patch(`${teams}/${team.id}`, world.admin.key, { name: "renamed team" })).status).toBe(200);
    await newTeam("taken name");
    const clash = await patch(`${teams}/${team.id}`, world.admin.key, { name: "Taken Name" });
    expect(clash.status).toBe(422);
    expect(clash.body.errors[0]).toMatchObject({ field: "name", code: "taken" });
  });

  it("deletes a team, its memberships, and unassigns its conversations", async () => {
    const team = await newTeam();
    await post(`${teams}/${team.id}/team_members`, world.admin.key, { user_ids: [world.agent.id] });
    const at = Date.now();
    const shard = await shardOf(world.accountId);
    await shard.prepare(
      `INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, team_id, last_activity_at, created_at, updated_at)
       VALUES (?, 9001, ?, 1, 1, 1, ?, ?, ?, ?)`,
    )
      .bind(world.accountId, crypto.randomUUID(), team.id, at, at, at)
      .run();

    const res = await del(`${teams}/${team.id}`, world.admin.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await get(`${teams}/${team.id}`, world.admin.key)).status).toBe(404);
    const conversation = await shard.prepare("SELECT team_id FROM conversations WHERE display_id = 9001 AND account_id = ?")
      .bind(world.accountId)
      .first();
    expect(conversation).toEqual({ team_id: null });
    const seats = await shard.prepare("SELECT count(*) AS n FROM team_members WHERE team_id = ?").bind(team.id).first();
    expect(seats).toEqual({ n: 0 });
  });

  it("answers 404 for an unknown team or another account's team", async () => {
    const foreign = (await post(`${other.base}/teams`, other.admin.key, { name: "foreign" })).body;
    for (const id of [999999, foreign.id]) {
      expect((await get(`${teams}/${id}`, world.admin.key)).status).toBe(404);
      expect((await patch(`${teams}/${id}`, world.admin.key, { name: "x" })).status).toBe(404);
      expect((await del(`${teams}/${id}`, world.admin.key)).status).toBe(404);
      expect((await get(`${teams}/${id}/team_members`, world.admin.key)).status).toBe(404);
    }
    const res = await get(`${teams}/999999`, world.admin.key);
    expect(res.body.errors[0]).toMatchObject({ field: "id", code: "not_found" });
  });

  it("keeps writes to administrators, and the account to its members", async () => {
    const team = await newTeam();
    expect((await post(teams, world.agent.key, { name: "mine" })).status).toBe(403);
    expect((await patch(`${teams}/${team.id}`, world.agent.key, { name: "mine" })).status).toBe(403);
    expect((await del(`${teams}/${team.id}`, world.agent.key)).status).toBe(403);
    expect((await post(`${teams}/${team.id}/team_members`, world.agent.key, { user_ids: [world.agent.id] })).status).toBe(403);
    expect((await get(teams, other.admin.key)).status).toBe(403);
    expect((await post(teams, other.admin.key, { name: "intruder" })).status).toBe(403);
    expect((await get(teams)).status).toBe(401);
  });
});

describe("team members", () => {
  it("adds agents and answers only the newly added ones", async () => {
    const team = await newTeam();
    const first = await post(`${teams}/${team.id}/team_members`, world.admin.key, { user_ids: [world.agent.id] });
    expect(first.status).toBe(200);
    expect(first.body).toEqual([
      expect.objectContaining({ id: world.agent.id, account_id: world.accountId, role: "agent", email: world.agent.email, name: "Teams Agent" }),
    ]);
    const second = await post(`${teams}/${team.id}/team_members`, world.admin.key, { user_ids: [world.agent.id, world.admin.id] });
    expect(ids(second.body)).toEqual([world.admin.id]);
    const list = await get(`${teams}/${team.id}/team_members`, world.agent.key);
    expect(list.status).toBe(200);
    expect(ids(list.body)).toEqual([world.admin.id, world.agent.id]);
  });

  it("replaces the set with PATCH and answers all members", async () => {
    const team = await newTeam();
    const extra = await createUser(world.platformKey, "Teams Extra");
    await post(`${world.base}/agents`, world.admin.key, { email: extra.email });
    await post(`${teams}/${team.id}/team_members`, world.admin.key, { user_ids: [world.agent.id, world.admin.id] });
    const res = await patch(`${teams}/${team.id}/team_members`, world.admin.key, { user_ids: [extra.id, world.agent.id] });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([world.agent.id, extra.id]);
    expect(ids((await get(`${teams}/${team.id}/team_members`, world.admin.key)).body)).toEqual([world.agent.id, extra.id]);
    const emptied = await patch(`${teams}/${team.id}/team_members`, world.admin.key, { user_ids: [] });
    expect(emptied.body).toEqual([]);
  });

  it("removes the given agents and ignores non-members", async () => {
    const team = await newTeam();
    await post(`${teams}/${team.id}/team_members`, world.admin.key, { user_ids: [world.agent.id, world.admin.id] });
    const res = await del(`${teams}/${team.id}/team_members`, world.admin.key, { user_ids: [world.agent.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(ids((await get(`${teams}/${team.id}/team_members`, world.admin.key)).body)).toEqual([world.admin.id]);
  });

  it("refuses users who are not agents of the account and changes nothing", async () => {
    const team = await newTeam();
    await post(`${teams}/${team.id}/team_members`, world.admin.key, { user_ids: [world.agent.id] });
    for (const call of [post, patch, del]) {
      const res = await call(`${teams}/${team.id}/team_members`, world.admin.key, { user_ids: [world.admin.id, other.agent.id, 999999] });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: "user_ids", code: "not_account_members" })]);
      expect(res.body.errors[0].message).toContain(`${other.agent.id}, 999999`);
    }
    expect(ids((await get(`${teams}/${team.id}/team_members`, world.admin.key)).body)).toEqual([world.agent.id]);
  });

  it("validates user_ids", async () => {
    const team = await newTeam();
    const missing = await post(`${teams}/${team.id}/team_members`, world.admin.key, {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0]).toMatchObject({ field: "user_ids", code: "required" });
    const bad = await post(`${teams}/${team.id}/team_members`, world.admin.key, { user_ids: ["abc"] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("user_ids[0]");
    const empty = await post(`${teams}/${team.id}/team_members`, world.admin.key, { user_ids: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].field).toBe("user_ids");
  });
});
