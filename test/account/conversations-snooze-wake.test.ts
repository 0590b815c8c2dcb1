/** A snoozed conversation reopens by itself once its snoozed_until has passed. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { wakeSnoozedConversations } from "../../src/domain/conversations/snoozes";
import { jobScope } from "../../src/jobs/scope";
import { conversationRowId, createContact, createContactInbox, createInbox, outboxFor } from "../support/fixtures";
import { shardOf } from "../support/databases";
import { get, post } from "../support/http";
import { createWorld } from "../support/world";

const world = await createWorld("Snooze Co");
const inboxId = await createInbox(world.accountId);

async function snoozedConversation(untilSeconds: number | null) {
  const contactId = await createContact(world.accountId, { email: `c${Math.random()}@example.com` });
  const { sourceId } = await createContactInbox(world.accountId, contactId, inboxId);
  const created = await post(`${world.base}/conversations`, world.admin.key, { source_id: sourceId });
  const id = created.body.id;
  const body = untilSeconds === null ? { status: "snoozed" } : { status: "snoozed", snoozed_until: untilSeconds };
  expect((await post(`${world.base}/conversations/${id}/toggle_status`, world.admin.key, body)).status).toBe(200);
  return id;
}

describe("the scheduled wake-up", () => {
  it("reopens conversations whose snooze has ended, and only those", async () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const due = await snoozedConversation(nowSeconds + 60);
    const later = await snoozedConversation(nowSeconds + 3600);
    const untilNextMessage = await snoozedConversation(null);
    const before = await get(`${world.base}/conversations/meta?status=snoozed`, world.admin.key);
    expect(before.body.meta.all_count).toBe(3);

    const woke = await wakeSnoozedConversations(jobScope(createDb(await shardOf(world.accountId)), env), (nowSeconds + 120) * 1000);
    expect(woke).toBe(1);

    const reopened = await get(`${world.base}/conversations/${due}`, world.admin.key);
    expect(reopened.body).toMatchObject({ status: "open", snoozed_until: null });
    expect((await get(`${world.base}/conversations/${later}`, world.admin.key)).body.status).toBe("snoozed");
    expect((await get(`${world.base}/conversations/${untilNextMessage}`, world.admin.key)).body.status).toBe("snoozed");
    const after = await get(`${world.base}/conversations/meta?status=snoozed`, world.admin.key);
    expect(after.body.meta.all_count).toBe(2);

    const events = (await outboxFor(world.accountId, "Conversation", await conversationRowId(world.accountId, due))).map((e) => e.event);
    expect(events).toEqual(expect.arrayContaining(["conversation_status_changed", "conversation_opened"]));
  });
});
