/**
 * Reports v2 against a known history: conversations and messages created through the API at set times
 * (the Worker's clock is faked), then every figure checked by hand. Also: validation, roles, tenancy of
 * `id`, the CSV downloads, and that a report's rows read do not grow with the account.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { type Reply, get, post } from "../support/http";
import { createWorld } from "../support/world";
import { addInboxMember, createContact, createInbox, createTeam } from "../support/fixtures";

const at = (iso: string) => vi.setSystemTime(new Date(iso));
const unix = (iso: string) => Date.parse(iso) / 1000;
vi.useFakeTimers({ toFake: ["Date"] });
afterAll(() => vi.useRealTimers());

at("2025-03-03T08:00:00Z");
const world = await createWorld("Reports Co");
const other = await createWorld("Other Reports Co");
const otherInbox = await createInbox(other.accountId, { name: "Theirs" });
const inboxA = await createInbox(world.accountId, { name: "Alpha" });
const inboxB = await createInbox(world.accountId, { name: "Beta" });
await addInboxMember(world.accountId, inboxA, world.agent.id);
const team = await createTeam(world.accountId, "tier2");
const contact = await createContact(world.accountId);
const vip = (await post(`${world.base}/labels`, world.admin.key, { title: "vip" })).body.id as number;
const v2 = `/api/v2/accounts/${world.accountId}`;

async function ok(reply: Promise<Reply>) {
  const r = await reply;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r;
}
const create = async (inbox: number, extra: object = {}) =>
  (await ok(post(`${world.base}/conversations`, world.admin.key, { inbox_id: inbox, contact_id: contact, ...extra }))).body.id as number;
const message = (id: number, key: string, body: object) => ok(post(`${world.base}/conversations/${id}/messages`, key, body));

// The history (UTC):
// 03-03 09:00 c1 in Alpha, assigned to the agent; c2 in Beta, team tier2
at("2025-03-03T09:00:00Z");
const c1 = await create(inboxA, { assignee_id: world.agent.id });
const c2 = await create(inboxB, { team_id: team });
// 09:10 the contact writes in c1; 09:30 the agent answers (first response: 30 minutes after creation)
at("2025-03-03T09:10:00Z");
await message(c1, world.admin.key, { content: "hello?", message_type: "incoming" });
at("2025-03-03T09:30:00Z");
await message(c1, world.agent.key, { content: "Hi!" });
// 10:00 the contact writes again; 10:20 the agent answers (reply time: 20 minutes); a private note counts nowhere
at("2025-03-03T10:00:00Z");
await message(c1, world.admin.key, { content: "and?", message_type: "incoming" });
at("2025-03-03T10:20:00Z");
await message(c1, world.agent.key, { content: "Done." });
await message(c2, world.admin.key, { content: "note to self", private: true });
// 11:00 an administrator resolves c1 (2 hours after creation), credited to its assignee, the agent
at("2025-03-03T11:00:00Z");
await ok(post(`${world.base}/conversations/${c1}/toggle_status`, world.admin.key, { status: "resolved" }));
// 03-04 02:00 c3 in Alpha; labelled vip at 02:30 and assigned to the agent at 03:00: its count moves with both
at("2025-03-04T02:00:00Z");
const c3 = await create(inboxA);
at("2025-03-04T02:30:00Z");
await ok(post(`${world.base}/conversations/${c3}/labels`, world.admin.key, { labels: ["vip"] }));
at("2025-03-04T03:00:00Z");
await ok(post(`${world.base}/conversations/${c3}/assignments`, world.admin.key, { assignee_id: world.agent.id }));
at("2025-03-06T12:00:00Z");

const since = unix("2025-03-03T00:00:00Z");
const until = unix("2025-03-05T00:00:00Z");
const window = `since=${since}&until=${until}`;
const series = async (query: string) => (await ok(get(`${v2}/reports?${window}&${query}`, world.admin.key))).body;

describe("reports v2 over a known history", () => {
  it("sums the account's window and the one before it", async () => {
    const res = await ok(get(`${v2}/reports/summary?${window}`, world.admin.key));
    expect(res.body).toEqual({
      conversations_count: 3,
      incoming_messages_count: 2,
      outgoing_messages_count: 2,
      avg_first_response_time: 1800,
      avg_resolution_time: 7200,
      resolutions_count: 1,
      reply_time: 1200,
      previous: {
        conversations_count: 0,
        incoming_messages_count: 0,
        outgoing_messages_count: 0,
        avg_first_response_time: 0,
        avg_resolution_time: 0,
        resolutions_count: 0,
        reply_time: 0,
      },
    });
    const inboxB_ = await ok(get(`${v2}/reports/summary?${window}&type=inbox&id=${inboxB}`, world.admin.key));
    expect(inboxB_.body).toMatchObject({ conversations_count: 1, outgoing_messages_count: 0, resolutions_count: 0 });
    const agent = await ok(get(`${v2}/reports/summary?${window}&type=agent&id=${world.agent.id}`, world.admin.key));
    // incoming messages count for the conversation's assignee, outgoing ones for their sender
    expect(agent.body).toMatchObject({ conversations_count: 2, incoming_messages_count: 2, outgoing_messages_count: 2, resolutions_count: 1, avg_resolution_time: 7200 });
    const admin = await ok(get(`${v2}/reports/summary?${window}&type=agent&id=${world.admin.id}`, world.admin.key));
    // the administrator resolved c1, but the resolution is the assignee's
    expect(admin.body).toMatchObject({ conversations_count: 0, resolutions_count: 0 });
  });

  it("groups a metric by day, hour, week, month and year, in a time zone of whole hours", async () => {
    expect(await series("metric=conversations_count")).toEqual([
      { value: 2, timestamp: unix("2025-03-03T00:00:00Z") },
      { value: 1, timestamp: unix("2025-03-04T00:00:00Z") },
    ]);
    // UTC-5: c3 (03-04 02:00 UTC) opened on the evening of 03-03
    expect(await series("metric=conversations_count&timezone_offset=-5")).toEqual([
      { value: 0, timestamp: unix("2025-03-02T05:00:00Z") },
      { value: 3, timestamp: unix("2025-03-03T05:00:00Z") },
      { value: 0, timestamp: unix("2025-03-04T05:00:00Z") },
    ]);
    const hourly = await series("metric=incoming_messages_count&group_by=hour");
    expect(hourly).toHaveLength(48);
    expect(hourly.filter((p: { value: number }) => p.value > 0)).toEqual([
      { value: 1, timestamp: unix("2025-03-03T09:00:00Z") },
      { value: 1, timestamp: unix("2025-03-03T10:00:00Z") },
    ]);
    // weeks start on Sunday: 2025-03-02
    expect(await series("metric=conversations_count&group_by=week")).toEqual([{ value: 3, timestamp: unix("2025-03-02T00:00:00Z") }]);
    expect(await series("metric=resolutions_count&group_by=month")).toEqual([{ value: 1, timestamp: unix("2025-03-01T00:00:00Z") }]);
    expect(await series("metric=outgoing_messages_count&group_by=year&timezone_offset=9")).toEqual([{ value: 2, timestamp: unix("2024-12-31T15:00:00Z") }]);
  });

  it("gives averages with their counts, per agent, label, inbox and team", async () => {
    expect(await series(`metric=avg_first_response_time&type=agent&id=${world.agent.id}`)).toEqual([
      { value: 1800, timestamp: unix("2025-03-03T00:00:00Z"), count: 1 },
      { value: 0, timestamp: unix("2025-03-04T00:00:00Z"), count: 0 },
    ]);
    expect(await series(`metric=reply_time&group_by=month`)).toEqual([{ value: 1200, timestamp: unix("2025-03-01T00:00:00Z"), count: 1 }]);
    // c3 counts for the label and the agent in the hour it was opened, though both came later
    expect(await series(`metric=conversations_count&type=label&id=${vip}&group_by=hour`).then((p) => p.filter((x: { value: number }) => x.value))).toEqual([
      { value: 1, timestamp: unix("2025-03-04T02:00:00Z") },
    ]);
    expect(await series(`metric=conversations_count&type=agent&id=${world.agent.id}&group_by=week`)).toEqual([{ value: 2, timestamp: unix("2025-03-02T00:00:00Z") }]);
    expect(await series(`metric=conversations_count&type=team&id=${team}&group_by=month`)).toEqual([{ value: 1, timestamp: unix("2025-03-01T00:00:00Z") }]);
    expect(await series(`metric=conversations_count&type=inbox&id=${inboxA}&group_by=month`)).toEqual([{ value: 2, timestamp: unix("2025-03-01T00:00:00Z") }]);
  });

  it("answers summary_reports per agent, inbox, team and label", async () => {
    const agents = (await ok(get(`${v2}/summary_reports/agent?${window}`, world.admin.key))).body;
    expect(agents).toContainEqual({
      id: world.agent.id,
      conversations_count: 2,
      resolved_conversations_count: 1,
      avg_resolution_time: 7200,
      avg_first_response_time: 1800,
      avg_reply_time: 1200,
    });
    expect(agents).toContainEqual({
      id: world.admin.id,
      conversations_count: 0,
      resolved_conversations_count: 0,
      avg_resolution_time: null,
      avg_first_response_time: null,
      avg_reply_time: null,
    });
    const inboxes = (await ok(get(`${v2}/summary_reports/inbox?${window}`, world.admin.key))).body;
    expect(inboxes.map((r: { id: number; conversations_count: number }) => [r.id, r.conversations_count])).toEqual([
      [inboxA, 2],
      [inboxB, 1],
    ]);
    expect((await ok(get(`${v2}/summary_reports/team?${window}`, world.admin.key))).body).toEqual([
      { id: team, conversations_count: 1, resolved_conversations_count: 0, avg_resolution_time: null, avg_first_response_time: null, avg_reply_time: null },
    ]);
    expect((await ok(get(`${v2}/summary_reports/label?${window}`, world.admin.key))).body).toMatchObject([{ id: vip, conversations_count: 1 }]);
  });

  it("answers the live conversation counts from counters", async () => {
    // open now: c2 (nobody replied, unassigned) and c3 (nobody replied, the agent's)
    expect((await ok(get(`${v2}/reports/conversations?type=account`, world.admin.key))).body).toEqual({ open: 2, unattended: 2, unassigned: 1 });
    const agents = (await ok(get(`${v2}/reports/conversations?type=agent`, world.admin.key))).body;
    expect(agents[0]).toMatchObject({ id: world.agent.id, metric: { open: 1, unattended: 1 } });
    expect(agents.find((a: { id: number }) => a.id === world.admin.id).metric).toEqual({ open: 0, unattended: 0 });
    const one = (await ok(get(`${v2}/reports/conversations?type=agent&user_id=${world.admin.id}`, world.admin.key))).body;
    expect(one).toHaveLength(1);
    expect((await get(`${v2}/reports/conversations?type=agent&user_id=${other.admin.id}`, world.admin.key)).status).toBe(404);
    // the agent replies to c3: no longer unattended
    await message(c3, world.agent.key, { content: "On it" });
    expect((await ok(get(`${v2}/reports/conversations?type=account`, world.admin.key))).body).toEqual({ open: 2, unattended: 1, unassigned: 1 });
  });

  it("downloads CSVs with Chatwoot's headers", async () => {
    const agents = await ok(get(`${v2}/reports/agents?${window}`, world.admin.key));
    expect(agents.headers.get("content-type")).toContain("text/csv");
    const lines = String(agents.body).trim().split("\n");
    expect(lines[0]).toBe("Agent name,Assigned conversations,Avg first response time,Avg resolution time,Resolution Count,Avg customer waiting time");
    expect(lines).toContain("Reports Co Agent,2,30 minutes,2 hours,1,20 minutes");
    expect(lines).toContain("Reports Co Admin,0,--,--,0,--");
    expect(lines.at(-1)).toBe("Reporting period 2025-03-03 to 2025-03-05");

    const inboxes = String((await ok(get(`${v2}/reports/inboxes?${window}`, world.admin.key))).body).trim().split("\n");
    expect(inboxes[0]).toBe("Inbox name,Inbox type,No. of conversations,Avg first response time,Avg resolution time,Resolution Count,Avg customer waiting time");
    expect(inboxes[1]).toBe("Alpha,Channel::Api,2,30 minutes,2 hours,1,20 minutes");
    expect(String((await ok(get(`${v2}/reports/labels?${window}`, world.admin.key))).body).split("\n")[1]).toBe("vip,1,--,--,0,--");
    expect(String((await ok(get(`${v2}/reports/teams?${window}`, world.admin.key))).body).split("\n")[1]).toBe("tier2,1,--,--,0,--");

    const summary = String((await ok(get(`${v2}/reports/conversations_summary?${window}`, world.admin.key))).body).trim().split("\n");
    expect(summary.slice(0, 8)).toEqual([
      "Metric,Value",
      "Conversations,3",
      "Incoming messages,2",
      "Outgoing messages,2",
      "Avg first response time,30 minutes",
      "Avg resolution time,2 hours",
      "Resolution count,1",
      "Avg reply time,20 minutes",
    ]);

    const traffic = String((await ok(get(`${v2}/reports/conversation_traffic?${window}`, world.admin.key))).body).trim().split("\n");
    expect(traffic[0].split(",")).toHaveLength(25);
    expect(traffic[0].startsWith("Start of the day,00:00 - 01:00,01:00 - 02:00")).toBe(true);
    const day1 = traffic[1].split(",");
    expect(day1[0]).toBe("2025-03-03");
    expect(day1[1 + 9]).toBe("2");
    expect(day1.slice(1).reduce((s, v) => s + Number(v), 0)).toBe(2);
    expect(traffic[2].split(",")[1 + 2]).toBe("1");
    expect(traffic.at(-1)).toBe("Timezone: UTC+00:00");
  });

  it("writes a name that starts like a formula as text", async () => {
    const team2 = await createTeam(world.accountId, "=hyperlink(1)");
    const lines = String((await ok(get(`${v2}/reports/teams?${window}`, world.admin.key))).body).split("\n");
    expect(lines.find((l) => l.includes("hyperlink"))).toBe("'=hyperlink(1),0,--,--,0,--");
    expect(team2).toBeGreaterThan(0);
  });
});

describe("reports v2 refuses", () => {
  const errors = async (query: string) => {
    const res = await get(`${v2}/reports?${query}`, world.admin.key);
    expect(res.status).toBe(422);
    return res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]);
  };

  it("bad metrics, types, groupings, dates and offsets, with their field paths", async () => {
    expect(await errors("metric=happiness")).toEqual([["metric", "invalid_value"]]);
    expect(await errors("")).toEqual([["metric", "required"]]);
    expect(await errors("metric=conversations_count&type=galaxy")).toEqual([["type", "invalid_value"]]);
    expect(await errors("metric=conversations_count&type=agent")).toEqual([["id", "required"]]);
    expect(await errors("metric=conversations_count&group_by=fortnight")).toEqual([["group_by", "invalid_value"]]);
    expect((await errors("metric=conversations_count&since=yesterday"))[0][0]).toBe("since");
    expect(await errors(`metric=conversations_count&since=${until}&until=${since}`)).toEqual([["until", "invalid_range"]]);
    expect(await errors(`metric=conversations_count&group_by=hour&since=${since}&until=${since + 40 * 86_400}`)).toEqual([["until", "range_too_long"]]);
    expect(await errors("metric=conversations_count&timezone_offset=5.5")).toEqual([["timezone_offset", "not_whole_hours"]]);
    expect(await errors("metric=conversations_count&timezone_offset=15")).toEqual([["timezone_offset", "out_of_range"]]);
    expect(await errors("metric=conversations_count&business_hours=true")).toEqual([["business_hours", "unsupported"]]);
    const live = await get(`${v2}/reports/conversations`, world.admin.key);
    expect(live.status).toBe(422);
    expect(live.body.errors[0].field).toBe("type");
    const summary = await get(`${v2}/summary_reports/agent?since=${until}&until=${since}`, world.admin.key);
    expect(summary.status).toBe(422);
  });

  it("agents (403), and ids of another account (404)", async () => {
    for (const path of ["reports?metric=conversations_count", "reports/summary", "reports/conversations?type=account", "summary_reports/agent", "reports/agents"]) {
      expect((await get(`${v2}/${path}`, world.agent.key)).status).toBe(403);
    }
    const theirs = await get(`${v2}/reports?metric=conversations_count&type=inbox&id=${otherInbox}`, world.admin.key);
    expect(theirs.status).toBe(404);
    expect(theirs.body.errors[0]).toMatchObject({ field: "id", code: "not_found" });
    expect((await get(`${v2}/reports/summary?type=agent&id=${other.agent.id}`, world.admin.key)).status).toBe(404);
    expect((await get(`${v2}/reports/summary?type=label&id=999999`, world.admin.key)).status).toBe(404);
  });
});

describe("report cost", () => {
  const rowsRead = (reply: Reply) => Number(/db-rows-read;desc="(\d+)"/.exec(reply.headers.get("server-timing") ?? "")?.[1]);

  it("reads the same rows however many conversations the account has outside the window", async () => {
    const paths = [
      `${v2}/reports/summary?${window}`,
      `${v2}/reports?${window}&metric=conversations_count&group_by=hour`,
      `${v2}/summary_reports/inbox?${window}`,
      `${v2}/reports/conversations?type=account`,
    ];
    const before = await Promise.all(paths.map(async (p) => rowsRead(await ok(get(p, world.admin.key)))));
    // a busy later week: 30 conversations, each with a message, in other hours
    for (let i = 0; i < 30; i++) {
      at(`2025-03-10T${String(i % 24).padStart(2, "0")}:00:00Z`);
      const id = await create(i % 2 ? inboxA : inboxB);
      await message(id, world.admin.key, { content: `hello ${i}`, message_type: "incoming" });
    }
    at("2025-03-12T00:00:00Z");
    const after = await Promise.all(paths.map(async (p) => rowsRead(await ok(get(p, world.admin.key)))));
    expect(after).toEqual(before);
    expect(before.every((n) => n > 0 && n < 200)).toBe(true);
  });
});
