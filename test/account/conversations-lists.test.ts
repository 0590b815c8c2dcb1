import { describe, expect, it } from "vitest";
import { get, post } from "../support/http";
import { createWorld } from "../support/world";
import { addInboxMember, createContact, createInbox, createTeam } from "../support/fixtures";

const world = await createWorld("Lists Co");
const inboxA = await createInbox(world.accountId, { name: "A" });
const inboxB = await createInbox(world.accountId, { name: "B" });
await addInboxMember(world.accountId, inboxA, world.agent.id);
const teamId = await createTeam(world.accountId, "tier2");
const contactId = await createContact(world.accountId);
const create = async (inbox: number, extra: object = {}) =>
  (await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inbox, contact_id: contactId, ...extra })).body.id as number;

const a1 = await create(inboxA, { assignee_id: world.agent.id });
const a2 = await create(inboxA, { team_id: teamId });
const a3 = await create(inboxA);
const b1 = await create(inboxB, { assignee_id: world.admin.id, team_id: teamId });
await post(`${world.base}/conversations/${a3}/toggle_status`, world.admin.key, { status: "resolved" });
await post(`${world.base}/conversations/${a2}/labels`, world.admin.key, { labels: ["refund"] });
await post(`${world.base}/conversations/${b1}/messages`, world.admin.key, { content: "Your parcel number is XK-9912" });

const meta = async (query: string, key = world.admin.key) => (await get(`${world.base}/conversations/meta?${query}`, key)).body.meta;
const ids = async (query: string, key = world.admin.key) => (await get(`${world.base}/conversations?${query}`, key)).body.data.payload.map((c: { id: number }) => c.id);

describe("conversation lists and counts", () => {
  it("counts per status and assignee from counters, and follows each move", async () => {
    expect(await meta("")).toEqual({ mine_count: 1, assigned_count: 2, unassigned_count: 1, all_count: 3 });
    expect(await meta("status=resolved")).toEqual({ mine_count: 0, assigned_count: 0, unassigned_count: 1, all_count: 1 });
    expect(await meta("status=all")).toMatchObject({ all_count: 4 });
    expect(await meta(`inbox_id=${inboxB}`)).toEqual({ mine_count: 1, assigned_count: 1, unassigned_count: 0, all_count: 1 });
    expect(await meta(`team_id=${teamId}`)).toMatchObject({ all_count: 2, unassigned_count: 1 });
    // the agent counts only their inbox
    expect(await meta("", world.agent.key)).toEqual({ mine_count: 1, assigned_count: 1, unassigned_count: 1, all_count: 2 });
    expect(await meta(`team_id=${teamId}`, world.agent.key)).toMatchObject({ all_count: 1 });
  });

  it("lists by assignee type, inbox, team, label and search, newest activity first", async () => {
    expect(await ids("")).toEqual([b1, a2, a1]);
    expect(await ids("assignee_type=me", world.agent.key)).toEqual([a1]);
    expect(await ids("assignee_type=unassigned")).toEqual([a2]);
    expect(await ids("assignee_type=assigned")).toEqual([b1, a1]);
    expect(await ids(`inbox_id=${inboxA}`)).toEqual([a2, a1]);
    expect(await ids(`team_id=${teamId}`)).toEqual([b1, a2]);
    expect(await ids("labels[]=refund")).toEqual([a2]);
    expect(await ids("q=xk-9912")).toEqual([b1]);
    const res = await get(`${world.base}/conversations?labels[]=refund`, world.admin.key);
    expect(res.body.data.meta).toEqual({ mine_count: 0, assigned_count: 0, unassigned_count: 1, all_count: 1 });
  });

  it("moves counts when a conversation changes", async () => {
    await post(`${world.base}/conversations/${a2}/assignments`, world.admin.key, { assignee_id: world.agent.id });
    expect(await meta("", world.agent.key)).toEqual({ mine_count: 2, assigned_count: 2, unassigned_count: 0, all_count: 2 });
    await post(`${world.base}/conversations/${a2}/toggle_status`, world.admin.key, { status: "pending" });
    expect(await meta("", world.agent.key)).toMatchObject({ all_count: 1, mine_count: 1 });
    expect(await meta("status=pending", world.agent.key)).toMatchObject({ all_count: 1, mine_count: 1 });
  });

  it("filters with allow-listed keys and operators", async () => {
    const res = await post(`${world.base}/conversations/filter`, world.admin.key, {
      payload: [
        { attribute_key: "status", filter_operator: "equal_to", values: ["open", "pending"], query_operator: "AND" },
        { attribute_key: "inbox_id", filter_operator: "equal_to", values: [inboxB] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ mine_count: 1, unassigned_count: 0, all_count: 1, has_more: false });
    expect(res.body.payload.map((c: { id: number }) => c.id)).toEqual([b1]);
    const bad = await post(`${world.base}/conversations/filter`, world.admin.key, {
      payload: [
        { attribute_key: "secret_column", filter_operator: "equal_to", values: ["x"], query_operator: "AND" },
        { attribute_key: "status", filter_operator: "contains", values: ["o"], query_operator: "XOR" },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { code: string }) => e.code)).toEqual(["invalid_attribute_key", "invalid_operator"]);
  });
});

describe("the summary report", () => {
  it("counts opened and resolved conversations and their times, for administrators only", async () => {
    const since = Math.floor(Date.now() / 1000) - 3600;
    const until = Math.floor(Date.now() / 1000) + 60;
    const res = await get(`/api/v2/accounts/${world.accountId}/reports/summary?since=${since}&until=${until}`, world.admin.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ conversations_count: 4, resolutions_count: 1, outgoing_messages_count: 1, incoming_messages_count: 0, previous: { conversations_count: 0 } });
    expect(res.body.avg_first_response_time).toBeGreaterThanOrEqual(0);
    expect((await get(`/api/v2/accounts/${world.accountId}/reports/summary`, world.agent.key)).status).toBe(403);
    expect((await get(`/api/v2/accounts/${world.accountId}/reports/summary?since=abc`, world.admin.key)).status).toBe(422);
  });
});
