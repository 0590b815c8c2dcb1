import { describe, expect, it } from "vitest";
import { shardOf } from "../support/databases";
import { call, del, get, patch, post } from "../support/http";
import { createWorld } from "../support/world";
import { addInboxMember, createContact, createInbox, outboxFor } from "../support/fixtures";

const world = await createWorld("Messages Co");
const inboxId = await createInbox(world.accountId);
const widgetInbox = await createInbox(world.accountId, { channel: "Channel::WebWidget" });
await addInboxMember(world.accountId, inboxId, world.agent.id);
const contactId = await createContact(world.accountId);
const open = async (inbox = inboxId) => (await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inbox, contact_id: contactId })).body.id as number;
const messagesOf = (id: number) => `${world.base}/conversations/${id}/messages`;

const template = {
  name: "order_update",
  category: "UTILITY",
  language: "pt-BR",
  processed_params: {
    body: { "1": "Casey" },
    header: { media_url: "https://cdn.example/label.pdf", media_type: "document" },
    buttons: [{ type: "url", parameter: "track/42" }],
  },
};

describe("creating messages", () => {
  it("accepts a valid template and keeps its parameters", async () => {
    const id = await open();
    const res = await post(messagesOf(id), world.agent.key, { content: "Your order shipped", template_params: template });
    expect(res.status).toBe(200);
    expect(res.body.additional_attributes).toEqual({ template_params: template });
  });

  it("names each invalid template field", async () => {
    const id = await open();
    const res = await post(messagesOf(id), world.agent.key, {
      content: "x",
      template_params: {
        name: "",
        category: "PROMO",
        language: "not a language",
        processed_params: { header: { media_url: "ftp://x", media_type: "gif" }, buttons: [{ type: "call" }] },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      [
        "template_params.category",
        "template_params.language",
        "template_params.name",
        "template_params.processed_params.buttons[0].type",
        "template_params.processed_params.header.media_type",
        "template_params.processed_params.header.media_url",
      ].sort(),
    );
    const missing = await post(messagesOf(id), world.agent.key, { content: "x", template_params: { name: "t" } });
    expect(missing.body.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(["template_params.category", "template_params.language", "template_params.processed_params"]),
    );
  });

  it("checks content_attributes items for each content type", async () => {
    const id = await open();
    const none = await post(messagesOf(id), world.agent.key, { content: "Pick one", content_type: "input_select", content_attributes: {} });
    expect(none.body.errors[0]).toMatchObject({ field: "content_attributes.items", code: "items_required" });
    const badCard = await post(messagesOf(id), world.agent.key, { content: "c", content_type: "cards", content_attributes: { items: [{ description: "no title" }] } });
    expect(badCard.body.errors[0].field).toBe("content_attributes.items[0].title");
    const ok = await post(messagesOf(id), world.agent.key, {
      content: "Pick one",
      content_type: "input_select",
      content_attributes: { items: [{ title: "Yes", value: "yes" }] },
    });
    expect(ok.body).toMatchObject({ content_type: "input_select", content_attributes: { items: [{ title: "Yes", value: "yes" }] } });
  });

  it("accepts multipart bodies with booleans and objects as strings", async () => {
    const id = await open();
    const form = new FormData();
    form.append("content", "Internal: check stock");
    form.append("private", "true");
    form.append("content_attributes", JSON.stringify({ in_reply_to: 1 }));
    form.append("echo_id", "temp-1");
    const res = await call("POST", messagesOf(id), { key: world.agent.key, rawBody: form });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ content: "Internal: check stock", private: true, content_attributes: { in_reply_to: 1 }, echo_id: "temp-1" });
  });

  it("requires content", async () => {
    const id = await open();
    const res = await post(messagesOf(id), world.agent.key, {});
    expect(res.body.errors[0]).toMatchObject({ field: "content", code: "required" });
  });
});

describe("listing, updating and deleting messages", () => {
  it("pages newest-first windows with before and after", async () => {
    const id = await open();
    const ids: number[] = [];
    for (let i = 1; i <= 25; i++) ids.push((await post(messagesOf(id), world.agent.key, { content: `m${i}` })).body.id);
    const latest = await get(messagesOf(id), world.agent.key);
    expect(latest.body.payload.map((m: { content: string }) => m.content)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 6}`));
    expect(latest.body.meta).toMatchObject({ labels: [], contact: { id: contactId, type: "contact" }, agent_last_seen_at: null });
    const older = await get(`${messagesOf(id)}?before=${ids[5]}`, world.agent.key);
    expect(older.body.payload.map((m: { id: number }) => m.id)).toEqual(ids.slice(0, 5));
    const newer = await get(`${messagesOf(id)}?after=${ids[22]}`, world.agent.key);
    expect(newer.body.payload.map((m: { id: number }) => m.id)).toEqual(ids.slice(23));
    const between = await get(`${messagesOf(id)}?after=${ids[0]}&before=${ids[3]}`, world.agent.key);
    expect(between.body.payload.map((m: { id: number }) => m.id)).toEqual([ids[1], ids[2]]);
    expect(between.body.meta).not.toHaveProperty("next_cursor");
  });

  it("continues a window by cursor, older by default and newer after `after`, with a Link header", async () => {
    const id = await open();
    const ids: number[] = [];
    for (let i = 1; i <= 45; i++) ids.push((await post(messagesOf(id), world.agent.key, { content: `c${i}` })).body.id);
    const shown = (res: { body: { payload: { id: number }[] } }) => res.body.payload.map((m) => m.id);
    const latest = await get(messagesOf(id), world.agent.key);
    const cursor = latest.body.meta.next_cursor;
    expect(latest.headers.get("link")).toContain(`cursor=${cursor}>; rel="next"`);
    const older = await get(`${messagesOf(id)}?cursor=${cursor}`, world.agent.key);
    expect(shown(older)).toEqual(ids.slice(5, 25));
    const oldest = await get(`${messagesOf(id)}?cursor=${older.body.meta.next_cursor}`, world.agent.key);
    expect(shown(oldest)).toEqual(ids.slice(0, 5));
    expect(oldest.body.meta).not.toHaveProperty("next_cursor");
    expect(oldest.headers.get("link")).toBeNull();
    // newer: `after` windows hold up to 100; with `before` the cursor keeps the upper bound
    const between = await get(`${messagesOf(id)}?after=${ids[0]}&before=${ids[44]}`, world.agent.key);
    expect(shown(between)).toEqual(ids.slice(1, 44));
    expect(between.body.meta).not.toHaveProperty("next_cursor");
    // newer: past the 100 an `after` window holds (test setup: 150 more messages written straight to the database)
    await (await shardOf(world.accountId)).prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 150)
       INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, created_at, updated_at)
       SELECT account_id, inbox_id, conversation_id, 1, 'bulk ' || n, created_at, created_at FROM messages, seq WHERE messages.id = ?1`,
    )
      .bind(ids[44])
      .run();
    const after = await get(`${messagesOf(id)}?after=${ids[44]}`, world.agent.key);
    expect(after.body.payload).toHaveLength(100);
    const rest = await get(`${messagesOf(id)}?after=${ids[44]}&cursor=${after.body.meta.next_cursor}`, world.agent.key);
    expect(rest.body.payload.map((m: { content: string }) => m.content)).toEqual(Array.from({ length: 50 }, (_, i) => `bulk ${i + 101}`));
    expect(rest.body.meta).not.toHaveProperty("next_cursor");
    const bad = await get(`${messagesOf(id)}?cursor=${btoa(JSON.stringify({ s: "-last_activity_at", k: 1, i: 1 })).replace(/=+$/, "")}`, world.agent.key);
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({ field: "cursor", code: "invalid_cursor" });
  });

  it("says what a bound really allows: after=0 is refused as not greater than 0", async () => {
    const id = await open();
    const res = await get(`${messagesOf(id)}?after=0`, world.agent.key);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: "after", message: "must be greater than 0", code: "out_of_range" }]);
  });

  it("updates delivery status in API inboxes only, and soft-deletes", async () => {
    const id = await open();
    const message = (await post(messagesOf(id), world.agent.key, { content: "Hello" })).body;
    const read = await patch(`${messagesOf(id)}/${message.id}`, world.agent.key, { status: "read" });
    expect(read.body.status).toBe("read");
    const back = await patch(`${messagesOf(id)}/${message.id}`, world.agent.key, { status: "delivered" });
    expect(back.body.status).toBe("read");
    const deleted = await del(`${messagesOf(id)}/${message.id}`, world.agent.key);
    expect(deleted.body).toMatchObject({ id: message.id, content: "This message was deleted", content_attributes: { deleted: true }, content_type: "text" });
    const listed = await get(messagesOf(id), world.agent.key);
    expect(listed.body.payload.find((m: { id: number }) => m.id === message.id).content).toBe("This message was deleted");
    expect((await outboxFor(world.accountId, "Message", message.id)).map((e) => e.event)).toEqual(["message_created", "message_updated", "message_updated"]);

    const widget = await open(widgetInbox);
    const w = (await post(messagesOf(widget), world.admin.key, { content: "Hi" })).body;
    expect((await patch(`${messagesOf(widget)}/${w.id}`, world.admin.key, { status: "read" })).status).toBe(403);
    expect((await del(`${messagesOf(id)}/999999`, world.agent.key)).status).toBe(404);
  });
});
