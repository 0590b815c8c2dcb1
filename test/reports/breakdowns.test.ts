/**
 * The breakdown reports (summary_reports/channel, reports/bot_summary, bot_metrics, inbox_label_matrix,
 * first_response_time_distribution, outgoing_messages_count) against a known history made through the
 * API at set times (the Worker's clock is faked); then refusals, roles, tenancy, and rows read that do
 * not grow with the account.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { type Reply, call, del, get, post } from "../support/http";
import { createWorld } from "../support/world";
import { addInboxMember, connectAgentBot, createContact, createInbox } from "../support/fixtures";

const at = (iso: string) => vi.setSystemTime(new Date(iso));
const unix = (iso: string) => Date.parse(iso) / 1000;
vi.useFakeTimers({ toFake: ["Date"] });
afterAll(() => vi.useRealTimers());

at("2025-05-05T08:00:00Z");
const world = await createWorld("Breakdown Co");
const other = await createWorld("Other Breakdown Co");
const otherInbox = await createInbox(other.accountId, { name: "Theirs" });
const alpha = await createInbox(world.accountId, { name: "Alpha" });
const beta = await createInbox(world.accountId, { name: "Beta", channel: "Channel::WebWidget" });
const bots = await createInbox(world.accountId, { name: "Bots" });
for (const inbox of [alpha, beta, bots]) await addInboxMember(world.accountId, inbox, world.agent.id);
const contact = await createContact(world.accountId);
const label = async (title: string) => (await post(`${world.base}/labels`, world.admin.key, { title })).body.id as number;
const vip = await label("vip");
const billing = await label("billing");
const bot = (await post(`${world.base}/agent_bots`, world.admin.key, { name: "Triage bot" })).body as { id: number; access_token: string };
await connectAgentBot(world.accountId, bots, bot.id);
const v2 = `/api/v2/accounts/${world.accountId}`;

async function ok(reply: Promise<Reply>) {
  const r = await reply;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r;
}
const create = async (inbox: number) => (await ok(post(`${world.base}/conversations`, world.admin.key, { inbox_id: inbox, contact_id: contact }))).body.id as number;
const write = (id: number, key: string, body: object) => ok(post(`${world.base}/conversations/${id}/messages`, key, body));
const labels = (id: number, list: string[]) => ok(post(`${world.base}/conversations/${id}/labels`, world.admin.key, { labels: list }));
const status = (id: number, key: string, body: object) => ok(post(`${world.base}/conversations/${id}/toggle_status`, key, body));

// The history (UTC), all on 2025-05-05:
// 09:00 c1 in Alpha (API), labelled vip; the agent answers at 09:30 (first response 30 minutes); stays open
at("2025-05-05T09:00:00Z");
const c1 = await create(alpha);
await labels(c1, ["vip"]);
at("2025-05-05T09:30:00Z");
await write(c1, world.agent.key, { content: "Hi" });
// 09:00 c2 in Beta (website), labelled vip and billing; the administrator answers at 14:00 (5 hours) and resolves it
at("2025-05-05T09:00:00Z");
const c2 = await create(beta);
await labels(c2, ["vip", "billing"]);
at("2025-05-05T14:00:00Z");
await write(c2, world.admin.key, { content: "Sorry for the wait" });
at("2025-05-05T15:00:00Z");
await status(c2, world.admin.key, { status: "resolved" });
// 10:00 c3 and c4 in the bot's inbox: the bot answers c3 and resolves it, and hands c4 over to people
at("2025-05-05T10:00:00Z");
const c3 = await create(bots);
const c4 = await create(bots);
await status(c3, world.admin.key, { status: "pending" });
await status(c4, world.admin.key, { status: "pending" });
at("2025-05-05T10:05:00Z");
await write(c3, bot.access_token, { content: "Here is the answer" });
await status(c3, bot.access_token, { status: "resolved" });
await status(c4, bot.access_token, { status: "open" });
// 11:00 c5 in Alpha, snoozed
at("2025-05-05T11:00:00Z");
const c5 = await create(alpha);
await status(c5, world.admin.key, { status: "snoozed" });
at("2025-05-07T00:00:00Z");

const since = unix("2025-05-05T00:00:00Z");
const until = unix("2025-05-06T00:00:00Z");
const window = `since=${since}&until=${until}`;
const report = async (path: string, query = "") => (await ok(get(`${v2}/${path}?${window}${query}`, world.admin.key))).body;

describe("breakdown reports over a known history", () => {
  it("summary_reports/channel: conversations created in the window per channel type, by status now", async () => {
    expect(await report("summary_reports/channel")).toEqual({
      "Channel::Api": { open: 2, resolved: 1, pending: 0, snoozed: 1, total: 4 },
      "Channel::WebWidget": { open: 0, resolved: 1, pending: 0, snoozed: 0, total: 1 },
    });
    // the snoozed conversation reopens: it moves within its channel, the total stays
    await status(c5, world.admin.key, { status: "open" });
    expect((await report("summary_reports/channel"))["Channel::Api"]).toEqual({ open: 3, resolved: 1, pending: 0, snoozed: 0, total: 4 });
    await status(c5, world.admin.key, { status: "snoozed" });
    // a window before the history has no channel at all
    expect((await ok(get(`${v2}/summary_reports/channel?since=${since - 86_400}&until=${since}`, world.admin.key))).body).toEqual({});
  });

  it("reports/bot_summary: bot resolutions and handoffs of the window and the one before it", async () => {
    expect(await report("reports/bot_summary")).toEqual({ bot_resolutions_count: 1, bot_handoffs_count: 1, previous: { bot_resolutions_count: 0, bot_handoffs_count: 0 } });
    expect(await report("reports/bot_summary", `&type=inbox&id=${alpha}`)).toEqual({ bot_resolutions_count: 0, bot_handoffs_count: 0, previous: { bot_resolutions_count: 0, bot_handoffs_count: 0 } });
    expect(await report("reports/bot_summary", `&type=inbox&id=${bots}`)).toMatchObject({ bot_resolutions_count: 1, bot_handoffs_count: 1 });
  });

  it("reports/bot_metrics: the conversations and replies of the bot's inboxes, and its rates", async () => {
    expect(await report("reports/bot_metrics")).toEqual({ conversation_count: 2, message_count: 1, resolution_rate: 50, handoff_rate: 50 });
  });

  it("reports/first_response_time_distribution: first responses per channel type by how long they took", async () => {
    const distribution = await report("reports/first_response_time_distribution");
    expect(distribution["Channel::WebWidget"]).toEqual({ "0-1h": 0, "1-4h": 0, "4-8h": 1, "8-24h": 0, "24h+": 0 });
    // c1's 30 minutes; the bot's answer to c3 is no first response (a person's reply is)
    expect(distribution["Channel::Api"]).toEqual({ "0-1h": 1, "1-4h": 0, "4-8h": 0, "8-24h": 0, "24h+": 0 });
    expect(Object.keys(distribution).sort()).toEqual(["Channel::Api", "Channel::WebWidget"]);
  });

  it("reports/inbox_label_matrix: conversations per inbox and current label, inboxes by name and labels by title", async () => {
    expect(await report("reports/inbox_label_matrix")).toEqual({
      inboxes: [
        { id: alpha, name: "Alpha" },
        { id: beta, name: "Beta" },
        { id: bots, name: "Bots" },
      ],
      labels: [
        { id: billing, title: "billing" },
        { id: vip, title: "vip" },
      ],
      matrix: [
        [0, 1],
        [1, 1],
        [0, 0],
      ],
    });
    const some = await report("reports/inbox_label_matrix", `&inbox_ids[]=${beta}&inbox_ids[]=${otherInbox}&label_ids[]=${vip}`);
    expect(some).toEqual({ inboxes: [{ id: beta, name: "Beta" }], labels: [{ id: vip, title: "vip" }], matrix: [[1]] });
    // the longest lists the parameters take (100 ids each) fit one statement
    const many = (name: string, first: number) => Array.from({ length: 100 }, (_, i) => `&${name}[]=${i === 0 ? first : 100_000 + i}`).join("");
    const longest = await report("reports/inbox_label_matrix", `${many("inbox_ids", beta)}${many("label_ids", vip)}`);
    expect(longest).toEqual(some);
    // the label leaves c1: its count leaves the matrix, in the hour c1 was created
    await labels(c1, []);
    expect((await report("reports/inbox_label_matrix")).matrix[0]).toEqual([0, 0]);
    await labels(c1, ["vip"]);
    expect((await report("reports/inbox_label_matrix")).matrix[0]).toEqual([0, 1]);
  });

  it("reports/outgoing_messages_count: public replies per agent (their sender), inbox, label and team", async () => {
    expect(await report("reports/outgoing_messages_count", "&group_by=agent")).toEqual(
      [
        { id: world.admin.id, name: "Breakdown Co Admin", outgoing_messages_count: 1 },
        { id: world.agent.id, name: "Breakdown Co Agent", outgoing_messages_count: 1 },
      ].sort((a, b) => a.id - b.id),
    );
    expect(await report("reports/outgoing_messages_count", "&group_by=inbox")).toEqual([
      { id: alpha, name: "Alpha", outgoing_messages_count: 1 },
      { id: beta, name: "Beta", outgoing_messages_count: 1 },
      { id: bots, name: "Bots", outgoing_messages_count: 1 },
    ]);
    expect(await report("reports/outgoing_messages_count", "&group_by=label")).toEqual([
      { id: vip, name: "vip", outgoing_messages_count: 2 },
      { id: billing, name: "billing", outgoing_messages_count: 1 },
    ]);
    expect(await report("reports/outgoing_messages_count", "&group_by=team")).toEqual([]);
  });

  // last: it changes the history the tests above read
  it("a deleted conversation leaves the reports that count conversations as they are now, and stays in the others", async () => {
    expect((await del(`${world.base}/conversations/${c1}`, world.admin.key)).status).toBe(200);
    expect((await report("summary_reports/channel"))["Channel::Api"]).toEqual({ open: 1, resolved: 1, pending: 0, snoozed: 1, total: 3 });
    expect((await report("reports/inbox_label_matrix")).matrix[0]).toEqual([0, 0]);
    // its first response was given: the distribution keeps it
    expect((await report("reports/first_response_time_distribution"))["Channel::Api"]["0-1h"]).toBe(1);
  });
});

const NEW_REPORTS = [
  "summary_reports/channel",
  "reports/bot_summary",
  "reports/bot_metrics",
  "reports/inbox_label_matrix",
  "reports/first_response_time_distribution",
  "reports/outgoing_messages_count?group_by=inbox",
];
const withQuery = (path: string, query: string) => `${v2}/${path}${path.includes("?") ? "&" : "?"}${query}`;

describe("breakdown reports refuse", () => {
  const errors = async (path: string, query: string) => {
    const res = await get(withQuery(path, query), world.admin.key);
    expect(res.status).toBe(422);
    expect(res.body.description).toEqual(expect.any(String));
    return res.body.errors.map((e: { field: string; code: string }) => [e.field, e.code]);
  };

  it("bad parameters with the error body", async () => {
    for (const path of NEW_REPORTS) {
      expect(await errors(path, `since=${until}&until=${since}`)).toEqual([["until", "invalid_range"]]);
      expect((await errors(path, "since=yesterday"))[0][0]).toBe("since");
      expect(await errors(path, "business_hours=true")).toEqual([["business_hours", "unsupported"]]);
    }
    expect(await errors("reports/outgoing_messages_count", "")).toEqual([["group_by", "required"]]);
    expect(await errors("reports/outgoing_messages_count", "group_by=planet")).toEqual([["group_by", "invalid_value"]]);
    // Chatwoot's channel summary reads at most six months
    expect(await errors("summary_reports/channel", `since=${since}&until=${since + 200 * 86_400}`)).toEqual([["until", "range_too_long"]]);
    expect((await errors("reports/inbox_label_matrix", "inbox_ids[]=abc"))[0][0]).toMatch(/^inbox_ids/);
    expect(await errors("reports/bot_summary", "type=agent")).toEqual([["id", "required"]]);
    expect(await errors("reports/bot_summary", "type=galaxy")).toEqual([["type", "invalid_value"]]);
  });

  it("agents (403), other accounts' administrators (403), a missing key (401) and another account's ids (404)", async () => {
    for (const path of NEW_REPORTS) {
      expect((await get(`${v2}/${path}`, world.agent.key)).status).toBe(403);
      expect((await get(`${v2}/${path}`, other.admin.key)).status).toBe(403);
      const missing = await get(`${v2}/${path}`, null);
      expect(missing.status).toBe(401);
      expect(missing.body.errors[0].code).toBe("missing_key");
    }
    const theirs = await get(`${v2}/reports/bot_summary?type=inbox&id=${otherInbox}`, world.admin.key);
    expect(theirs.status).toBe(404);
    expect(theirs.body.errors[0]).toMatchObject({ field: "id", code: "not_found" });
    // their administrator's own account shows nothing of ours
    expect((await ok(get(`/api/v2/accounts/${other.accountId}/summary_reports/channel`, other.admin.key))).body).toEqual({});
  });

  it("a write method is no report route", async () => {
    expect((await call("POST", `${v2}/reports/bot_metrics`, { key: world.admin.key, body: {} })).status).toBe(404);
    expect((await del(`${v2}/summary_reports/channel`, world.admin.key)).status).toBe(404);
  });
});

describe("breakdown report cost", () => {
  const rowsRead = (reply: Reply) => Number(/db-rows-read;desc="(\d+)"/.exec(reply.headers.get("server-timing") ?? "")?.[1]);

  it("reads the same rows however many conversations the account has outside the window", async () => {
    const paths = NEW_REPORTS.map((p) => withQuery(p, window));
    const before = await Promise.all(paths.map(async (p) => rowsRead(await ok(get(p, world.admin.key)))));
    // a busy later week: 24 conversations, labelled, answered, some resolved, in other hours
    for (let i = 0; i < 24; i++) {
      at(`2025-05-12T${String(i).padStart(2, "0")}:00:00Z`);
      const id = await create([alpha, beta, bots][i % 3]);
      await labels(id, ["vip"]);
      await write(id, world.agent.key, { content: `answer ${i}` });
      if (i % 2) await status(id, world.admin.key, { status: "resolved" });
    }
    at("2025-05-14T00:00:00Z");
    const after = await Promise.all(paths.map(async (p) => rowsRead(await ok(get(p, world.admin.key)))));
    expect(after).toEqual(before);
    expect(before.every((n) => n > 0 && n < 200)).toBe(true);
  });
});
