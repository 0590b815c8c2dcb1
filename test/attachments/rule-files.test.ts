/**
 * Automation rule files: attached with POST /automation_rules/attach_file (checked like message files),
 * named by send_attachment, copied to the message a rule sends; and attachments on the public API.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { call, del, get, post } from "../support/http";
import { createWorld } from "../support/world";
import { shardOf } from "../support/databases";
import { createContact } from "../support/fixtures";
import { file, messageForm, postForm, samples } from "../support/files";

const world = await createWorld("Rule Files Co");
const other = await createWorld("Other Rule Files Co");
const { base, admin } = world;
const inbox = (await post(`${base}/inboxes`, admin.key, { name: "Support", channel: { type: "api" } })).body;
const contactId = await createContact(world.accountId, { name: "Casey", email: `casey.${Math.random()}@example.com` });

const attach = (key: string, form: FormData, account = base) => postForm(`${account}/automation_rules/attach_file`, key, form);
const one = (f: File) => {
  const form = new FormData();
  form.append("attachment", f);
  return form;
};

describe("attach_file", () => {
  it("stores a checked file and answers its blob id and a signed URL", async () => {
    const res = await attach(admin.key, one(file(samples.pdf(), "terms.pdf")));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ blob_id: expect.any(Number), filename: "terms.pdf", file_type: "file" });
    const url = new URL(res.body.file_url);
    const served = await call("GET", url.pathname + url.search);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-disposition")).toMatch(/^attachment;/);
  });

  it("refuses a disguised file, a missing file and agents", async () => {
    const bad = await attach(admin.key, one(file(samples.html(), "terms.pdf", "application/pdf")));
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({ field: "attachment[0]", code: "file_type_not_allowed" });
    const none = await call("POST", `${base}/automation_rules/attach_file`, { key: admin.key, body: {} });
    expect(none.status).toBe(422);
    expect(none.body.errors[0]).toMatchObject({ field: "attachment", code: "required" });
    expect((await attach(world.agent.key, one(file(samples.pdf(), "x.pdf")))).status).toBe(403);
  });
});

describe("send_attachment", () => {
  it("sends the rule's file as a new message's own file", async () => {
    const blob = (await attach(admin.key, one(file(samples.png(), "welcome.png")))).body;
    const rule = await post(`${base}/automation_rules`, admin.key, {
      name: "Welcome picture",
      event_name: "conversation_created",
      conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open", "pending"], query_operator: null }],
      actions: [{ action_name: "send_attachment", action_params: [blob.blob_id] }],
    });
    expect(rule.status).toBe(200);
    const conversation = (await post(`${base}/conversations`, admin.key, { inbox_id: inbox.id, contact_id: contactId })).body.id;
    const sent = async () => (await get(`${base}/conversations/${conversation}/messages`, admin.key)).body.payload.find((m: any) => m.attachments);
    await vi.waitUntil(sent, { timeout: 10_000, interval: 50 });
    const message = await sent();
    expect(message).toMatchObject({ message_type: 1, content_attributes: { automation_rule_id: rule.body.payload[0].id } });
    expect(message.attachments[0]).toMatchObject({ file_type: "image", width: 640, height: 480 });
    const url = new URL(message.attachments[0].data_url);
    const bytes = new Uint8Array(await (await exports.default.fetch(new Request(`https://desk.test${url.pathname}${url.search}`))).arrayBuffer());
    expect([...bytes]).toEqual([...samples.png()]);

    // the message's copy is its own: deleting the message keeps the rule's file
    await del(`${base}/conversations/${conversation}/messages/${message.id}`, admin.key);
    const ruleFile = await (await shardOf(world.accountId)).prepare("SELECT storage_key FROM automation_rule_files WHERE id = ?").bind(blob.blob_id).first<{ storage_key: string }>();
    expect(await env.FILES.head(ruleFile!.storage_key)).not.toBeNull();
  });

  it("cannot name another account's file", async () => {
    const blob = (await attach(other.admin.key, one(file(samples.pdf(), "theirs.pdf")), other.base)).body;
    const res = await post(`${base}/automation_rules`, admin.key, {
      name: "Steal",
      event_name: "conversation_created",
      conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }],
      actions: [{ action_name: "send_attachment", action_params: [blob.blob_id] }],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ field: "actions[0].action_params[0]", code: "not_found" });
  });
});

describe("the public API", () => {
  it("takes attachments on a contact's message, checked the same way", async () => {
    const identifier = inbox.inbox_identifier as string;
    const contact = (await post(`/public/api/v1/inboxes/${identifier}/contacts`, null, { name: "Visitor" })).body;
    const conversation = (await post(`/public/api/v1/inboxes/${identifier}/contacts/${contact.source_id}/conversations`, null, {})).body;
    const path = `/public/api/v1/inboxes/${identifier}/contacts/${contact.source_id}/conversations/${conversation.id}/messages`;
    const res = await postForm(path, null, messageForm([file(samples.jpeg(), "receipt.jpg")], { content: "my receipt" }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ content: "my receipt", message_type: 0, attachments: [{ file_type: "image", width: 300, height: 200 }] });
    const onlyFile = await postForm(path, null, messageForm([file(samples.mp3(), "voice.mp3")]));
    expect(onlyFile.status).toBe(200);
    expect(onlyFile.body.attachments[0].file_type).toBe("audio");
    const refused = await postForm(path, null, messageForm([file(samples.svg(), "x.png", "image/png")]));
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ field: "attachments[0]", code: "file_type_not_allowed" });
    const list = await get(`${base}/conversations/${conversation.id}/attachments`, admin.key);
    // (the rule of the test above sends its picture to this new conversation as well)
    expect(list.body.payload.filter((a: any) => a.sender?.type === "contact").map((a: any) => a.extension)).toEqual(["mp3", "jpg"]);
  });
});
