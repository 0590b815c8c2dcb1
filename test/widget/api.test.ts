/** /api/v1/widget/*: every route with a visitor's token, and the refusals every route shares (docs/widget.md). */
import { describe, expect, it } from "vitest";
import { sign } from "hono/jwt";
import { call, get, made, post } from "../support/http";
import { outboxFor } from "../support/fixtures";
import { shardOf } from "../support/databases";
import { pageVisitor, tokenPayload, websiteWorld, widgetCall } from "./website-support";

const site = await websiteWorld("Api Shop", { selected_feature_flags: ["attachments", "end_conversation"] });
const other = await websiteWorld("Other Shop", { selected_feature_flags: ["attachments"] });
const agentView = (path: string) => get(`${site.base}${path}`, site.admin.key);

/** A visitor of `site`, and its calls. */
async function visitor() {
  const { authToken, pubsubToken } = await pageVisitor(site);
  const as = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => widgetCall(method, path, site.token, authToken, body, headers);
  return { authToken, pubsubToken, sourceId: tokenPayload(authToken).source_id as string, as };
}

/** A visitor with a conversation opened by its first message. */
async function talking(content = "Hello there") {
  const v = await visitor();
  const sent = await v.as("POST", "/messages", { message: { content, timestamp: "Tue Nov 24 2026", referer_url: "https://shop.example/cart" } });
  if (sent.status !== 200) throw new Error(`message failed: ${sent.status} ${JSON.stringify(sent.body)}`);
  return { ...v, message: sent.body, displayId: sent.body.conversation_id as number };
}

describe("the contact", () => {
  it("GET /contact shows the visitor's flags; PATCH /contact updates it", async () => {
    const v = await visitor();
    const shown = await v.as("GET", "/contact");
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ id: expect.any(Number), has_email: false, has_name: true, has_phone_number: false, identifier: null });
    const updated = await v.as("PATCH", "/contact", { email: "visitor@example.com", custom_attributes: { plan: "pro" } });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ id: shown.body.id, has_email: true, has_name: true, has_phone_number: false });
    const bad = await v.as("PATCH", "/contact", { email: "not an e-mail" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("email");
  });

  it("destroy_custom_attributes removes the keys from the visitor's own contact", async () => {
    const v = await visitor();
    await v.as("PATCH", "/contact", { custom_attributes: { plan: "pro", seats: 3 } });
    const res = await v.as("POST", "/contact/destroy_custom_attributes", { custom_attributes: ["plan"] });
    expect(res.status).toBe(200);
    expect(res.body.custom_attributes).toEqual({ seats: 3 });
    expect((await v.as("POST", "/contact/destroy_custom_attributes", { custom_attributes: "plan" })).status).toBe(422);
  });
});

describe("the current conversation", () => {
  it("is {} and an empty message list before the first message, which opens it", async () => {
    const v = await visitor();
    expect((await v.as("GET", "/conversations")).body).toEqual({});
    expect((await v.as("GET", "/messages")).body).toEqual({ payload: [], meta: {} });
    const sent = await v.as("POST", "/messages", { message: { content: "First!", echo_id: "e1", referer_url: "https://shop.example/" } });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ content: "First!", message_type: 0, private: false, inbox_id: site.inbox.id, echo_id: "e1", content_attributes: {} });
    const current = await v.as("GET", "/conversations");
    expect(current.body).toEqual({ id: sent.body.conversation_id, inbox_id: site.inbox.id, contact_last_seen_at: null, status: "open" });
    const agent = await agentView(`/conversations/${sent.body.conversation_id}`);
    expect(agent.body.additional_attributes).toMatchObject({ referer: "https://shop.example/", browser_language: null });
    const list = await v.as("GET", "/messages");
    expect(list.body.payload.map((m: any) => m.content)).toEqual(["First!"]);
    expect(list.body.meta).toEqual({ contact_last_seen_at: null });
  });

  it("keeps the page's referer only when it is an http(s) URL (the dashboard links it); the message is taken either way", async () => {
    const v = await visitor();
    const sent = await v.as("POST", "/messages", { message: { content: "From a strange page", referer_url: "javascript:alert(document.cookie)" } });
    expect(sent.status).toBe(200);
    expect((await agentView(`/conversations/${sent.body.conversation_id}`)).body.additional_attributes.referer).toBeNull();
    const started = await v.as("POST", "/conversations", { message: { content: "From the form", referer_url: "data:text/html,<script>alert(1)</script>" } });
    expect(started.status).toBe(200);
    expect((await agentView(`/conversations/${started.body.id}`)).body.additional_attributes.referer).toBeNull();
  });

  it("POST /conversations starts a new one with the pre-chat form's contact and message", async () => {
    const v = await talking("old one");
    const res = await v.as("POST", "/conversations", { contact: { email: "prechat@example.com", name: "Pre Chat" }, message: { content: "From the form", timestamp: "now" }, custom_attributes: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ inbox_id: site.inbox.id, status: "open", contact: { email: "prechat@example.com" } });
    expect(res.body.id).not.toBe(v.displayId);
    expect(res.body.messages.map((m: any) => m.content)).toEqual(["From the form"]);
    expect((await v.as("GET", "/conversations")).body.id).toBe(res.body.id);
    const bad = await v.as("POST", "/conversations", { message: {} });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("message.content");
  });

  it("pages messages before and after an id", async () => {
    const v = await talking("m0");
    for (let i = 1; i < 25; i++) await v.as("POST", "/messages", { message: { content: `m${i}` } });
    const latest = await v.as("GET", "/messages");
    expect(latest.body.payload.map((m: any) => m.content)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 5}`));
    const first = latest.body.payload[0].id;
    const older = await v.as("GET", `/messages?before=${first}`);
    expect(older.body.payload.map((m: any) => m.content)).toEqual(["m0", "m1", "m2", "m3", "m4"]);
    const newer = await v.as("GET", `/messages?after=${older.body.payload[2].id}`);
    expect(newer.body.payload.map((m: any) => m.content)).toEqual(Array.from({ length: 22 }, (_, i) => `m${i + 3}`));
    const between = await v.as("GET", `/messages?after=${older.body.payload[0].id}&before=${older.body.payload[3].id}`);
    expect(between.body.payload.map((m: any) => m.content)).toEqual(["m1", "m2"]);
    expect((await v.as("GET", "/messages?before=abc")).status).toBe(422);
  });

  it("update_last_seen, toggle_typing, set and destroy custom attributes act on the current conversation", async () => {
    const v = await talking();
    const seen = await v.as("POST", "/conversations/update_last_seen", {});
    expect(seen.status).toBe(200);
    expect((await v.as("GET", "/conversations")).body.contact_last_seen_at).toEqual(expect.any(Number));
    expect((await v.as("POST", "/conversations/toggle_typing", { typing_status: "on" })).status).toBe(200);
    expect((await v.as("POST", "/conversations/toggle_typing", { typing_status: "off" })).status).toBe(200);
    const badTyping = await v.as("POST", "/conversations/toggle_typing", { typing_status: "maybe" });
    expect(badTyping.status).toBe(422);
    expect(badTyping.body.errors[0].field).toBe("typing_status");

    const set = await v.as("POST", "/conversations/set_custom_attributes", { custom_attributes: { order: "A-1", gift: true } });
    expect(set.status).toBe(204);
    expect((await agentView(`/conversations/${v.displayId}`)).body.custom_attributes).toEqual({ order: "A-1", gift: true });
    const destroyed = await v.as("POST", "/conversations/destroy_custom_attributes", { custom_attribute: ["gift"] });
    expect(destroyed.status).toBe(200);
    expect(destroyed.body).toMatchObject({ id: v.displayId, custom_attributes: { order: "A-1" } });
    expect((await v.as("POST", "/conversations/set_custom_attributes", { custom_attributes: "x" })).status).toBe(422);
  });

  it("without a conversation: update_last_seen is 200, the others Chatwoot's 404 (transcript 429)", async () => {
    const v = await visitor();
    expect((await v.as("POST", "/conversations/update_last_seen", {})).status).toBe(200);
    for (const [method, path, body] of [
      ["POST", "/conversations/toggle_typing", { typing_status: "on" }],
      ["GET", "/conversations/toggle_status", undefined],
      ["POST", "/conversations/set_custom_attributes", { custom_attributes: {} }],
      ["POST", "/conversations/destroy_custom_attributes", { custom_attribute: ["a"] }],
    ] as const) {
      const res = await v.as(method, path, body);
      expect(res.status, path).toBe(404);
      expect(res.body.errors[0].field).toBe("conversation");
    }
    const transcript = await v.as("POST", "/conversations/transcript", {});
    expect(transcript.status).toBe(429);
    expect(transcript.body.errors[0].code).toBe("no_conversation");
  });

  it("toggle_status resolves with the end_conversation feature, and is a 403 without it", async () => {
    const v = await talking();
    const ended = await v.as("GET", "/conversations/toggle_status");
    expect(ended.status).toBe(200);
    expect((await v.as("GET", "/conversations")).body.status).toBe("resolved");
    expect((await v.as("GET", "/conversations/toggle_status")).status).toBe(200);

    const elsewhere = await pageVisitor(other);
    const as = (method: string, path: string, body?: unknown) => widgetCall(method, path, other.token, elsewhere.authToken, body);
    await as("POST", "/messages", { message: { content: "hi" } });
    const refused = await as("GET", "/conversations/toggle_status");
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe("end_conversation_disabled");
    expect((await as("GET", "/conversations")).body.status).toBe("open");
  });

  it("transcript mails the conversation to the contact's own e-mail only", async () => {
    const v = await talking();
    const count = async () =>
      (await (await shardOf(site.accountId)).prepare("SELECT count(*) AS n FROM outgoing_emails WHERE account_id = ? AND kind = 'transcript'").bind(site.accountId).first<{ n: number }>())!.n;
    const before = await count();
    expect((await v.as("POST", "/conversations/transcript", {})).status).toBe(200);
    expect(await count()).toBe(before); // no e-mail yet: nothing to send
    await v.as("PATCH", "/contact", { email: "reader@example.com" });
    expect((await v.as("POST", "/conversations/transcript", {})).status).toBe(200);
    expect(await count()).toBe(before + 1);
  });
});

describe("messages", () => {
  it("a reply quotes a message; an empty message is a 422", async () => {
    const v = await talking();
    const reply = await v.as("POST", "/messages", { message: { content: "replying", reply_to: v.message.id } });
    expect(reply.body.content_attributes).toEqual({ in_reply_to: v.message.id });
    const empty = await v.as("POST", "/messages", { message: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].field).toBe("message.content");
  });

  it("takes files as message[attachments][] (multipart)", async () => {
    const v = await talking();
    const form = new FormData();
    form.append("message[content]", "a picture");
    form.append("message[attachments][]", new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52])], "dot.png", { type: "image/png" }));
    const res = await call("POST", `/api/v1/widget/messages?website_token=${site.token}`, { rawBody: form, headers: { "x-auth-token": v.authToken } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.attachments).toHaveLength(1);
    expect(res.body.attachments[0]).toMatchObject({ file_type: "image" });
  });

  it("PATCH /messages/:id answers a form or a CSAT survey, and a message of another visitor is a 404", async () => {
    const v = await talking();
    const options = await made(`${site.base}/conversations/${v.displayId}/messages`, site.admin.key, {
      content: "Pick one",
      content_type: "input_select",
      content_attributes: { items: [{ title: "Yes", value: "yes" }] },
    });
    const answered = await v.as("PATCH", `/messages/${options.id}`, { message: { submitted_values: [{ title: "Yes", value: "yes" }] } });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body.contact.id).toEqual(expect.any(Number));
    const list = await v.as("GET", "/messages");
    expect(list.body.payload.find((m: any) => m.id === options.id).content_attributes.submitted_values).toEqual([{ title: "Yes", value: "yes" }]);

    const stranger = await talking();
    const refused = await stranger.as("PATCH", `/messages/${options.id}`, { message: { submitted_values: [{ value: "no" }] } });
    expect(refused.status).toBe(404);
    expect(refused.body.errors[0].field).toBe("id");
    expect((await v.as("PATCH", `/messages/${options.id}`, {})).status).toBe(422);
  });

  it("an input_email answer keeps submitted_email and gives the contact its e-mail", async () => {
    const v = await talking();
    const ask = await made(`${site.base}/conversations/${v.displayId}/messages`, site.admin.key, { content: "Your e-mail?", content_type: "input_email" });
    const res = await v.as("PATCH", `/messages/${ask.id}`, { contact: { email: "later@example.com" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.contact.email).toBe("later@example.com");
    const list = await v.as("GET", "/messages");
    expect(list.body.payload.find((m: any) => m.id === ask.id).content_attributes.submitted_email).toBe("later@example.com");
  });
});

describe("events and labels", () => {
  it("webwidget.triggered is a 204 with the webwidget_triggered event; other names are a 422", async () => {
    const v = await visitor();
    const res = await v.as("POST", "/events?locale=fr", { name: "webwidget.triggered", event_info: { initiated_at: { timestamp: "now" }, referer: "https://shop.example/" } });
    expect(res.status).toBe(204);
    const row = await (await shardOf(site.accountId))
      .prepare("SELECT id FROM contact_inboxes WHERE inbox_id = ? AND source_id = ?")
      .bind(site.inbox.id, v.sourceId)
      .first<{ id: number }>();
    const events = await outboxFor(site.accountId, "ContactInbox", row!.id);
    expect(events.at(-1)).toMatchObject({ event: "webwidget_triggered", data: { name: "webwidget.triggered", event_info: { referer: "https://shop.example/", widget_language: "fr" } } });
    const bad = await v.as("POST", "/events", { name: "contact.merged" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("name");
  });

  it("labels the current conversation with an existing label only, and takes it off", async () => {
    await made(`${site.base}/labels`, site.admin.key, { title: "returning" });
    const v = await talking();
    expect((await v.as("POST", "/labels", { label: "no-such-label" })).status).toBe(204);
    expect((await v.as("POST", "/labels", { label: "returning" })).status).toBe(204);
    expect((await agentView(`/conversations/${v.displayId}/labels`)).body.payload).toEqual(["returning"]);
    expect((await v.as("DELETE", "/labels/returning")).status).toBe(204);
    expect((await agentView(`/conversations/${v.displayId}/labels`)).body.payload).toEqual([]);
    expect((await v.as("POST", "/labels", {})).status).toBe(422);
  });
});

describe("without a visitor", () => {
  it("inbox_members lists the inbox's agents with their presence", async () => {
    const res = await widgetCall("GET", "/inbox_members", site.token, null);
    expect(res.status).toBe(200);
    expect(res.body.payload).toEqual([{ id: site.agent.id, name: "Api Shop Agent", avatar_url: "", availability_status: "offline" }]);
  });

  it("campaigns lists the inbox's campaigns", async () => {
    const res = await widgetCall("GET", "/campaigns", site.token, null);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it("config makes a visitor without a token, and always mints a new token", async () => {
    const res = await widgetCall("POST", "/config", site.token, null, {});
    expect(res.status).toBe(200);
    expect(res.body.website_channel_config).toMatchObject({ website_token: site.token, api_host: "https://desk.test", enabled_features: ["attachments", "end_conversation"] });
    const token = res.body.website_channel_config.auth_token;
    expect(tokenPayload(token).inbox_id).toBe(site.inbox.id);
    const again = await widgetCall("POST", "/config", site.token, token, {});
    expect(again.body.contact.id).toBe(res.body.contact.id);
    expect(again.body.contact.pubsub_token).toBe(res.body.contact.pubsub_token);
  });

  it("direct_uploads are not offered: a 422 pointing at multipart", async () => {
    const v = await visitor();
    const res = await v.as("POST", "/direct_uploads", { blob: { filename: "a.png" } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].code).toBe("direct_uploads_disabled");
  });
});

/** Every route that needs a visitor, with a body it accepts. */
const VISITOR_ROUTES: Array<[string, string, unknown?]> = [
  ["GET", "/contact"],
  ["PATCH", "/contact", { name: "X" }],
  ["PATCH", "/contact/set_user", { identifier: "someone", name: "X" }],
  ["POST", "/contact/destroy_custom_attributes", { custom_attributes: ["a"] }],
  ["GET", "/conversations"],
  ["POST", "/conversations", { message: { content: "x" } }],
  ["POST", "/conversations/update_last_seen", {}],
  ["POST", "/conversations/toggle_typing", { typing_status: "on" }],
  ["POST", "/conversations/transcript", {}],
  ["GET", "/conversations/toggle_status"],
  ["POST", "/conversations/set_custom_attributes", { custom_attributes: {} }],
  ["POST", "/conversations/destroy_custom_attributes", { custom_attribute: ["a"] }],
  ["GET", "/messages"],
  ["POST", "/messages", { message: { content: "x" } }],
  ["PATCH", "/messages/1", { message: { submitted_values: [{ value: "x" }] } }],
  ["POST", "/events", { name: "webwidget.triggered" }],
  ["POST", "/labels", { label: "x" }],
  ["DELETE", "/labels/x"],
  ["POST", "/direct_uploads", {}],
];

describe("the refusals every route shares", () => {
  it.each(VISITOR_ROUTES)("%s %s: 404 without a token, with a forged one, or another inbox's; 404 for an unknown website token", async (method, path, body) => {
    const mine = await pageVisitor(site);
    const elsewhere = await pageVisitor(other);
    const forged = await sign({ ...tokenPayload(mine.authToken) }, "another-secret", "HS256");
    for (const token of [null, "not-a-jwt", forged, elsewhere.authToken]) {
      const res = await widgetCall(method, path, site.token, token, body);
      expect(res.status, `${token}: ${JSON.stringify(res.body)}`).toBe(404);
      expect(res.body.errors[0].field).toBe("X-Auth-Token");
    }
    const unknown = await widgetCall(method, path, "no-such-website", mine.authToken, body);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].field).toBe("website_token");
    const missing = await call(method, `/api/v1/widget${path}`, { body, headers: { "x-auth-token": mine.authToken } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].field).toBe("website_token");
  });

  it("a suspended account's widget is a 401 on every route", async () => {
    const paused = await websiteWorld("Paused Api Shop");
    const v = await pageVisitor(paused);
    await call("PATCH", `/platform/api/v1/accounts/${paused.accountId}`, { key: paused.platformKey, body: { status: "suspended" } });
    for (const [method, path, body] of [...VISITOR_ROUTES, ["GET", "/inbox_members"], ["GET", "/campaigns"], ["POST", "/config", {}]] as Array<[string, string, unknown?]>) {
      const res = await widgetCall(method, path, paused.token, v.authToken, body);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.errors[0].code).toBe("account_suspended");
    }
  });

  it("a visitor reaches only its own conversation", async () => {
    const a = await talking("A's secret");
    const b = await visitor();
    expect((await b.as("GET", "/conversations")).body).toEqual({});
    expect((await b.as("GET", "/messages")).body.payload).toEqual([]);
    await b.as("POST", "/messages", { message: { content: "B here" } });
    expect((await b.as("GET", "/messages")).body.payload.map((m: any) => m.content)).toEqual(["B here"]);
    expect((await a.as("GET", "/messages")).body.payload.map((m: any) => m.content)).toEqual(["A's secret"]);
  });

  it("an unknown route below /api/v1/widget is the JSON 404 of unknown routes", async () => {
    const res = await post(`/api/v1/widget/nothing-here?website_token=${site.token}`, null, {});
    expect(res.status).toBe(404);
  });
});
