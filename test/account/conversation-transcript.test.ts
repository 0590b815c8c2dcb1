import { beforeAll, describe, expect, it } from "vitest";
import { createContact, createInbox } from "../support/fixtures";
import { shardOf } from "../support/databases";
import { call, post } from "../support/http";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let other: World;
let displayId: number;

type Mail = { kind: string; recipients: string; subject: string; body: string; status: string; conversation_id: number; automation_rule_id: number | null };

/** The account's recorded mail: what a refusal must leave alone. */
async function mails(accountId: number) {
  const { results } = await (await shardOf(accountId)).prepare("SELECT kind, recipients, subject, body, status, conversation_id, automation_rule_id FROM outgoing_emails WHERE account_id = ? ORDER BY id")
    .bind(accountId)
    .all<Mail>();
  return results;
}

beforeAll(async () => {
  world = await createWorld("Transcripts");
  other = await createWorld("Elsewhere");
  const inbox = await createInbox(world.accountId);
  const contact = await createContact(world.accountId, { name: "Dana <Customer>" });
  const conversation = await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inbox, contact_id: contact });
  displayId = conversation.body.id;
  for (const body of [
    { content: "My order is late", message_type: "incoming" },
    { content: "Sorry! It ships today.", message_type: "outgoing" },
    { content: "internal: check the warehouse", private: true },
  ]) {
    expect((await post(`${world.base}/conversations/${displayId}/messages`, world.admin.key, body)).status).toBe(200);
  }
});

describe("POST /conversations/:id/transcript", () => {
  it("records a transcript mail of the public messages, oldest first, with sender and time", async () => {
    const before = (await mails(world.accountId)).length;
    const res = await call("POST", `${world.base}/conversations/${displayId}/transcript`, { key: world.admin.key, body: { email: "Boss@Example.com" } });
    expect(res.status).toBe(200);
    const recorded = (await mails(world.accountId)).slice(before);
    expect(recorded).toHaveLength(1);
    const conversationRow = await (await shardOf(world.accountId)).prepare("SELECT id FROM conversations WHERE account_id = ? AND display_id = ?").bind(world.accountId, displayId).first<{ id: number }>();
    expect(recorded[0]).toMatchObject({
      kind: "transcript",
      recipients: JSON.stringify(["boss@example.com"]),
      subject: `Transcript of conversation #${displayId}`,
      status: "pending",
      conversation_id: conversationRow!.id,
      automation_rule_id: null,
    });
    const lines = recorded[0].body.split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d{4}-\d\d-\d\dT[^\]]+\] Dana <Customer>: My order is late$/);
    expect(lines[1]).toMatch(/^\[\d{4}-\d\d-\d\dT[^\]]+\] .+: Sorry! It ships today\.$/);
    expect(recorded[0].body).not.toContain("warehouse");
  });

  it("refuses a missing or malformed address with a 422 on email, recording nothing", async () => {
    const before = await mails(world.accountId);
    for (const body of [{}, { email: "" }, { email: "not an address" }, { email: 42 }, { email: ["a@example.com"] }]) {
      const res = await post(`${world.base}/conversations/${displayId}/transcript`, world.admin.key, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].field).toBe("email");
    }
    expect(await mails(world.accountId)).toEqual(before);
  });

  it("is 403 for an agent outside the conversation's inbox or a member of another account, 404 for an unknown conversation, 401 without a key", async () => {
    const before = await mails(world.accountId);
    const body = { email: "someone@example.com" };
    expect((await post(`${world.base}/conversations/${displayId}/transcript`, world.agent.key, body)).status).toBe(403);
    expect((await post(`${world.base}/conversations/999999/transcript`, world.admin.key, body)).status).toBe(404);
    // the display id means nothing in the other account, and the other account's key opens nothing here
    expect((await post(`${other.base}/conversations/${displayId}/transcript`, other.admin.key, body)).status).toBe(404);
    expect((await post(`${world.base}/conversations/${displayId}/transcript`, other.admin.key, body)).status).toBe(403);
    expect((await post(`${world.base}/conversations/${displayId}/transcript`, null, body)).status).toBe(401);
    expect(await mails(world.accountId)).toEqual(before);
  });
});
