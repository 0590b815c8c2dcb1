/**
 * CSAT from resolution to answer to metrics: the survey sent once when a conversation of an inbox with
 * csat_survey_enabled is resolved, the contact's answer through the public API, the responses list with
 * its filters, the metrics, the CSV download, the expiry, and who may read them.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { type Reply, get, patch, post } from "../support/http";
import { outboxFor } from "../support/fixtures";
import { publicInbox, visitorConversation, widgetWorld } from "../public/widget-support";
import { receiver } from "../support/receivers";

vi.useFakeTimers({ toFake: ["Date"] });
afterAll(() => vi.useRealTimers());
vi.setSystemTime(new Date("2025-05-05T10:00:00Z"));

async function ok(reply: Promise<Reply>) {
  const r = await reply;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

const w = await widgetWorld("Csat Co");
const csat = `${w.base}/csat_survey_responses`;
await ok(
  patch(`${w.base}/inboxes/${w.inbox.id}`, w.admin.key, {
    csat_survey_enabled: true,
    csat_config: { message: "How did we do?", display_type: "star", csat_expiry_hours: 48 },
  }),
);
const resolve = (displayId: number, key = w.agent.key) => ok(post(`${w.base}/conversations/${displayId}/toggle_status`, key, { status: "resolved" }));
const surveysIn = async (path: string) =>
  (await ok(get(`${path}/messages`))).body.filter((m: { content_type: string }) => m.content_type === "input_csat") as Array<{
    id: number;
    content: string;
    message_type: number;
    content_attributes: Record<string, unknown>;
  }>;
const answer = (path: string, messageId: number, rating: number, feedback?: string) =>
  patch(`${path}/messages/${messageId}`, null, { submitted_values: [{ csat_survey_response: { rating, feedback_message: feedback } }] });

const first = await visitorConversation(w.inbox, { name: "Vera Visitor", email: "vera@example.com" });
const second = await visitorConversation(w.inbox, { name: "=cmd|' /C calc'!A0" });
const third = await visitorConversation(w.inbox);
await ok(post(`${w.base}/conversations/${first.displayId}/assignments`, w.admin.key, { assignee_id: w.agent.id }));

describe("CSAT surveys", () => {
  it("sends one input_csat template when a conversation is resolved, with its event", async () => {
    await resolve(first.displayId);
    const [survey] = await surveysIn(first.path);
    expect(survey).toMatchObject({ content: "How did we do?", message_type: 3, content_attributes: { display_type: "star" } });
    expect((await outboxFor(w.accountId, "Message", survey.id)).map((e) => e.event)).toEqual(["message_created"]);
    // reopened and resolved again: still one survey
    await ok(post(`${w.base}/conversations/${first.displayId}/toggle_status`, w.agent.key, { status: "open" }));
    await resolve(first.displayId);
    expect(await surveysIn(first.path)).toHaveLength(1);
  });

  it("is not sent when the inbox does not ask for it, or its label rule says no", async () => {
    const plain = await widgetWorld("No Csat Co");
    const c = await visitorConversation(plain.inbox);
    await ok(post(`${plain.base}/conversations/${c.displayId}/toggle_status`, plain.admin.key, { status: "resolved" }));
    expect(await surveysIn(c.path)).toEqual([]);

    const ruled = await widgetWorld("Rule Co");
    await ok(patch(`${ruled.base}/inboxes/${ruled.inbox.id}`, ruled.admin.key, { csat_survey_enabled: true, csat_config: { survey_rules: { operator: "contains", values: ["vip"] } } }));
    const unlabelled = await visitorConversation(ruled.inbox);
    const labelled = await visitorConversation(ruled.inbox);
    await ok(post(`${ruled.base}/conversations/${labelled.displayId}/labels`, ruled.admin.key, { labels: ["vip"] }));
    for (const c of [unlabelled, labelled]) await ok(post(`${ruled.base}/conversations/${c.displayId}/toggle_status`, ruled.admin.key, { status: "resolved" }));
    expect(await surveysIn(unlabelled.path)).toEqual([]);
    expect((await surveysIn(labelled.path))[0].content).toBe("Please rate the conversation");
  });

  it("records answers, lists them with filters, and counts them", async () => {
    await resolve(second.displayId, w.admin.key);
    await resolve(third.displayId, w.admin.key);
    const [s1] = await surveysIn(first.path);
    const [s2] = await surveysIn(second.path);
    vi.setSystemTime(new Date("2025-05-05T11:00:00Z"));
    await ok(answer(first.path, s1.id, 4, "Good"));
    vi.setSystemTime(new Date("2025-05-05T12:00:00Z"));
    await ok(answer(second.path, s2.id, 2, "=HYPERLINK(\"x\")"));
    // a change of mind replaces the rating, not the answer's time
    vi.setSystemTime(new Date("2025-05-05T13:00:00Z"));
    await ok(answer(first.path, s1.id, 5, "Great, thanks"));

    const list = (await ok(get(csat, w.admin.key))).body;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({
      rating: 2,
      conversation_id: second.displayId,
      message_id: s2.id,
      account_id: w.accountId,
      assigned_agent: null,
      created_at: Date.parse("2025-05-05T12:00:00Z") / 1000,
    });
    expect(list[1]).toMatchObject({
      rating: 5,
      feedback_message: "Great, thanks",
      conversation_id: first.displayId,
      contact: { id: first.contactId, name: "Vera Visitor", email: "vera@example.com" },
      assigned_agent: { id: w.agent.id },
      created_at: Date.parse("2025-05-05T11:00:00Z") / 1000,
    });
    const ids = async (query: string) => (await ok(get(`${csat}?${query}`, w.admin.key))).body.map((r: { rating: number }) => r.rating);
    expect(await ids("sort=created_at")).toEqual([5, 2]);
    expect(await ids("rating=5")).toEqual([5]);
    expect(await ids(`user_ids[]=${w.agent.id}`)).toEqual([5]);
    expect(await ids(`inbox_id=${w.inbox.id}`)).toEqual([2, 5]);
    expect(await ids(`since=${Date.parse("2025-05-05T11:30:00Z") / 1000}`)).toEqual([2]);
    expect(await ids("page=2")).toEqual([]);

    const metrics = (await ok(get(`${csat}/metrics`, w.admin.key))).body;
    expect(metrics).toEqual({ total_count: 2, ratings_count: { "2": 1, "5": 1 }, total_sent_messages_count: 3 });
    expect((await ok(get(`${csat}/metrics?user_ids=${w.agent.id}`, w.admin.key))).body).toEqual({ total_count: 1, ratings_count: { "5": 1 }, total_sent_messages_count: 1 });
  });

  it("downloads the answers as CSV, formulas made inert", async () => {
    const res = await ok(get(`${csat}/download`, w.admin.key));
    expect(res.headers.get("content-type")).toContain("text/csv");
    const lines = String(res.body).trim().split("\n");
    expect(lines[0]).toBe("Agent name,Rating,Feedback,Contact name,Contact email,Contact phone,Link to the conversation,Answered at");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`,2,"'=HYPERLINK(""x"")",'=cmd|' /C calc'!A0,`);
    expect(lines[2]).toMatch(/^Csat Co Agent,5,Great,? ?thanks|^Csat Co Agent,5,"?Great, thanks"?,Vera Visitor,vera@example.com,,https?:\/\/.+\/app\/accounts\/\d+\/conversations\/\d+,2025-05-05T11:00:00.000Z$/);
  });

  it("refuses an answer after the inbox's expiry, and a bad rating", async () => {
    const [s1] = await surveysIn(first.path);
    const bad = await answer(first.path, s1.id, 6);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("submitted_values[0].csat_survey_response.rating");
    vi.setSystemTime(new Date("2025-05-07T10:30:00Z")); // 48 h after the survey
    const late = await answer(first.path, s1.id, 1);
    expect(late.status).toBe(422);
    expect(late.body.errors[0].code).toBe("csat_expired");
    expect((await ok(get(`${csat}/metrics`, w.admin.key))).body.ratings_count).toEqual({ "2": 1, "5": 1 });
  });

  it("is for administrators, and validates its filters", async () => {
    for (const path of ["", "/metrics", "/download"]) expect((await get(`${csat}${path}`, w.agent.key)).status).toBe(403);
    const bad = await get(`${csat}?rating=7&sort=rating&user_ids[]=x`, w.admin.key);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["rating[0]", "sort", "user_ids[][0]"]);
  });
  it("takes the widget's answer shape: submitted_values as one object with csat_survey_response", async () => {
    const other = await widgetWorld("Csat Object Co");
    await ok(patch(`${other.base}/inboxes/${other.inbox.id}`, other.admin.key, { csat_survey_enabled: true }));
    const c = await visitorConversation(other.inbox, { name: "Olga Object" });
    await ok(post(`${other.base}/conversations/${c.displayId}/toggle_status`, other.admin.key, { status: "resolved" }));
    const [survey] = await surveysIn(c.path);
    const answered = await ok(patch(`${c.path}/messages/${survey.id}`, null, { submitted_values: { csat_survey_response: { rating: 3, feedback_message: "Fine" } } }));
    // stored as Chatwoot stores it: one object, not a list
    expect(answered.body.content_attributes.submitted_values).toEqual({ csat_survey_response: { rating: 3, feedback_message: "Fine" } });
    const list = (await ok(get(`${other.base}/csat_survey_responses`, other.admin.key))).body;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ rating: 3, feedback_message: "Fine", message_id: survey.id, conversation_id: c.displayId });
    expect((await ok(get(`${other.base}/csat_survey_responses/metrics`, other.admin.key))).body).toMatchObject({ total_count: 1, ratings_count: { "3": 1 } });
    // the object without a rating, or with a bad one, is refused and changes nothing
    for (const body of [{ csat_survey_response: { feedback_message: "no rating" } }, { csat_survey_response: { rating: 0 } }]) {
      const bad = await patch(`${c.path}/messages/${survey.id}`, null, { submitted_values: body });
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0].field).toMatch(/^submitted_values\.csat_survey_response\.rating/);
    }
    expect((await ok(get(`${other.base}/csat_survey_responses`, other.admin.key))).body[0]).toMatchObject({ rating: 3, feedback_message: "Fine" });
  });

  it("sends the survey page's link with a survey that leaves through an API inbox, not with the widget's", async () => {
    const linked = await widgetWorld("Csat Link Co");
    const widgetInbox = await publicInbox(linked.accountId, "Channel::WebWidget");
    for (const inbox of [linked.inbox, widgetInbox]) await ok(patch(`${linked.base}/inboxes/${inbox.id}`, linked.admin.key, { csat_survey_enabled: true }));
    const hook = receiver();
    await ok(post(`${linked.base}/webhooks`, linked.admin.key, { url: hook.url, subscriptions: ["message_created"] }));
    const viaApi = await visitorConversation(linked.inbox);
    const viaWidget = await visitorConversation(widgetInbox);
    const uuidOf = async (displayId: number) => (await ok(get(`${linked.base}/conversations/${displayId}`, linked.admin.key))).body.uuid as string;
    for (const c of [viaApi, viaWidget]) await ok(post(`${linked.base}/conversations/${c.displayId}/toggle_status`, linked.admin.key, { status: "resolved" }));
    await hook.waitFor(2);
    const surveys = hook.payloads().filter((p) => p.content_type === "input_csat");
    const byConversation = (displayId: number) => surveys.find((p) => p.conversation.id === displayId);
    expect(byConversation(viaApi.displayId).content).toMatch(new RegExp(`^Please rate the conversation https?://[^ ]+/survey/responses/${await uuidOf(viaApi.displayId)}$`));
    expect(byConversation(viaWidget.displayId).content).toBe("Please rate the conversation");
    // the stored message keeps its text: the link is added on the way out
    expect((await surveysIn(viaApi.path))[0].content).toBe("Please rate the conversation");
  });
});
