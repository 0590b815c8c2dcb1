/**
 * Macros: Chatwoot's CRUD and policy (personal macros are their creator's alone, global ones everyone's
 * to list and run, administrators change global ones), actions checked at save as automation rules'
 * are, and execute running them through the engine's actions with the macro as the actor.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { addInboxMember, createContact, createTeam } from "../support/fixtures";
import { shardOf } from "../support/databases";
import { call, del, get, patch, post, put } from "../support/http";
import { addToAccount, createUser, createWorld, type Person } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let other: World;
let second: Person;
let inboxId: number;
let hiddenInboxId: number;
let contactId: number;
let teamId: number;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

beforeAll(async () => {
  world = await createWorld("Macros");
  other = await createWorld("Macros elsewhere");
  second = await createUser(world.platformKey, "Macros Second");
  await addToAccount(world.platformKey, world.accountId, second.id, "agent");
  const { base, admin } = world;
  inboxId = (await post(`${base}/inboxes`, admin.key, { name: "Support", channel: { type: "api" } })).body.id;
  hiddenInboxId = (await post(`${base}/inboxes`, admin.key, { name: "Hidden", channel: { type: "api" } })).body.id;
  await addInboxMember(world.accountId, inboxId, world.agent.id);
  await post(`${base}/labels`, admin.key, { title: "vip" });
  contactId = await createContact(world.accountId, { name: "Casey" });
  teamId = await createTeam(world.accountId, "Tier 2", [world.agent.id]);
});

const macrosOf = async () =>
  (await (await shardOf(world.accountId)).prepare("SELECT id, name, visibility, actions FROM macros WHERE account_id = ? ORDER BY id").bind(world.accountId).all<Record<string, unknown>>()).results;
const conversation = async (inbox = inboxId) => {
  const res = await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inbox, contact_id: contactId });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.id as number;
};
const resolveAction = { action_name: "resolve_conversation", action_params: [] };
const idsOf = (res: { body: { payload: { id: number }[] } }) => res.body.payload.map((m) => m.id);

describe("macros CRUD", () => {
  it("creates, lists, shows, updates and deletes a macro, shown as Chatwoot shows it", async () => {
    const { base, admin, agent, accountId } = world;
    const created = await post(`${base}/macros`, agent.key, { name: "Tag VIP", visibility: "personal", actions: [{ action_name: "add_label", action_params: ["VIP"] }] });
    expect(created.status).toBe(200);
    const macro = created.body.payload;
    expect(macro).toEqual({
      id: expect.any(Number),
      name: "Tag VIP",
      visibility: "personal",
      created_by: expect.objectContaining({ id: agent.id, name: "Macros Agent", role: "agent" }),
      updated_by: expect.objectContaining({ id: agent.id }),
      account_id: accountId,
      actions: [{ action_name: "add_label", action_params: ["VIP"] }],
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(idsOf(await get(`${base}/macros`, agent.key))).toContain(macro.id);
    expect((await get(`${base}/macros/${macro.id}`, agent.key)).body.payload).toEqual(macro);

    const renamed = await patch(`${base}/macros/${macro.id}`, agent.key, { name: "Tag it" });
    expect(renamed.body.payload).toMatchObject({ id: macro.id, name: "Tag it", actions: macro.actions });
    const replaced = await put(`${base}/macros/${macro.id}`, agent.key, { macro: { actions: [resolveAction] } });
    expect(replaced.body.payload).toMatchObject({ name: "Tag it", actions: [resolveAction] });

    const global = await post(`${base}/macros`, admin.key, { name: "Close", visibility: "global", actions: [resolveAction] });
    expect(global.body.payload).toMatchObject({ visibility: "global", created_by: expect.objectContaining({ id: admin.id }) });

    expect((await del(`${base}/macros/${macro.id}`, agent.key)).status).toBe(200);
    expect((await get(`${base}/macros/${macro.id}`, agent.key)).status).toBe(404);
    expect((await macrosOf()).map((m) => m.id)).not.toContain(macro.id);
  });

  it("makes an agent's macro personal whatever it asks (as Chatwoot does)", async () => {
    const res = await post(`${world.base}/macros`, world.agent.key, { name: "Wants global", visibility: "global", actions: [resolveAction] });
    expect(res.body.payload.visibility).toBe("personal");
    const again = await patch(`${world.base}/macros/${res.body.payload.id}`, world.agent.key, { visibility: "global" });
    expect(again.body.payload.visibility).toBe("personal");
  });
});

describe("macro visibility and permissions", () => {
  it("keeps personal macros to their creator and shows global ones to every member", async () => {
    const { base, admin, agent } = world;
    const mine = (await post(`${base}/macros`, agent.key, { name: "Agent's own", actions: [resolveAction] })).body.payload;
    const adminsOwn = (await post(`${base}/macros`, admin.key, { name: "Admin's own", visibility: "personal", actions: [resolveAction] })).body.payload;
    const shared = (await post(`${base}/macros`, admin.key, { name: "Shared", visibility: "global", actions: [resolveAction] })).body.payload;

    const agentList = idsOf(await get(`${base}/macros`, agent.key));
    expect(agentList).toEqual(expect.arrayContaining([mine.id, shared.id]));
    expect(agentList).not.toContain(adminsOwn.id);
    const secondList = idsOf(await get(`${base}/macros`, second.key));
    expect(secondList).toContain(shared.id);
    expect(secondList).not.toContain(mine.id);
    expect(idsOf(await get(`${base}/macros`, admin.key))).not.toContain(mine.id);

    for (const key of [second.key, admin.key]) {
      expect((await get(`${base}/macros/${mine.id}`, key)).status).toBe(404);
      expect((await patch(`${base}/macros/${mine.id}`, key, { name: "Taken" })).status).toBe(404);
      expect((await del(`${base}/macros/${mine.id}`, key)).status).toBe(404);
      expect((await post(`${base}/macros/${mine.id}/execute`, key, { conversation_ids: [1] })).status).toBe(404);
    }
    expect((await get(`${base}/macros/${shared.id}`, second.key)).body.payload.name).toBe("Shared");
    expect((await macrosOf()).find((m) => m.id === mine.id)?.name).toBe("Agent's own");
  });

  it("refuses an agent changing a global macro and lets an administrator change and delete it", async () => {
    const { base, admin, agent } = world;
    const shared = (await post(`${base}/macros`, admin.key, { name: "Team macro", visibility: "global", actions: [resolveAction] })).body.payload;
    const refused = await patch(`${base}/macros/${shared.id}`, agent.key, { name: "Mine now" });
    expect(refused.status).toBe(403);
    expect((await del(`${base}/macros/${shared.id}`, agent.key)).status).toBe(403);
    expect((await macrosOf()).find((m) => m.id === shared.id)?.name).toBe("Team macro");

    const renamed = await patch(`${base}/macros/${shared.id}`, admin.key, { name: "Team macro 2" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.payload.updated_by.id).toBe(admin.id);
    expect((await del(`${base}/macros/${shared.id}`, admin.key)).status).toBe(200);
    expect((await macrosOf()).find((m) => m.id === shared.id)).toBeUndefined();
  });
});

describe("macro validation", () => {
  it("refuses actions a macro cannot hold, teams not of the account and blank labels, and changes nothing", async () => {
    const { base, admin } = world;
    const before = await macrosOf();
    const webhook = await post(`${base}/macros`, admin.key, { name: "Hook", actions: [{ action_name: "send_webhook_event", action_params: ["https://example.com/hook"] }] });
    expect(webhook.status).toBe(422);
    expect(webhook.body.errors[0]).toMatchObject({ field: "actions[0].action_name", code: "unsupported_action" });
    expect(webhook.body.errors[0].message).toContain("send_webhook_event");
    const unknown = await post(`${base}/macros`, admin.key, { name: "Odd", actions: [{ action_name: "launch_rocket", action_params: [] }] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].message).toContain("launch_rocket");
    const badTeam = await post(`${base}/macros`, admin.key, { name: "Team", actions: [{ action_name: "assign_team", action_params: [999999] }] });
    expect(badTeam.status).toBe(422);
    expect(badTeam.body.errors[0].field).toBe("actions[0].action_params[0]");
    // labels are free-form tags (as for rules): a blank one is refused, an unknown one is not
    const blankLabel = await post(`${base}/macros`, admin.key, { name: "Label", actions: [{ action_name: "add_label", action_params: [" "] }] });
    expect(blankLabel.status).toBe(422);
    for (const body of [{}, { name: "", actions: [resolveAction] }, { name: "x", actions: [] }, { name: "x", visibility: "team", actions: [resolveAction] }, { name: "x", actions: "resolve" }]) {
      expect((await post(`${base}/macros`, admin.key, body)).status).toBe(422);
    }
    expect(await macrosOf()).toEqual(before);

    const kept = (await post(`${base}/macros`, admin.key, { name: "Kept", visibility: "global", actions: [resolveAction] })).body.payload;
    const badUpdate = await patch(`${base}/macros/${kept.id}`, admin.key, { name: "Changed", actions: [{ action_name: "send_email_to_team", action_params: [{ team_ids: [teamId], message: "hi" }] }] });
    expect(badUpdate.status).toBe(422);
    expect((await get(`${base}/macros/${kept.id}`, admin.key)).body.payload).toMatchObject({ name: "Kept", actions: [resolveAction] });
  });

  it("answers 401 without a key, 403 to a non-member and 404 for another account's macro", async () => {
    const { base, admin } = world;
    const macro = (await post(`${base}/macros`, admin.key, { name: "Mine", visibility: "global", actions: [resolveAction] })).body.payload;
    expect((await get(`${base}/macros`, null)).status).toBe(401);
    expect((await call("POST", `${base}/macros/${macro.id}/execute`, { body: { conversation_ids: [1] } })).status).toBe(401);
    expect((await get(`${base}/macros`, other.admin.key)).status).toBe(403);
    expect((await get(`${other.base}/macros/${macro.id}`, other.admin.key)).status).toBe(404);
    expect((await patch(`${other.base}/macros/${macro.id}`, other.admin.key, { name: "Stolen" })).status).toBe(404);
    expect((await post(`${other.base}/macros/${macro.id}/execute`, other.admin.key, { conversation_ids: [1] })).status).toBe(404);
    expect((await get(`${base}/macros/${macro.id}`, admin.key)).body.payload.name).toBe("Mine");
  });
});

describe("macro execution", () => {
  it("runs the actions on each conversation through the engine, named as the macro in activity lines and events", async () => {
    const { base, admin, agent, accountId } = world;
    const macro = (
      await post(`${base}/macros`, admin.key, {
        name: "Escalate and close",
        visibility: "global",
        actions: [
          { action_name: "add_label", action_params: ["vip"] },
          { action_name: "assign_team", action_params: [teamId] },
          { action_name: "send_message", action_params: ["We are on it"] },
          resolveAction,
        ],
      })
    ).body.payload;
    const first = await conversation();
    const secondOne = await conversation();

    const res = await post(`${base}/macros/${macro.id}/execute`, agent.key, { conversation_ids: [first, secondOne] });
    expect(res.status).toBe(200);
    expect(res.body.payload).toEqual({ conversation_ids: [first, secondOne], skipped: [], failures: [] });

    for (const id of [first, secondOne]) {
      const shown = (await get(`${base}/conversations/${id}`, admin.key)).body;
      expect(shown).toMatchObject({ status: "resolved", labels: ["vip"], meta: { team: { id: teamId } } });
      const messages = (await get(`${base}/conversations/${id}/messages`, admin.key)).body.payload as any[];
      const sent = messages.find((m) => m.content === "We are on it");
      expect(sent).toMatchObject({ message_type: 1, private: false, sender: expect.objectContaining({ id: agent.id }) });
      const activity = messages.filter((m) => m.message_type === 2).map((m) => m.content);
      expect(activity).toContain(`Conversation was marked resolved by macro "Escalate and close" by Macros Agent`);
      const shard = await shardOf(accountId);
      const row = await shard.prepare("SELECT id FROM conversations WHERE account_id = ? AND display_id = ?").bind(accountId, id).first<{ id: number }>();
      const events = (await shard.prepare("SELECT data FROM event_outbox WHERE subject_type = 'Conversation' AND subject_id = ? AND event_name = 'conversation_status_changed'").bind(row!.id).all<{ data: string }>()).results;
      expect(JSON.parse(events.at(-1)!.data).performer).toEqual({ type: "Macro", id: macro.id, name: `macro "Escalate and close" by Macros Agent`, user_id: agent.id });
    }
  });

  it("skips conversations the caller cannot see or the account does not have, and reports refused actions", async () => {
    const { base, admin, agent } = world;
    const macro = (await post(`${base}/macros`, admin.key, { name: "Close", visibility: "global", actions: [{ action_name: "assign_agent", action_params: [second.id] }, resolveAction] })).body.payload;
    const visible = await conversation();
    const hidden = await conversation(hiddenInboxId);
    // display ids are the account's own: a number no conversation of this account has is not found
    const missing = 987654;

    const res = await post(`${base}/macros/${macro.id}/execute`, agent.key, { conversation_ids: [visible, hidden, missing] });
    expect(res.status).toBe(200);
    expect(res.body.payload.conversation_ids).toEqual([visible]);
    expect(res.body.payload.skipped).toEqual([
      { conversation_id: hidden, reason: "not_accessible" },
      { conversation_id: missing, reason: "not_found" },
    ]);
    // the second agent is no member of the inbox: that action is refused, the next one runs
    expect(res.body.payload.failures).toEqual([{ conversation_id: visible, action_name: "assign_agent", message: expect.any(String) }]);
    expect((await get(`${base}/conversations/${visible}`, admin.key)).body.status).toBe("resolved");
    expect((await get(`${base}/conversations/${hidden}`, admin.key)).body.status).toBe("open");
  });

  it("refuses bad execute bodies and changes nothing", async () => {
    const { base, admin } = world;
    const macro = (await post(`${base}/macros`, admin.key, { name: "Close", visibility: "global", actions: [resolveAction] })).body.payload;
    const id = await conversation();
    for (const body of [{}, { conversation_ids: [] }, { conversation_ids: "1" }, { conversation_ids: ["x"] }, { conversation_ids: Array.from({ length: 26 }, (_, i) => i + 1) }]) {
      const res = await post(`${base}/macros/${macro.id}/execute`, admin.key, body);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].field).toMatch(/^conversation_ids/);
    }
    expect((await post(`${base}/macros/999999/execute`, admin.key, { conversation_ids: [id] })).status).toBe(404);
    expect((await get(`${base}/conversations/${id}`, admin.key)).body.status).toBe("open");
  });
});
