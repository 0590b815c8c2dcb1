/**
 * What the live feed gets of notifications: the outbox events the changes write, the payload rendered
 * from them (`notificationFeedData` + `notificationFeedPayload`, Chatwoot's `{notification, unread_count,
 * count}`), and that webhooks never receive them.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { systemScope } from "../../src/domain/kernel/scope";
import { notificationFeedData } from "../../src/domain/notifications/notifications";
import { fanOut } from "../../src/jobs/fan-out";
import { jobScope } from "../../src/jobs/scope";
import { notificationFeedPayload } from "../../src/views/notifications";
import { del, get, post, put } from "../support/http";
import { createWorld } from "../support/world";
import { shardOf } from "../support/databases";
import { addInboxMember, createContact, createInbox } from "../support/fixtures";
import { WEBHOOK_EVENTS } from "../../src/domain/settings/webhooks";

const world = await createWorld("Feed Co");
const { base, admin, agent } = world;
const inbox = await createInbox(world.accountId, { name: "Feed desk" });
await addInboxMember(world.accountId, inbox, agent.id);
await put(`${base}/notification_settings`, agent.key, { notification_settings: { selected_push_flags: ["push_conversation_creation", "push_conversation_mention"] } });
const contactId = await createContact(world.accountId);
const shard = await shardOf(world.accountId);
const db = createDb(shard);
const scope = systemScope(jobScope(db, env), world.accountId);

type OutboxRow = { id: number; event_name: string; subject_type: string; subject_id: number; data: string };
/** This account's outbox rows of one event (other files' accounts share the database). */
const outbox = async (eventName: string) =>
  (
    await shard.prepare("SELECT id, event_name, subject_type, subject_id, data FROM event_outbox WHERE account_id = ? AND event_name = ? ORDER BY id")
      .bind(world.accountId, eventName)
      .all<OutboxRow>()
  ).results;

describe("the feed's notification events", () => {
  it("render Chatwoot's payload for a created and a deleted notification, with the user's totals", async () => {
    const conversation = await post(`${base}/conversations`, admin.key, { inbox_id: inbox, contact_id: contactId });
    expect(conversation.status).toBe(200);
    const [created] = (await outbox("notification_created")).slice(-1);
    const userId = JSON.parse(created.data).user_id as number;
    expect(userId).toBe(agent.id);
    const payload = notificationFeedPayload(await notificationFeedData(scope, created.subject_id, userId), created.subject_id, world.accountId);
    expect(payload).toMatchObject({
      notification: {
        id: created.subject_id,
        notification_type: "conversation_creation",
        primary_actor_type: "Conversation",
        primary_actor: { id: conversation.body.id, inbox_id: inbox, meta: expect.any(Object) },
        push_message_title: `[New conversation] - #${conversation.body.id} has been created in Feed desk`,
        read_at: null,
        user: { id: agent.id },
      },
      unread_count: 1,
      count: 1,
      account_id: world.accountId,
    });
    // the list shows the same notification as the feed
    expect((await get(`${base}/notifications`, agent.key)).body.data.payload[0]).toEqual(payload.notification);

    expect((await del(`${base}/notifications/${created.subject_id}`, agent.key)).status).toBe(200);
    const [deleted] = (await outbox("notification_deleted")).slice(-1);
    expect(JSON.parse(deleted.data)).toEqual({ user_id: agent.id, notification_id: created.subject_id });
    const gone = notificationFeedPayload(await notificationFeedData(scope, deleted.subject_id, agent.id), deleted.subject_id, world.accountId);
    expect(gone).toEqual({ notification: { id: created.subject_id }, unread_count: 0, count: 0, account_id: world.accountId });
  });

  it("are never delivered to webhooks, even one subscribed to every event", async () => {
    const hook = await post(`${base}/webhooks`, admin.key, { url: "https://hooks.example.com/all", subscriptions: [...WEBHOOK_EVENTS] });
    expect(hook.status).toBe(200);
    const conversation = await post(`${base}/conversations`, admin.key, { inbox_id: inbox, contact_id: contactId });
    await post(`${base}/conversations/${conversation.body.id}/messages`, admin.key, { content: `[@Agent](mention://user/${agent.id}/Agent)`, private: true });
    const n = (await get(`${base}/notifications`, agent.key)).body.data.payload[0];
    expect((await post(`${base}/notifications/${n.id}/unread`, agent.key)).status).toBe(200);
    const feedOnly = [
      ...(await outbox("notification_created")),
      ...(await outbox("notification_updated")),
      ...(await outbox("notification_deleted")),
      ...(await outbox("conversation_mentioned")),
    ];
    expect(new Set(feedOnly.map((e) => e.event_name))).toEqual(new Set(["notification_created", "notification_updated", "notification_deleted", "conversation_mentioned"]));
    for (const event of feedOnly) expect(await fanOut(db, env, { accountId: world.accountId, eventId: event.id })).toEqual([]);
    const mentioned = await outbox("conversation_mentioned");
    expect(mentioned.map((e) => JSON.parse(e.data))).toEqual([{ user_id: agent.id }]);
  });
});
