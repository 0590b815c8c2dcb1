/**
 * The CSAT survey link's API (/public/api/v1/csat_survey/{conversation_uuid}): the survey a contact
 * opens from the link, the answer it sends (recorded as the widget's answer is), the expiry, and what
 * the uuid does not reach.
 */
import { describe, expect, it } from "vitest";
import { type Reply, call, get, patch, post, put } from "../support/http";
import { visitorConversation, widgetWorld } from "./widget-support";

async function ok(reply: Promise<Reply>) {
  const r = await reply;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

const w = await widgetWorld("Survey Link Co");
await ok(patch(`${w.base}/inboxes/${w.inbox.id}`, w.admin.key, { csat_survey_enabled: true, csat_config: { message: "How was it?", display_type: "star" } }));

/** A conversation of the world's inbox, resolved (so it has its survey); answers its uuid and paths. */
async function surveyed(world = w) {
  const c = await visitorConversation(world.inbox, { name: "Sam Survey" });
  const shown = await ok(get(`${world.base}/conversations/${c.displayId}`, world.admin.key));
  await ok(post(`${world.base}/conversations/${c.displayId}/toggle_status`, world.admin.key, { status: "resolved" }));
  const uuid: string = shown.body.uuid;
  return { ...c, uuid, survey: `/public/api/v1/csat_survey/${uuid}` };
}

const rate = (path: string, rating: unknown, feedback?: string) =>
  put(path, null, { message: { submitted_values: { csat_survey_response: { rating, feedback_message: feedback } } } });

describe("GET /public/api/v1/csat_survey/{uuid}", () => {
  it("shows the conversation's survey, unanswered", async () => {
    const c = await surveyed();
    const res = await ok(get(c.survey));
    expect(res.body).toMatchObject({
      csat_survey_response: null,
      display_type: "star",
      message: "How was it?",
      conversation_id: c.displayId,
      locked: false,
    });
    const messages = (await ok(get(`${c.path}/messages`))).body as Array<{ id: number; content_type: string }>;
    expect(res.body.id).toBe(messages.find((m) => m.content_type === "input_csat")!.id);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers 404 for an unknown uuid, a conversation without a survey, and a malformed uuid 422", async () => {
    const unknown = await get(`/public/api/v1/csat_survey/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0]).toMatchObject({ field: "conversation_uuid", code: "not_found" });

    const open = await visitorConversation(w.inbox);
    const shown = await ok(get(`${w.base}/conversations/${open.displayId}`, w.admin.key));
    const none = await get(`/public/api/v1/csat_survey/${shown.body.uuid}`);
    expect(none.status).toBe(404);

    const bad = await get("/public/api/v1/csat_survey/not-a-uuid");
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("conversation_uuid");
  });
});

describe("PUT /public/api/v1/csat_survey/{uuid}", () => {
  it("records the rating as the widget's answer would, and a change of mind replaces it", async () => {
    const c = await surveyed();
    const answered = await ok(rate(c.survey, 4, "Quick and kind"));
    expect(answered.body.csat_survey_response).toMatchObject({ rating: 4, feedback_message: "Quick and kind", conversation_id: c.displayId, message_id: answered.body.id });

    // the agents see it in the CSAT responses and on the survey message
    const responses = (await ok(get(`${w.base}/csat_survey_responses`, w.admin.key))).body as Array<{ conversation_id: number; rating: number }>;
    expect(responses.filter((r) => r.conversation_id === c.displayId)).toMatchObject([{ rating: 4, feedback_message: "Quick and kind" }]);
    const messages = (await ok(get(`${w.base}/conversations/${c.displayId}/messages`, w.admin.key))).body.payload as Array<{ id: number; content_attributes: Record<string, unknown> }>;
    expect(messages.find((m) => m.id === answered.body.id)!.content_attributes.submitted_values).toEqual({
      csat_survey_response: { rating: 4, feedback_message: "Quick and kind" },
    });

    // Chatwoot's page sends the answer wrapped in `message`; unwrapped works as well
    await ok(put(c.survey, null, { submitted_values: { csat_survey_response: { rating: 2 } } }));
    expect((await ok(get(c.survey))).body.csat_survey_response).toMatchObject({ rating: 2, feedback_message: null });
    const after = (await ok(get(`${w.base}/csat_survey_responses`, w.admin.key))).body as Array<{ conversation_id: number; rating: number }>;
    expect(after.filter((r) => r.conversation_id === c.displayId).map((r) => r.rating)).toEqual([2]);
  });

  it("refuses bad answers and changes nothing", async () => {
    const c = await surveyed();
    for (const body of [
      { message: { submitted_values: { csat_survey_response: { rating: 6 } } } },
      { message: { submitted_values: { csat_survey_response: { feedback_message: "no rating" } } } },
      { message: { submitted_values: "5" } },
      {},
    ]) {
      const res = await put(c.survey, null, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].field).toMatch(/^submitted_values/);
    }
    const text = await call("PUT", c.survey, { rawBody: "{not json", headers: { "content-type": "application/json" } });
    expect(text.status).toBe(400);
    expect((await ok(get(c.survey))).body.csat_survey_response).toBeNull();
    expect((await put(`/public/api/v1/csat_survey/${crypto.randomUUID()}`, null, { submitted_values: { csat_survey_response: { rating: 3 } } })).status).toBe(404);
  });

  it("is locked once the inbox's expiry has passed", async () => {
    const quick = await widgetWorld("Survey Expiry Co");
    // 0.0003 h is about a second: the survey expires while the test waits
    await ok(patch(`${quick.base}/inboxes/${quick.inbox.id}`, quick.admin.key, { csat_survey_enabled: true, csat_config: { csat_expiry_hours: 0.0003 } }));
    const c = await surveyed(quick);
    await new Promise((r) => setTimeout(r, 1300));
    const shown = await ok(get(c.survey));
    expect(shown.body).toMatchObject({ locked: true, csat_survey_response: null });
    const late = await rate(c.survey, 5);
    expect(late.status).toBe(422);
    expect(late.body.errors[0].code).toBe("csat_expired");
    expect((await ok(get(`${quick.base}/csat_survey_responses`, quick.admin.key))).body).toEqual([]);
  });

  it("reaches only the survey: a suspended account's link is a 404", async () => {
    const other = await widgetWorld("Survey Suspended Co");
    await ok(patch(`${other.base}/inboxes/${other.inbox.id}`, other.admin.key, { csat_survey_enabled: true }));
    const c = await surveyed(other);
    await ok(get(c.survey));
    const platform = await call("PATCH", `/platform/api/v1/accounts/${other.accountId}`, { key: other.platformKey, body: { status: "suspended" } });
    expect(platform.status).toBe(200);
    expect((await get(c.survey)).status).toBe(404);
    expect((await rate(c.survey, 5)).status).toBe(404);
  });
});
