import { beforeAll, describe, expect, it } from "vitest";
import { createContact, createInbox, outboxFor } from "../support/fixtures";
import { shardOf } from "../support/databases";
import { patch, post } from "../support/http";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let other: World;
let displayId: number;

const stored = async (id: number) =>
  (await shardOf(world.accountId)).prepare("SELECT status, content_attributes FROM messages WHERE account_id = ? AND id = ?").bind(world.accountId, id).first<{ status: number; content_attributes: string }>();

beforeAll(async () => {
  world = await createWorld("Retries");
  other = await createWorld("Elsewhere");
  const inbox = await createInbox(world.accountId);
  const contact = await createContact(world.accountId);
  displayId = (await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inbox, contact_id: contact })).body.id;
});

async function failedMessage(content: string) {
  const message = (await post(`${world.base}/conversations/${displayId}/messages`, world.admin.key, { content, message_type: "outgoing" })).body;
  const failed = await patch(`${world.base}/conversations/${displayId}/messages/${message.id}`, world.admin.key, { status: "failed", external_error: "callback refused" });
  expect(failed.body).toMatchObject({ status: "failed", content_attributes: { external_error: "callback refused" } });
  return message.id as number;
}

describe("POST .../messages/:id/retry", () => {
  it("sets a failed message back to sent, drops its error and emits message_updated for the inbox's callback", async () => {
    const id = await failedMessage("Your parcel is on its way");
    const eventsBefore = (await outboxFor(world.accountId, "Message", id)).length;
    const res = await post(`${world.base}/conversations/${displayId}/messages/${id}/retry`, world.admin.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: "sent", content: "Your parcel is on its way" });
    expect(res.body.content_attributes?.external_error).toBeUndefined();
    expect(JSON.parse((await stored(id))!.content_attributes).external_error).toBeUndefined();
    const events = (await outboxFor(world.accountId, "Message", id)).slice(eventsBefore);
    expect(events.map((e) => e.event)).toEqual(["message_updated"]);
    expect(JSON.stringify(events[0].data)).toContain('"current_value":"sent"');
  });

  it("answers 422 not_failed for a message that has not failed, changing nothing", async () => {
    const message = (await post(`${world.base}/conversations/${displayId}/messages`, world.admin.key, { content: "Fine", message_type: "outgoing" })).body;
    const before = await stored(message.id);
    const eventsBefore = (await outboxFor(world.accountId, "Message", message.id)).length;
    const res = await post(`${world.base}/conversations/${displayId}/messages/${message.id}/retry`, world.admin.key);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ field: "message_id", code: "not_failed" });
    expect(await stored(message.id)).toEqual(before);
    expect((await outboxFor(world.accountId, "Message", message.id)).length).toBe(eventsBefore);
  });

  it("is 404 for an unknown message, 403 for an agent outside the inbox or another account's member, changing nothing", async () => {
    const id = await failedMessage("Still failed");
    const before = await stored(id);
    expect((await post(`${world.base}/conversations/${displayId}/messages/999999999/retry`, world.admin.key)).status).toBe(404);
    expect((await post(`${world.base}/conversations/${displayId}/messages/${id}/retry`, world.agent.key)).status).toBe(403);
    expect((await post(`${world.base}/conversations/${displayId}/messages/${id}/retry`, other.admin.key)).status).toBe(403);
    expect((await post(`${other.base}/conversations/${displayId}/messages/${id}/retry`, other.admin.key)).status).toBe(404);
    expect((await post(`${world.base}/conversations/${displayId}/messages/${id}/retry`, null)).status).toBe(401);
    expect(await stored(id)).toEqual(before);
  });
});

describe("POST .../messages/:id/translate", () => {
  it("answers 422 no_translation_provider for a message that exists, and 404 for one that does not", async () => {
    const message = (await post(`${world.base}/conversations/${displayId}/messages`, world.admin.key, { content: "Hola", message_type: "outgoing" })).body;
    const before = await stored(message.id);
    const res = await post(`${world.base}/conversations/${displayId}/messages/${message.id}/translate`, world.admin.key, { target_language: "en" });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: "no_translation_provider" });
    expect(res.body.description).toMatch(/translation provider/);
    expect(await stored(message.id)).toEqual(before);
    const missing = await post(`${world.base}/conversations/${displayId}/messages/999999999/translate`, world.admin.key, { target_language: "en" });
    expect(missing.status).toBe(404);
    expect((await post(`${world.base}/conversations/${displayId}/messages/${message.id}/translate`, world.agent.key, {})).status).toBe(403);
  });
});
