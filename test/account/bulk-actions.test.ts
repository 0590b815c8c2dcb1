/**
 * POST /bulk_actions (Chatwoot's bulk actions): conversations changed through their routes' functions
 * (same events and activity messages as one by one), contacts deleted or labelled; ids of another
 * account or out of the caller's reach skipped and reported; strict validation that changes nothing.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { addInboxMember, createContact, createTeam, conversationRowId, outboxFor } from "../support/fixtures";
import { shardOf } from "../support/databases";
import { call, get, post } from "../support/http";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let other: World;
let inboxId: number;
let hiddenInboxId: number;
let contactId: number;
let teamId: number;
let otherTeamId: number;

beforeAll(async () => {
  world = await createWorld("Bulk");
  other = await createWorld("Bulk elsewhere");
  const inbox = async (w: World, name: string) => (await post(`${w.base}/inboxes`, w.admin.key, { name, channel: { type: "api" } })).body.id as number;
  inboxId = await inbox(world, "Support");
  hiddenInboxId = await inbox(world, "Hidden");
  await addInboxMember(world.accountId, inboxId, world.agent.id);
  contactId = await createContact(world.accountId, { name: "Casey" });
  teamId = await createTeam(world.accountId, "Tier 2");
  otherTeamId = await createTeam(other.accountId, "Their team");
});

async function conversation(w = world, inbox = inboxId, contact = contactId): Promise<number> {
  const res = await post(`${w.base}/conversations`, w.admin.key, { inbox_id: inbox, contact_id: contact });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.id;
}
const bulk = (body: unknown, key = world.admin.key, base = world.base) => post(`${base}/bulk_actions`, key, body);
const show = async (id: number, w = world) => (await get(`${w.base}/conversations/${id}`, w.admin.key)).body;
/** The assignee and team ids (the view leaves them out when there is none). */
const holders = async (id: number) => {
  const { meta } = await show(id);
  return { assignee: meta.assignee?.id ?? null, team: meta.team?.id ?? null };
};
const labelsOf = async (id: number, w = world) => (await get(`${w.base}/conversations/${id}/labels`, w.admin.key)).body.payload;
const activities = async (id: number, w = world) =>
  ((await get(`${w.base}/conversations/${id}/messages`, w.admin.key)).body.payload as Array<{ message_type: number; content: string }>)
    .filter((m) => m.message_type === 2)
    .map((m) => m.content);
/** What a change leaves for webhooks: the event names and the attributes each says changed. */
const events = async (id: number, w = world) =>
  (await outboxFor(w.accountId, "Conversation", await conversationRowId(w.accountId, id))).map((e) => [e.event, (e.data.changed_attributes ?? []).flatMap((c: object) => Object.keys(c))]);
/** The stored state a refused request must leave alone. */
const stateOf = async (accountId: number) =>
  (
    await (await shardOf(accountId)).prepare(
      `SELECT display_id, status, priority, assignee_id, team_id, snoozed_until, updated_at,
         (SELECT group_concat(tag) FROM taggings t WHERE t.taggable_type = 'Conversation' AND t.taggable_id = c.id) AS tags,
         (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id) AS messages,
         (SELECT count(*) FROM event_outbox e WHERE e.subject_type = 'Conversation' AND e.subject_id = c.id) AS events
       FROM conversations c WHERE account_id = ? ORDER BY display_id`,
    )
      .bind(accountId)
      .all()
  ).results;
const contactsOf = async (accountId: number) =>
  (
    await (await shardOf(accountId)).prepare(
      `SELECT id, (SELECT group_concat(tag) FROM taggings t WHERE t.taggable_type = 'Contact' AND t.taggable_id = c.id) AS tags FROM contacts c WHERE account_id = ? ORDER BY id`,
    )
      .bind(accountId)
      .all()
  ).results;

describe("bulk actions on conversations", () => {
  it("changes status, priority, assignee, team and labels of every conversation named", async () => {
    const ids = [await conversation(), await conversation(), await conversation()];
    await post(`${world.base}/conversations/${ids[0]}/labels`, world.admin.key, { labels: ["old", "keep"] });
    const res = await bulk({
      type: "Conversation",
      ids,
      fields: { status: "pending", priority: "high", assignee_id: world.agent.id, team_id: teamId },
      labels: { add: ["billing"], remove: ["old"] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ payload: { type: "Conversation", ids, skipped: [], failures: [], queued: 0 } });
    for (const id of ids) {
      expect(await show(id)).toMatchObject({ id, status: "pending", priority: "high", meta: { assignee: { id: world.agent.id }, team: { id: teamId } } });
    }
    expect(await labelsOf(ids[0])).toEqual(["keep", "billing"]);
    expect(await labelsOf(ids[1])).toEqual(["billing"]);
  });

  it("leaves the same events and activity messages as the same changes made one by one", async () => {
    const [single, bulked] = [await conversation(), await conversation()];
    const c = `${world.base}/conversations/${single}`;
    // one by one, in the order the bulk action makes them: labels, status, priority, assignee, team
    await post(`${c}/labels`, world.agent.key, { labels: ["billing"] });
    await post(`${c}/toggle_status`, world.agent.key, { status: "resolved" });
    await post(`${c}/toggle_priority`, world.agent.key, { priority: "urgent" });
    await post(`${c}/assignments`, world.agent.key, { assignee_id: world.admin.id });
    await post(`${c}/assignments`, world.agent.key, { team_id: teamId });
    const res = await bulk(
      { type: "conversation", ids: [bulked], fields: { status: "resolved", priority: "urgent", assignee_id: world.admin.id, team_id: teamId }, labels: { add: ["billing"] } },
      world.agent.key,
    );
    expect(res.body.payload).toEqual({ type: "Conversation", ids: [bulked], skipped: [], failures: [], queued: 0 });

    expect(await activities(bulked)).toEqual(await activities(single));
    expect(await activities(bulked)).toContain("Conversation was marked resolved by Bulk Agent");
    expect(await events(bulked)).toEqual(await events(single));
    expect((await events(bulked)).map(([name]) => name)).toEqual(expect.arrayContaining(["conversation_updated", "conversation_status_changed"]));
    const { meta, labels, status, priority } = await show(single);
    expect(await show(bulked)).toMatchObject({ meta: { assignee: meta.assignee, team: meta.team }, labels, status, priority });
  });

  it("snoozes until the given time, and clears assignee, team and priority with 0 and none", async () => {
    const id = await conversation();
    await bulk({ type: "Conversation", ids: [id], fields: { assignee_id: world.agent.id, team_id: teamId, priority: "low" } });
    const until = Math.floor(Date.now() / 1000) + 3600;
    const res = await bulk({ type: "Conversation", ids: [id], fields: { status: "snoozed", snoozed_until: until, assignee_id: 0, team_id: 0, priority: "none" } });
    expect(res.status).toBe(200);
    const after = await show(id);
    expect(after).toMatchObject({ status: "snoozed", snoozed_until: until, priority: null });
    expect(await holders(id)).toEqual({ assignee: null, team: null });
    // null fields change nothing (Chatwoot's job drops them)
    expect((await bulk({ type: "Conversation", ids: [id], fields: { status: "open", assignee_id: null, team_id: null, priority: null } })).status).toBe(200);
    expect(await show(id)).toMatchObject({ status: "open", priority: null });
    expect(await holders(id)).toEqual({ assignee: null, team: null });
  });

  it("skips, and reports, conversations out of an agent's reach and ids the account does not have; they stay as they were", async () => {
    const reachable = await conversation();
    const hidden = await conversation(world, hiddenInboxId);
    // display ids are per account: one the other account has and this one does not yet have
    const otherContact = await createContact(other.accountId);
    const otherInbox = (await post(`${other.base}/inboxes`, other.admin.key, { name: "Theirs", channel: { type: "api" } })).body.id;
    let foreign = 0;
    while (foreign <= hidden + 1) foreign = await conversation(other, otherInbox, otherContact);
    const before = { hidden: await stateOf(world.accountId), other: await stateOf(other.accountId) };

    const res = await bulk({ type: "Conversation", ids: [hidden, reachable, foreign], fields: { status: "resolved" }, labels: { add: ["seen"] } }, world.agent.key);
    expect(res.status).toBe(200);
    expect(res.body.payload).toEqual({
      type: "Conversation",
      ids: [reachable],
      skipped: [
        { id: hidden, reason: "not_accessible" },
        { id: foreign, reason: "not_found" },
      ],
      failures: [],
      queued: 0,
    });
    expect(await show(reachable)).toMatchObject({ status: "resolved", labels: ["seen"] });
    const hiddenRow = (rows: any[]) => rows.find((r) => r.display_id === hidden);
    expect(hiddenRow(await stateOf(world.accountId))).toEqual(hiddenRow(before.hidden));
    expect(await stateOf(other.accountId)).toEqual(before.other);
  });

  it("reports a change one conversation refuses and still makes the others", async () => {
    const inInbox = await conversation();
    const inHidden = await conversation(world, hiddenInboxId);
    // the agent is a member of the first conversation's inbox only
    const res = await bulk({ type: "Conversation", ids: [inInbox, inHidden], fields: { assignee_id: world.agent.id, priority: "medium" } });
    expect(res.body.payload).toEqual({
      type: "Conversation",
      ids: [inInbox, inHidden],
      skipped: [],
      failures: [{ id: inHidden, field: "assignee_id", code: "not_an_inbox_member", message: expect.any(String) }],
      queued: 0,
    });
    expect(await show(inInbox)).toMatchObject({ priority: "medium", meta: { assignee: { id: world.agent.id } } });
    expect(await show(inHidden)).toMatchObject({ priority: "medium" });
    expect((await holders(inHidden)).assignee).toBeNull();
  });

  it("refuses bad bodies with the error body and changes nothing", async () => {
    const id = await conversation();
    const stranger = other.admin.id;
    const before = await stateOf(world.accountId);
    const cases: Array<[unknown, string]> = [
      [{ type: "Message", ids: [id], fields: { status: "open" } }, "type"],
      [{ ids: [id], fields: { status: "open" } }, "type"],
      [{ type: "Conversation", ids: [], fields: { status: "open" } }, "ids"],
      [{ type: "Conversation", ids: [0], fields: { status: "open" } }, "ids[0]"],
      [{ type: "Conversation", ids: [-3], fields: { status: "open" } }, "ids[0]"],
      [{ type: "Conversation", ids: ["x"], fields: { status: "open" } }, "ids[0]"],
      [{ type: "Conversation", ids: id, fields: { status: "open" } }, "ids"],
      [{ type: "Conversation", ids: Array.from({ length: 1001 }, (_, i) => i + 1), fields: { status: "open" } }, "ids"],
      [{ type: "Conversation", ids: [id], fields: { status: "closed" } }, "fields.status"],
      [{ type: "Conversation", ids: [id], fields: { priority: "extreme" } }, "fields.priority"],
      [{ type: "Conversation", ids: [id], fields: { snoozed_until: "tomorrow", status: "snoozed" } }, "fields.snoozed_until"],
      [{ type: "Conversation", ids: [id], fields: { assignee_id: -1 } }, "fields.assignee_id"],
      [{ type: "Conversation", ids: [id], fields: { assignee_id: stranger } }, "fields.assignee_id"],
      [{ type: "Conversation", ids: [id], fields: { team_id: otherTeamId } }, "fields.team_id"],
      [{ type: "Conversation", ids: [id], labels: { add: [""] } }, "labels.add[0]"],
      [{ type: "Conversation", ids: [id], labels: { add: "vip" } }, "labels.add"],
      [{ type: "Conversation", ids: [id] }, "fields"],
      [{ type: "Conversation", ids: [id], fields: {} }, "fields"],
      [{ type: "Conversation", ids: [id], fields: { status: "open" }, action_name: "delete" }, "action_name"],
      [{ type: "Contact", ids: [contactId], fields: { status: "open" }, action_name: "delete" }, "fields"],
      [{ type: "Contact", ids: [contactId] }, "action_name"],
      [{ type: "Contact", ids: [contactId], action_name: "merge" }, "action_name"],
    ];
    for (const [body, field] of cases) {
      const res = await bulk(body);
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(422);
      expect(res.body).toMatchObject({ description: expect.any(String), errors: expect.arrayContaining([expect.objectContaining({ field, code: expect.any(String) })]) });
    }
    expect(await stateOf(world.accountId)).toEqual(before);
    expect(await contactsOf(world.accountId)).toContainEqual(expect.objectContaining({ id: contactId }));
  });

  it("needs a key of this account: no key 401, another account's key 403, a bot's key 403; nothing changes", async () => {
    const id = await conversation();
    const before = await stateOf(world.accountId);
    const body = { type: "Conversation", ids: [id], fields: { status: "resolved" } };
    expect((await call("POST", `${world.base}/bulk_actions`, { body })).status).toBe(401);
    expect((await bulk(body, other.admin.key)).status).toBe(403);
    const bot = (await post(`${world.base}/agent_bots`, world.admin.key, { name: "Bulk bot" })).body;
    expect((await bulk(body, bot.access_token)).status).toBe(403);
    expect(await stateOf(world.accountId)).toEqual(before);
  });
});

describe("bulk actions on contacts", () => {
  it("adds and removes labels for any member; skips ids of other accounts", async () => {
    const [a, b] = [await createContact(world.accountId), await createContact(world.accountId)];
    const theirs = await createContact(other.accountId);
    await post(`${world.base}/contacts/${a}/labels`, world.admin.key, { labels: ["lead", "old"] });
    const theirsBefore = await contactsOf(other.accountId);
    const res = await bulk({ type: "Contact", ids: [a, b, theirs], action_name: "assign_labels", labels: { add: ["customer"], remove: ["old"] } }, world.agent.key);
    expect(res.status).toBe(200);
    expect(res.body.payload).toEqual({ type: "Contact", ids: [a, b], skipped: [{ id: theirs, reason: "not_found" }], failures: [], queued: 0 });
    expect((await get(`${world.base}/contacts/${a}/labels`, world.agent.key)).body.payload).toEqual(["customer", "lead"]);
    expect((await get(`${world.base}/contacts/${b}/labels`, world.agent.key)).body.payload).toEqual(["customer"]);
    expect(await contactsOf(other.accountId)).toEqual(theirsBefore);
  });

  it("deletes contacts for administrators, as one by one (with their conversations and contact_deleted events)", async () => {
    const [a, b] = [await createContact(world.accountId, { name: "Gone A" }), await createContact(world.accountId, { name: "Gone B" })];
    const theirs = await createContact(other.accountId);
    const conv = await conversation(world, inboxId, a);
    const res = await bulk({ type: "Contact", ids: [a, b, theirs], action_name: "delete" });
    expect(res.body.payload).toEqual({ type: "Contact", ids: [a, b], skipped: [{ id: theirs, reason: "not_found" }], failures: [], queued: 0 });
    expect((await get(`${world.base}/contacts/${a}`, world.admin.key)).status).toBe(404);
    expect((await get(`${world.base}/contacts/${b}`, world.admin.key)).status).toBe(404);
    expect((await get(`${world.base}/conversations/${conv}`, world.admin.key)).status).toBe(404);
    expect((await outboxFor(world.accountId, "Contact", a)).map((e) => e.event)).toContain("contact_deleted");
    expect((await get(`${other.base}/contacts/${theirs}`, other.admin.key)).status).toBe(200);
  });

  it("refuses deleting to agents, and to another account's administrator; nothing is deleted", async () => {
    const a = await createContact(world.accountId);
    const before = await contactsOf(world.accountId);
    const agent = await bulk({ type: "Contact", ids: [a], action_name: "delete" }, world.agent.key);
    expect(agent.status).toBe(403);
    expect(agent.body.errors[0].code).toBe("administrator_required");
    expect((await bulk({ type: "Contact", ids: [a], action_name: "delete" }, other.admin.key)).status).toBe(403);
    // the other account's administrator on its own account names our contact: not one of its contacts
    const there = await bulk({ type: "Contact", ids: [a], action_name: "delete" }, other.admin.key, other.base);
    expect(there.body.payload).toEqual({ type: "Contact", ids: [], skipped: [{ id: a, reason: "not_found" }], failures: [], queued: 0 });
    expect(await contactsOf(world.accountId)).toEqual(before);
  });

  it("changes a selection larger than 25 on the queue, as the caller, skipping what the caller does not reach", async () => {
    const reachable: number[] = [];
    for (let i = 0; i < 28; i++) reachable.push(await conversation());
    const hidden = await conversation(world, hiddenInboxId);
    const res = await bulk({ type: "Conversation", ids: [...reachable, hidden], fields: { status: "pending" } }, world.agent.key);
    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject({ type: "Conversation", ids: [], skipped: [], failures: [], queued: 29 });
    const statusOf = async (id: number) => (await show(id)).status;
    for (let i = 0; i < 200 && (await statusOf(reachable.at(-1)!)) !== "pending"; i++) await new Promise((r) => setTimeout(r, 50));
    for (const id of reachable) expect(await statusOf(id)).toBe("pending");
    expect(await statusOf(hidden)).toBe("open"); // the agent is not in that inbox
    // the targets are still checked before anything is queued
    const refused = await bulk({ type: "Conversation", ids: reachable, fields: { team_id: otherTeamId } });
    expect(refused.status).toBe(422);
  });
});

