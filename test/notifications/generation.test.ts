/**
 * Which changes notify whom (Chatwoot's NotificationListener, NewMessageNotificationService and
 * MentionService): each type reaches who it should, never the user who acted, never a user whose settings
 * turn it off, never a user who cannot see the conversation; each new notification writes its
 * `notification_created` event in the change's batch.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { get, post, put } from "../support/http";
import { addToAccount, createUser, createWorld, type Person } from "../support/world";
import { shardOf } from "../support/databases";
import { addInboxMember, connectAgentBot, createContact, createInbox, createTeam } from "../support/fixtures";

const ALL_EMAIL = ["email_conversation_creation", "email_conversation_assignment", "email_conversation_mention", "email_assigned_conversation_new_message", "email_participating_conversation_new_message"];

const world = await createWorld("Notify Co");
/** The database holding this account's rows. */
const shard = await shardOf(world.accountId);
const { base, admin, agent } = world;
const inbox = await createInbox(world.accountId, { name: "Front desk" });
const otherInbox = await createInbox(world.accountId, { name: "Back office" });
await addInboxMember(world.accountId, inbox, agent.id);
/** an agent of the account who is in neither inbox nor team: sees nothing */
const outsider = await createUser(world.platformKey, "Outsider");
await addToAccount(world.platformKey, world.accountId, outsider.id, "agent");
/** an agent who reaches conversations of team "billing" only */
const teamMate = await createUser(world.platformKey, "Team Mate");
await addToAccount(world.platformKey, world.accountId, teamMate.id, "agent");
const billing = await createTeam(world.accountId, "billing", [teamMate.id]);
/** an agent who keeps Chatwoot's defaults (assignments only) */
const quiet = await createUser(world.platformKey, "Quiet");
await addToAccount(world.platformKey, world.accountId, quiet.id, "agent");
await addInboxMember(world.accountId, inbox, quiet.id);
const contactId = await createContact(world.accountId, { name: "Carla" });

async function wantsEverything(person: Person) {
  const res = await put(`${base}/notification_settings`, person.key, { notification_settings: { selected_email_flags: ALL_EMAIL, selected_push_flags: [] } });
  expect(res.status).toBe(200);
}

/** The user's notifications of every kind, newest first, as the list shows them. */
async function notificationsOf(person: Person) {
  const res = await get(`${base}/notifications?includes[]=read&includes[]=snoozed`, person.key);
  expect(res.status).toBe(200);
  return res.body.data.payload as Array<{ id: number; notification_type: string; primary_actor_id: number; primary_actor: { id: number }; push_message_title: string; secondary_actor: any }>;
}
const typesOf = async (person: Person, displayId: number) => (await notificationsOf(person)).filter((n) => n.primary_actor?.id === displayId).map((n) => n.notification_type);

async function openConversation(key: string, inboxId = inbox, extra: Record<string, unknown> = {}) {
  const res = await post(`${base}/conversations`, key, { inbox_id: inboxId, contact_id: contactId, ...extra });
  expect(res.status).toBe(200);
  return res.body.id as number;
}
const say = async (key: string, displayId: number, body: Record<string, unknown>) => {
  const res = await post(`${base}/conversations/${displayId}/messages`, key, body);
  expect(res.status).toBe(200);
  return res.body;
};
const assign = async (key: string, displayId: number, assigneeId: number) => {
  const res = await post(`${base}/conversations/${displayId}/assignments`, key, { assignee_id: assigneeId });
  expect(res.status).toBe(200);
};

beforeAll(async () => {
  for (const person of [admin, agent, outsider, teamMate]) await wantsEverything(person);
});

describe("conversation creation", () => {
  it("notifies the inbox's members who want it, not the creator, not the members with the defaults, not other agents", async () => {
    const id = await openConversation(admin.key);
    expect(await typesOf(agent, id)).toEqual(["conversation_creation"]);
    expect(await typesOf(admin, id)).toEqual([]); // the creator (and not an inbox member)
    expect(await typesOf(quiet, id)).toEqual([]); // Chatwoot's defaults: assignments only
    expect(await typesOf(outsider, id)).toEqual([]);
    const [n] = (await notificationsOf(agent)).filter((x) => x.primary_actor?.id === id);
    expect(n.push_message_title).toBe(`[New conversation] - #${id} has been created in Front desk`);
    expect(n.secondary_actor).toMatchObject({ id: admin.id, type: "user" });
    const events = await shard.prepare("SELECT event_name, data FROM event_outbox WHERE subject_type = 'Notification' AND subject_id = ?").bind(n.id).all<{ event_name: string; data: string }>();
    expect(events.results.map((e) => [e.event_name, JSON.parse(e.data)])).toEqual([["notification_created", { user_id: agent.id }]]);
  });

  it("notifies nobody about a pending conversation (a bot serves the inbox)", async () => {
    const botInbox = await createInbox(world.accountId, { name: "Bot desk" });
    await addInboxMember(world.accountId, botInbox, agent.id);
    const bot = await post(`${base}/agent_bots`, admin.key, { name: "Greeter", outgoing_url: "https://bot.example.com/hook" });
    expect(bot.status).toBe(200);
    await connectAgentBot(world.accountId, botInbox, bot.body.id);
    const id = await openConversation(admin.key, botInbox);
    expect(await typesOf(agent, id)).toEqual([]);
  });
});

describe("assignment", () => {
  it("notifies the new assignee, with Chatwoot's defaults too", async () => {
    const id = await openConversation(admin.key, otherInbox);
    await addInboxMember(world.accountId, otherInbox, quiet.id);
    await assign(admin.key, id, quiet.id);
    expect(await typesOf(quiet, id)).toEqual(["conversation_assignment"]);
    const [n] = (await notificationsOf(quiet)).filter((x) => x.primary_actor?.id === id);
    expect(n.push_message_title).toBe(`[Assigned to you] - #${id} has been assigned to you`);
  });

  it("does not notify agents who assign themselves", async () => {
    const id = await openConversation(admin.key);
    await assign(agent.key, id, agent.id);
    expect(await typesOf(agent, id)).toEqual(["conversation_creation"]);
  });

  it("does not notify an assignee whose settings turn assignments off", async () => {
    const id = await openConversation(admin.key, otherInbox);
    const picky = await createUser(world.platformKey, "Picky");
    await addToAccount(world.platformKey, world.accountId, picky.id, "agent");
    await addInboxMember(world.accountId, otherInbox, picky.id);
    const off = await put(`${base}/notification_settings`, picky.key, { notification_settings: { selected_email_flags: [], selected_push_flags: [] } });
    expect(off.status).toBe(200);
    await assign(admin.key, id, picky.id);
    expect(await typesOf(picky, id)).toEqual([]);
  });
});

describe("new messages", () => {
  it("notify the assignee of incoming and outgoing messages, not the assignee's own", async () => {
    const id = await openConversation(admin.key, otherInbox);
    await addInboxMember(world.accountId, otherInbox, agent.id);
    await assign(admin.key, id, agent.id);
    await say(agent.key, id, { content: "my own reply" });
    expect(await typesOf(agent, id)).toEqual(["conversation_assignment"]);
    await say(admin.key, id, { content: "Customer says hello there friend", message_type: "incoming" });
    // one notification per user and conversation: the newest replaces the earlier one (Chatwoot's duplicate removal)
    const mine = (await notificationsOf(agent)).filter((x) => x.primary_actor?.id === id);
    expect(mine.map((x) => x.notification_type)).toEqual(["assigned_conversation_new_message"]);
    expect(mine[0].push_message_title).toBe(`[New message] - #${id} Customer says hello there friend`);
    expect(mine[0].secondary_actor).toMatchObject({ content: "Customer says hello there friend", message_type: 0 });
  });

  it("notify the participants, not the participant who wrote", async () => {
    const id = await openConversation(admin.key);
    const added = await post(`${base}/conversations/${id}/participants`, admin.key, { user_ids: [teamMate.id, agent.id] });
    // the team mate cannot see a conversation of this inbox without a team
    expect(added.status).toBe(422);
    expect((await post(`${base}/conversations/${id}/participants`, admin.key, { user_ids: [agent.id, admin.id] })).status).toBe(200);
    await say(agent.key, id, { content: "a note for the team", private: true });
    expect(await typesOf(agent, id)).toEqual(["conversation_creation"]);
    expect(await typesOf(admin, id)).toEqual(["participating_conversation_new_message"]);
  });

  it("notify nobody of activity lines", async () => {
    const id = await openConversation(agent.key);
    expect((await post(`${base}/conversations/${id}/participants`, admin.key, { user_ids: [admin.id] })).status).toBe(200);
    const res = await post(`${base}/conversations/${id}/toggle_status`, agent.key, { status: "resolved" });
    expect(res.status).toBe(200);
    expect(await typesOf(admin, id)).toEqual([]);
  });
});

describe("mentions", () => {
  it("notify the users named in a private note, make them participants and write conversation_mentioned", async () => {
    const id = await openConversation(admin.key, inbox, { team_id: billing });
    const note = `Please look [@Team Mate](mention://user/${teamMate.id}/Team%20Mate) and [@Agent](mention://user/${agent.id}/Agent)`;
    await say(admin.key, id, { content: note, private: true });
    expect(await typesOf(teamMate, id)).toEqual(["conversation_mention"]);
    // the agent's creation notification gives way to the newer mention
    expect(await typesOf(agent, id)).toEqual(["conversation_mention"]);
    const [n] = (await notificationsOf(teamMate)).filter((x) => x.primary_actor?.id === id);
    expect(n.push_message_title).toBe(`[#${id}] Please look @Team Mate and @Agent`);
    const participants = await get(`${base}/conversations/${id}/participants`, admin.key);
    expect(participants.body.map((a: { id: number }) => a.id).sort()).toEqual([agent.id, teamMate.id].sort());
    const conversationRow = await shard.prepare("SELECT id FROM conversations WHERE account_id = ? AND display_id = ?").bind(world.accountId, id).first<{ id: number }>();
    const mentioned = await shard.prepare("SELECT data FROM event_outbox WHERE event_name = 'conversation_mentioned' AND subject_id = ?").bind(conversationRow!.id).all<{ data: string }>();
    expect(mentioned.results.map((r) => JSON.parse(r.data).user_id).sort()).toEqual([agent.id, teamMate.id].sort());
  });

  it("of a team notify its members who can see the conversation", async () => {
    const id = await openConversation(admin.key, inbox, { team_id: billing });
    await say(agent.key, id, { content: `[@billing](mention://team/${billing}/billing) can you help?`, private: true });
    expect(await typesOf(teamMate, id)).toEqual(["conversation_mention"]);
  });

  it("never notify the author, users who cannot see the conversation, or users of another account", async () => {
    const id = await openConversation(admin.key);
    const stranger = await createWorld("Elsewhere");
    const note = `[@Me](mention://user/${agent.id}/Me) [@Out](mention://user/${outsider.id}/Out) [@Team](mention://user/${teamMate.id}/Team) [@X](mention://user/${stranger.agent.id}/X)`;
    await say(agent.key, id, { content: note, private: true });
    expect(await typesOf(agent, id)).toEqual(["conversation_creation"]);
    expect(await typesOf(outsider, id)).toEqual([]);
    expect(await typesOf(teamMate, id)).toEqual([]);
    const participants = await get(`${base}/conversations/${id}/participants`, admin.key);
    // Chatwoot records the author among the mentioned participants; never the others
    expect(participants.body.map((a: { id: number }) => a.id)).toEqual([agent.id]);
  });

  it("in a public reply are not mentions", async () => {
    const id = await openConversation(admin.key);
    await say(agent.key, id, { content: `[@Admin](mention://user/${admin.id}/Admin)` });
    expect(await typesOf(admin, id)).toEqual([]);
  });

  it("count the first 50 users and teams named; a note naming hundreds is still written", async () => {
    const id = await openConversation(admin.key);
    const many = Array.from({ length: 300 }, (_, i) => `[@U${i}](mention://user/${900000 + i}/U${i})`).join(" ");
    await say(agent.key, id, { content: `${many} [@Admin](mention://user/${admin.id}/Admin)`, private: true });
    expect(await typesOf(admin, id)).toEqual([]);
    await say(agent.key, id, { content: `[@Admin](mention://user/${admin.id}/Admin) ${many}`, private: true });
    expect(await typesOf(admin, id)).toEqual(["conversation_mention"]);
  });

  it("respect the mention setting", async () => {
    const id = await openConversation(admin.key);
    await say(agent.key, id, { content: `[@Quiet](mention://user/${quiet.id}/Quiet)`, private: true });
    const types = await typesOf(quiet, id);
    expect(types).toEqual([]);
    // still a participant (Chatwoot adds whoever is mentioned)
    const participants = await get(`${base}/conversations/${id}/participants`, admin.key);
    expect(participants.body.map((a: { id: number }) => a.id)).toEqual([quiet.id]);
  });
});
