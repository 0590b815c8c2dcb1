import { describe, expect, it } from "vitest";
import { call, get, patch, post } from "../support/http";
import { conversationRowId, createContactInbox, defineConversationAttribute, outboxFor } from "../support/fixtures";
import { shardOf } from "../support/databases";
import { hmacHex, publicInbox, visitor, visitorConversation, widgetWorld } from "./widget-support";

describe("public conversations", () => {
  it("creates, lists and shows the contact inbox's conversations with their custom attributes", async () => {
    const w = await widgetWorld();
    const v = await visitor(w.inbox, { name: "Vera" });
    const created = await post(`${v.base}/conversations`, null, { custom_attributes: { order: "A-1" } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ inbox_id: w.inbox.id, status: "open", custom_attributes: { order: "A-1" }, messages: [], contact: { id: v.contactId, name: "Vera" } });
    expect(created.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.body.contact_last_seen_at).toBeNull();
    const second = await post(`${v.base}/conversations`, null, {});
    const list = await get(`${v.base}/conversations`);
    expect(list.body.map((c: { id: number }) => c.id)).toEqual([second.body.id, created.body.id]);
    const shown = await get(`${v.base}/conversations/${created.body.id}`);
    expect(shown.body).toMatchObject({ id: created.body.id, custom_attributes: { order: "A-1" } });
    const events = await outboxFor(w.accountId, "Conversation", await conversationRowId(w.accountId, created.body.id));
    expect(events[0]).toMatchObject({ event: "conversation_created", data: { performer: { type: "Contact", id: v.contactId } } });
  });

  it("checks custom attributes against their definitions", async () => {
    const w = await widgetWorld();
    await defineConversationAttribute(w.accountId, "plan", 6, ["gold", "silver"]);
    const v = await visitor(w.inbox);
    const res = await post(`${v.base}/conversations`, null, { custom_attributes: { plan: "bronze" } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe("custom_attributes.plan");
  });

  it("answers 404 for a conversation of another contact, inbox or account, and for an unknown one", async () => {
    const w = await widgetWorld();
    const mine = await visitorConversation(w.inbox);
    const theirs = await visitorConversation(w.inbox);
    const otherInbox = await publicInbox(w.accountId);
    const elsewhere = await visitorConversation(otherInbox);
    for (const id of [theirs.displayId, elsewhere.displayId, 9999]) {
      const res = await get(`${mine.base}/conversations/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.errors[0]).toMatchObject({ field: "conversation_id", code: "not_found" });
      expect((await post(`${mine.base}/conversations/${id}/messages`, null, { content: "x" })).status).toBe(404);
      expect((await post(`${mine.base}/conversations/${id}/toggle_status`, null)).status).toBe(404);
      expect((await post(`${mine.base}/conversations/${id}/toggle_typing`, null, { typing_status: "on" })).status).toBe(404);
    }
    const other = await widgetWorld("Other");
    const foreign = await visitorConversation(other.inbox);
    expect((await get(`${w.inbox.base}/contacts/${foreign.sourceId}/conversations/${foreign.displayId}`)).status).toBe(404);
    expect((await get(`${mine.base}/conversations/abc`)).status).toBe(422);
    expect((await get(`${mine.base}/conversations`)).body).toHaveLength(1);
  });

  it("lets a verified contact see all of its conversations", async () => {
    const w = await widgetWorld();
    const hash = await hmacHex(w.inbox.hmacToken, "vip-1");
    const a = await visitorConversation(w.inbox, { identifier: "vip-1", identifier_hash: hash });
    const b = await visitorConversation(w.inbox, { identifier: "vip-1", identifier_hash: hash });
    expect(a.contactId).toBe(b.contactId);
    expect((await get(`${a.base}/conversations/${b.displayId}`)).status).toBe(200);
    expect((await get(`${a.base}/conversations`)).body).toHaveLength(2);
    // an unverified contact inbox of the same contact (made on the account API) sees only its own
    const plain = await createContactInbox(w.accountId, a.contactId, w.inbox.id);
    const plainBase = `${w.inbox.base}/contacts/${plain.sourceId}`;
    expect((await get(`${plainBase}/conversations/${a.displayId}`)).status).toBe(404);
    expect((await get(`${plainBase}/conversations`)).body).toHaveLength(0);
  });

  it("toggle_status only resolves, with the contact as actor", async () => {
    const w = await widgetWorld();
    const c = await visitorConversation(w.inbox, { name: "Vera" });
    const res = await post(`${c.path}/toggle_status`, null);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("resolved");
    const again = await post(`${c.path}/toggle_status`, null);
    expect(again.body.status).toBe("resolved");
    const events = await outboxFor(w.accountId, "Conversation", await conversationRowId(w.accountId, c.displayId));
    const statusEvents = events.filter((e) => e.event === "conversation_status_changed");
    expect(statusEvents).toHaveLength(1);
    expect(statusEvents[0].data.performer).toMatchObject({ type: "Contact", id: c.contactId });
  });

  it("update_last_seen sets contact_last_seen_at", async () => {
    const w = await widgetWorld();
    const c = await visitorConversation(w.inbox);
    const res = await post(`${c.path}/update_last_seen`, null);
    expect(res.status).toBe(200);
    expect((await get(c.path)).body.contact_last_seen_at).toBeGreaterThan(0);
    expect((await get(`${w.base}/conversations/${c.displayId}`, w.admin.key)).body.agent_last_seen_at).toBeNull();
  });

  it("webwidget_triggered: the widget reports itself opened, for API and website inboxes", async () => {
    const w = await widgetWorld();
    const site = await publicInbox(w.accountId, "Channel::WebWidget");
    for (const inbox of [w.inbox, site]) {
      const v = await visitor(inbox);
      const res = await post(`${v.base}/events`, null, { name: "webwidget.triggered", event_info: { browser: "Firefox", referer: "https://shop.example/cart" } });
      expect(res.status).toBe(200);
      const ciId = await (await shardOf(w.accountId)).prepare("SELECT id FROM contact_inboxes WHERE source_id = ?").bind(v.sourceId).first<{ id: number }>();
      const events = await outboxFor(w.accountId, "ContactInbox", ciId!.id);
      expect(events).toEqual([{ event: "webwidget_triggered", data: expect.objectContaining({ event_info: { browser: "Firefox", referer: "https://shop.example/cart" } }) }]);
    }
    const bad = await post(`${(await visitor(w.inbox)).base}/events`, null, { event_info: "x" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["event_info", "name"]);
  });
});

describe("public messages", () => {
  it("creates incoming messages from the contact (JSON and multipart) and lists them without private notes or activity", async () => {
    const w = await widgetWorld();
    const c = await visitorConversation(w.inbox, { name: "Vera" });
    const res = await post(`${c.path}/messages`, null, { content: "Hello", echo_id: "e-1" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ content: "Hello", message_type: 0, content_type: "text", conversation_id: c.displayId, echo_id: "e-1", sender: { type: "contact", id: c.contactId } });
    const form = new FormData();
    form.set("content", "From a form");
    const multipart = await call("POST", `${c.path}/messages`, { rawBody: form });
    expect(multipart.status).toBe(200);
    expect(multipart.body.content).toBe("From a form");
    await post(`${w.base}/conversations/${c.displayId}/messages`, w.agent.key, { content: "secret note", private: true });
    await post(`${w.base}/conversations/${c.displayId}/messages`, w.agent.key, { content: "Hi Vera" });
    await post(`${w.base}/conversations/${c.displayId}/toggle_status`, w.agent.key, { status: "pending" }); // an activity message
    const list = await get(`${c.path}/messages`);
    expect(list.body.map((m: { content: string }) => m.content)).toEqual(["Hello", "From a form", "Hi Vera"]);
    expect(list.body[2]).toMatchObject({ message_type: 1, sender: { type: "user", id: w.agent.id } });
    const rowId = await conversationRowId(w.accountId, c.displayId);
    const events = await outboxFor(w.accountId, "Message", list.body[0].id);
    expect(events[0]).toMatchObject({ event: "message_created", data: { performer: { type: "Contact" } } });
    expect(rowId).toBeGreaterThan(0);
  });

  it("pages backwards with before", async () => {
    const w = await widgetWorld();
    const c = await visitorConversation(w.inbox);
    for (let i = 1; i <= 23; i++) await post(`${c.path}/messages`, null, { content: `m${i}` });
    const latest = await get(`${c.path}/messages`);
    expect(latest.body).toHaveLength(20);
    expect(latest.body[0].content).toBe("m4");
    const older = await get(`${c.path}/messages?before=${latest.body[0].id}`);
    expect(older.body.map((m: { content: string }) => m.content)).toEqual(["m1", "m2", "m3"]);
    expect((await get(`${c.path}/messages?before=x`)).status).toBe(422);
  });

  it("validates message bodies", async () => {
    const w = await widgetWorld();
    const c = await visitorConversation(w.inbox);
    const blank = await post(`${c.path}/messages`, null, { content: "  " });
    expect(blank.status).toBe(422);
    expect(blank.body.errors[0]).toMatchObject({ field: "content", code: "blank" });
    expect((await post(`${c.path}/messages`, null, {})).body.errors[0]).toMatchObject({ field: "content", code: "required" });
    expect((await post(`${c.path}/messages`, null, { content: "x".repeat(150_001) })).status).toBe(422);
  });

  it("answers interactive messages with submitted_values; CSAT answers lock after the expiry", async () => {
    const w = await widgetWorld();
    const c = await visitorConversation(w.inbox);
    const select = await post(`${w.base}/conversations/${c.displayId}/messages`, w.agent.key, {
      content: "Pick one",
      content_type: "input_select",
      content_attributes: { items: [{ title: "Yes", value: "yes" }] },
    });
    const answered = await patch(`${c.path}/messages/${select.body.id}`, null, { submitted_values: [{ title: "Yes", value: "yes" }] });
    expect(answered.status).toBe(200);
    expect(answered.body.content_attributes.submitted_values).toEqual([{ title: "Yes", value: "yes" }]);
    expect((await outboxFor(w.accountId, "Message", select.body.id)).map((e) => e.event)).toEqual(["message_created", "message_updated"]);

    const text = await post(`${w.base}/conversations/${c.displayId}/messages`, w.agent.key, { content: "plain" });
    const refused = await patch(`${c.path}/messages/${text.body.id}`, null, { submitted_values: [{ value: "x" }] });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].code).toBe("not_interactive");
    expect((await patch(`${c.path}/messages/${text.body.id}`, null, { submitted_values: [] })).status).toBe(422);
    expect((await patch(`${c.path}/messages/999999`, null, { submitted_values: [{ value: "x" }] })).status).toBe(404);

    const rowId = await conversationRowId(w.accountId, c.displayId);
    const shard = await shardOf(w.accountId);
    const insertCsat = (createdAt: number) =>
      shard.prepare(
        "INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content_type, content, sender_type, created_at, updated_at) VALUES (?, ?, ?, 3, 9, 'Rate us', NULL, ?, ?) RETURNING id",
      )
        .bind(w.accountId, w.inbox.id, rowId, createdAt, createdAt)
        .first<{ id: number }>();
    const fresh = await insertCsat(Date.now());
    const rating = { submitted_values: [{ csat_survey_response: { rating: 5, feedback_message: "Great" } }] };
    expect((await patch(`${c.path}/messages/${fresh!.id}`, null, rating)).status).toBe(200);
    const badRating = await patch(`${c.path}/messages/${fresh!.id}`, null, { submitted_values: [{ csat_survey_response: { rating: 9 } }] });
    expect(badRating.status).toBe(422);
    expect(badRating.body.errors[0].field).toBe("submitted_values[0].csat_survey_response.rating");
    const old = await insertCsat(Date.now() - 15 * 24 * 3_600_000);
    const locked = await patch(`${c.path}/messages/${old!.id}`, null, rating);
    expect(locked.status).toBe(422);
    expect(locked.body.errors[0].code).toBe("csat_expired");
    expect(locked.body.description).toContain("14 days");
  });
});
