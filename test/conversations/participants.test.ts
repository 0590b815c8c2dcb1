/**
 * A conversation's participants (Chatwoot's ParticipantsController): GET answers them as agents, POST adds
 * (answering those added), PATCH replaces the set, DELETE removes. Only agents of the account who can see
 * the conversation may be participants: a 422 names the others and nothing changes. Whoever may act on
 * the conversation may change them; an agent outside its inbox and team may not.
 */
import { describe, expect, it } from "vitest";
import { call, del, get, patch, post, put } from "../support/http";
import { addToAccount, createUser, createWorld } from "../support/world";
import { addInboxMember, createContact, createInbox, createTeam } from "../support/fixtures";

const world = await createWorld("Crowd Co");
const { base, admin, agent } = world;
const inbox = await createInbox(world.accountId, { name: "Desk" });
await addInboxMember(world.accountId, inbox, agent.id);
const helper = await createUser(world.platformKey, "Helper");
await addToAccount(world.platformKey, world.accountId, helper.id, "agent");
await addInboxMember(world.accountId, inbox, helper.id);
const outsider = await createUser(world.platformKey, "Outsider");
await addToAccount(world.platformKey, world.accountId, outsider.id, "agent");
const teamMate = await createUser(world.platformKey, "Team Mate");
await addToAccount(world.platformKey, world.accountId, teamMate.id, "agent");
const team = await createTeam(world.accountId, "tier2", [teamMate.id]);
const other = await createWorld("Elsewhere Co");
const contactId = await createContact(world.accountId);

async function openConversation(extra: Record<string, unknown> = {}) {
  const res = await post(`${base}/conversations`, admin.key, { inbox_id: inbox, contact_id: contactId, ...extra });
  expect(res.status).toBe(200);
  return `${base}/conversations/${res.body.id}/participants`;
}
const idsOf = (agents: Array<{ id: number }>) => agents.map((a) => a.id);
const current = async (path: string) => {
  const res = await get(path, admin.key);
  expect(res.status).toBe(200);
  return idsOf(res.body);
};

describe("participants", () => {
  it("start empty; POST adds and answers the agents added, as Chatwoot's agent records", async () => {
    const path = await openConversation();
    expect(await current(path)).toEqual([]);
    const res = await post(path, agent.key, { user_ids: [helper.id, admin.id] });
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual([helper.id, admin.id]);
    expect(res.body[0]).toMatchObject({ id: helper.id, name: "Helper", role: "agent", account_id: world.accountId, availability_status: expect.any(String), email: helper.email });
    const again = await post(path, agent.key, { user_ids: [helper.id, agent.id] });
    expect(idsOf(again.body)).toEqual([agent.id]);
    expect(await current(path)).toEqual([helper.id, admin.id, agent.id]);
  });

  it("PATCH replaces the set; DELETE removes, ignoring ids that are not participants", async () => {
    const path = await openConversation();
    expect((await post(path, admin.key, { user_ids: [helper.id, agent.id] })).status).toBe(200);
    const replaced = await patch(path, admin.key, { user_ids: [agent.id, admin.id] });
    expect(replaced.status).toBe(200);
    expect(idsOf(replaced.body).sort()).toEqual([agent.id, admin.id].sort());
    expect((await put(path, admin.key, { user_ids: [admin.id] })).status).toBe(200);
    expect(await current(path)).toEqual([admin.id]);
    const removed = await del(path, agent.key, { user_ids: [admin.id, helper.id] });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({});
    expect(await current(path)).toEqual([]);
    expect((await patch(path, admin.key, { user_ids: [] })).status).toBe(200);
  });

  it("may be team members of a conversation of their team", async () => {
    const path = await openConversation({ team_id: team });
    const res = await post(path, admin.key, { user_ids: [teamMate.id] });
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual([teamMate.id]);
  });

  it("refuses users who are not agents of the account, naming them, and changes nothing", async () => {
    const path = await openConversation();
    expect((await post(path, admin.key, { user_ids: [helper.id] })).status).toBe(200);
    for (const [method, body] of [
      ["POST", { user_ids: [agent.id, other.agent.id, 999999] }],
      ["PATCH", { user_ids: [other.admin.id] }],
      ["DELETE", { user_ids: [helper.id, other.agent.id] }],
    ] as const) {
      const res = await call(method, path, { key: admin.key, body });
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ field: "user_ids", code: "not_account_members" });
      for (const bad of body.user_ids.filter((id) => id !== agent.id && id !== helper.id)) expect(res.body.errors[0].message).toContain(String(bad));
    }
    expect(await current(path)).toEqual([helper.id]);
  });

  it("refuses agents who cannot see the conversation, naming them, and changes nothing", async () => {
    const path = await openConversation();
    const res = await post(path, admin.key, { user_ids: [agent.id, outsider.id, teamMate.id] });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ field: "user_ids", code: "no_conversation_access" });
    expect(res.body.errors[0].message).toContain(`${outsider.id}, ${teamMate.id}`);
    expect((await patch(path, admin.key, { user_ids: [outsider.id] })).status).toBe(422);
    expect(await current(path)).toEqual([]);
  });

  it("refuses bad bodies with the error body, changing nothing", async () => {
    const path = await openConversation();
    for (const body of [{}, { user_ids: "1" }, { user_ids: [0] }, { user_ids: ["abc"] }, { user_ids: [{ id: 1 }] }]) {
      const res = await post(path, admin.key, body);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].field).toMatch(/^user_ids/);
    }
    expect(await current(path)).toEqual([]);
  });

  it("are the conversation's: an agent outside its inbox and team gets a 403, an unknown conversation a 404", async () => {
    const path = await openConversation();
    expect((await post(path, admin.key, { user_ids: [helper.id] })).status).toBe(200);
    for (const [method, body] of [
      ["GET", undefined],
      ["POST", { user_ids: [outsider.id] }],
      ["PATCH", { user_ids: [] }],
      ["DELETE", { user_ids: [helper.id] }],
    ] as const) {
      const res = await call(method, path, { key: outsider.key, body });
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe("conversation_not_accessible");
      expect((await call(method, `${base}/conversations/999999/participants`, { key: admin.key, body })).status).toBe(404);
      expect((await call(method, path, { key: null, body })).status).toBe(401);
      expect((await call(method, path, { key: other.admin.key, body })).status).toBe(403);
    }
    expect(await current(path)).toEqual([helper.id]);
  });
});
