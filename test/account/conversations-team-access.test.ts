/**
 * One access rule for conversations (Chatwoot's, for lists as for actions): an agent reaches the
 * conversations of the inboxes they are a member of OR of the teams they belong to. Here the agent is a
 * member of team "billing" and of inbox "Web", not of inbox "Phone".
 */
import { describe, expect, it } from "vitest";
import { del, get, post } from "../support/http";
import { createWorld } from "../support/world";
import { addInboxMember, createContact, createInbox, createTeam } from "../support/fixtures";

const world = await createWorld("Team Access Co");
const phone = await createInbox(world.accountId, { name: "Phone" });
const web = await createInbox(world.accountId, { name: "Web" });
await addInboxMember(world.accountId, web, world.agent.id);
const billing = await createTeam(world.accountId, "billing", [world.agent.id]);
const sales = await createTeam(world.accountId, "sales");
const contactId = await createContact(world.accountId);

const open = async (inboxId: number, teamId?: number) => {
  const res = await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inboxId, contact_id: contactId, ...(teamId && { team_id: teamId }) });
  expect(res.status).toBe(200);
  return res.body.id as number;
};

// created oldest first: lists show the newest activity first
const ofTeamOnly = await open(phone, billing); // reached through the team only
const ofOtherTeam = await open(phone, sales); // neither the inbox nor the team is the agent's
const ofNoTeam = await open(phone); // not the agent's inbox, no team
const ofBoth = await open(web, billing); // reached both ways, counted once
const ofInboxOnly = await open(web); // reached through the inbox only

const agent = world.agent.key;
const listed = async (query: string) => {
  const res = await get(`${world.base}/conversations?${query}`, agent);
  expect(res.status).toBe(200);
  return { ids: res.body.data.payload.map((c: { id: number }) => c.id), meta: res.body.data.meta };
};
const meta = async (query: string) => (await get(`${world.base}/conversations/meta?${query}`, agent)).body.meta;
const filtered = async (payload: object[]) => {
  const res = await post(`${world.base}/conversations/filter`, agent, { payload });
  expect(res.status).toBe(200);
  return { ids: res.body.payload.map((c: { id: number }) => c.id), meta: res.body.meta };
};
const statusIs = (values: string[]) => ({ attribute_key: "status", filter_operator: "equal_to", values, query_operator: null });

describe("an agent in a team but not in the team conversation's inbox", () => {
  it("sees the team's conversation in the list and counts it once", async () => {
    const all = await listed("status=all");
    expect(all.ids).toEqual([ofInboxOnly, ofBoth, ofTeamOnly]);
    expect(all.meta).toEqual({ mine_count: 0, assigned_count: 0, unassigned_count: 3, all_count: 3 });
    expect((await listed("status=open")).ids).toEqual([ofInboxOnly, ofBoth, ofTeamOnly]);
  });

  it("counts in /meta what the list shows, under every inbox and team filter", async () => {
    const cases: Array<[string, number[]]> = [
      ["", [ofInboxOnly, ofBoth, ofTeamOnly]],
      [`inbox_id=${phone}`, [ofTeamOnly]],
      [`inbox_id=${web}`, [ofInboxOnly, ofBoth]],
      [`team_id=${billing}`, [ofBoth, ofTeamOnly]],
      [`team_id=${sales}`, []],
      [`inbox_id=${phone}&team_id=${billing}`, [ofTeamOnly]],
      [`inbox_id=${phone}&team_id=${sales}`, []],
      [`inbox_id=${web}&team_id=${billing}`, [ofBoth]],
    ];
    for (const [query, expected] of cases) {
      const list = await listed(`status=open&${query}`);
      expect(list.ids, query).toEqual(expected);
      expect(list.meta.all_count, query).toBe(expected.length);
      expect(await meta(`status=open&${query}`), query).toEqual({ mine_count: 0, assigned_count: 0, unassigned_count: expected.length, all_count: expected.length });
    }
    // the administrator still counts every conversation of the inbox
    expect((await get(`${world.base}/conversations/meta?inbox_id=${phone}`, world.admin.key)).body.meta.all_count).toBe(3);
  });

  it("finds the team's conversation with /filter", async () => {
    const result = await filtered([statusIs(["open"])]);
    expect(result.ids).toEqual([ofInboxOnly, ofBoth, ofTeamOnly]);
    expect(result.meta).toEqual({ mine_count: 0, unassigned_count: 3, all_count: 3, has_more: false });
    const byInbox = await filtered([{ attribute_key: "inbox_id", filter_operator: "equal_to", values: [phone], query_operator: null }]);
    expect(byInbox.ids).toEqual([ofTeamOnly]);
  });

  it("shows, toggles and writes in the team's conversation", async () => {
    const conversation = `${world.base}/conversations/${ofTeamOnly}`;
    const shown = await get(conversation, agent);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: ofTeamOnly, inbox_id: phone, meta: { team: { id: billing } } });
    const message = await post(`${conversation}/messages`, agent, { content: "Billing here, looking into it" });
    expect(message.status).toBe(200);
    expect(message.body).toMatchObject({ content: "Billing here, looking into it", sender: { id: world.agent.id } });
    expect((await get(`${conversation}/messages`, agent)).body.payload.map((m: { id: number }) => m.id)).toContain(message.body.id);
    const toggled = await post(`${conversation}/toggle_status`, agent, { status: "resolved" });
    expect(toggled.status).toBe(200);
    expect(toggled.body.payload).toMatchObject({ success: true, current_status: "resolved" });
    // the counts follow the move
    expect(await meta("status=resolved")).toMatchObject({ all_count: 1 });
    expect(await meta("status=open")).toMatchObject({ all_count: 2 });
    expect((await listed("status=resolved")).ids).toEqual([ofTeamOnly]);
  });

  it("stays out of the conversations of that inbox that are not the team's", async () => {
    for (const id of [ofOtherTeam, ofNoTeam]) {
      const conversation = `${world.base}/conversations/${id}`;
      const shown = await get(conversation, agent);
      expect(shown.status).toBe(403);
      expect(shown.body.errors[0].code).toBe("conversation_not_accessible");
      expect((await post(`${conversation}/toggle_status`, agent, { status: "resolved" })).status).toBe(403);
      expect((await post(`${conversation}/messages`, agent, { content: "not mine" })).status).toBe(403);
      expect((await get(`${conversation}/messages`, agent)).status).toBe(403);
    }
    const everything = [...(await listed("status=all")).ids, ...(await filtered([statusIs(["open", "resolved"])])).ids];
    expect(everything).not.toContain(ofOtherTeam);
    expect(everything).not.toContain(ofNoTeam);
    // nothing changed in them
    for (const id of [ofOtherTeam, ofNoTeam]) {
      const shown = await get(`${world.base}/conversations/${id}`, world.admin.key);
      expect(shown.body).toMatchObject({ status: "open", messages: [] });
    }
  });

  it("loses the team's conversation with the team membership", async () => {
    expect((await del(`${world.base}/teams/${billing}/team_members`, world.admin.key, { user_ids: [world.agent.id] })).status).toBe(200);
    expect((await get(`${world.base}/conversations/${ofTeamOnly}`, agent)).status).toBe(403);
    const all = await listed("status=all");
    expect(all.ids).toEqual([ofInboxOnly, ofBoth]);
    expect(all.meta.all_count).toBe(2);
    expect(await meta(`inbox_id=${phone}&status=all`)).toMatchObject({ all_count: 0 });
  });
});
