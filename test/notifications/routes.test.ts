/**
 * The notification routes (Chatwoot's NotificationsController and NotificationSettingsController): a
 * user's own notifications in one account, listed, counted, read, snoozed and deleted; every refusal is
 * the error body and changes nothing.
 */
import { describe, expect, it } from "vitest";
import { call, del, get, patch, post, put } from "../support/http";
import { addToAccount, createUser, createWorld, type Person } from "../support/world";
import { shardOf } from "../support/databases";
import { addInboxMember, createContact, createInbox } from "../support/fixtures";

const world = await createWorld("Bell Co");
/** The database holding this account's rows. */
const shard = await shardOf(world.accountId);
const { base, admin, agent } = world;
const inbox = await createInbox(world.accountId, { name: "Desk" });
const colleague = await createUser(world.platformKey, "Colleague");
await addToAccount(world.platformKey, world.accountId, colleague.id, "agent");
for (const person of [agent, colleague]) {
  await addInboxMember(world.accountId, inbox, person.id);
  const res = await put(`${base}/notification_settings`, person.key, { notification_settings: { selected_push_flags: ["push_conversation_creation"] } });
  expect(res.status).toBe(200);
}
const contactId = await createContact(world.accountId);

/** Opens a conversation as the administrator: the agent and the colleague each get a notification. */
async function openConversation() {
  const res = await post(`${base}/conversations`, admin.key, { inbox_id: inbox, contact_id: contactId });
  expect(res.status).toBe(200);
  return res.body.id as number;
}
const list = async (person: Person, query = "") => {
  const res = await get(`${base}/notifications${query}`, person.key);
  expect(res.status).toBe(200);
  return res.body.data as { meta: { unread_count: number; count: number; current_page: number | string }; payload: Array<Record<string, any>> };
};
const unreadCount = async (person: Person) => (await get(`${base}/notifications/unread_count`, person.key)).body as number;
const stored = (id: number) => shard.prepare("SELECT * FROM notifications WHERE id = ?").bind(id).first<Record<string, any>>();
const eventsOf = async (id: number) =>
  (await shard.prepare("SELECT event_name, data FROM event_outbox WHERE subject_type = 'Notification' AND subject_id = ? ORDER BY id").bind(id).all<{ event_name: string; data: string }>()).results.map((r) => [
    r.event_name,
    JSON.parse(r.data),
  ]);

const conversations: number[] = [];
for (let i = 0; i < 17; i++) conversations.push(await openConversation());

describe("GET /notifications", () => {
  it("answers Chatwoot's envelope: 15 a page, newest first, the unread count and count, the page given", async () => {
    const first = await list(agent);
    expect(first.meta).toEqual({ unread_count: 17, count: 17, current_page: 1 });
    expect(first.payload).toHaveLength(15);
    expect(first.payload[0].primary_actor.id).toBe(conversations[16]);
    const n = first.payload[0];
    expect(n).toMatchObject({
      notification_type: "conversation_creation",
      primary_actor_type: "Conversation",
      read_at: null,
      snoozed_until: null,
      user: { id: agent.id, type: "user" },
      account_id: world.accountId,
      meta: {},
    });
    expect(n.primary_actor).toMatchObject({ id: conversations[16], inbox_id: inbox, meta: { sender: { id: contactId } } });
    expect(typeof n.created_at).toBe("number");
    expect(typeof n.last_activity_at).toBe("number");
    const second = await list(agent, "?page=2");
    expect(second.meta.current_page).toBe("2");
    expect(second.payload.map((x) => x.primary_actor.id)).toEqual([conversations[1], conversations[0]]);
    const oldest = await list(agent, "?sort_order=asc");
    expect(oldest.payload[0].primary_actor.id).toBe(conversations[0]);
  });

  it("shows only the caller's own notifications", async () => {
    const mine = await list(agent);
    const theirs = await list(colleague);
    const ids = new Set(mine.payload.map((x) => x.id));
    expect(theirs.payload.some((x) => ids.has(x.id))).toBe(false);
    expect((await list(admin)).meta.count).toBe(0);
  });

  it("refuses a bad sort order or page with the error body", async () => {
    for (const query of ["?sort_order=sideways", "?page=0", "?page=abc"]) {
      const res = await get(`${base}/notifications${query}`, agent.key);
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ field: query.includes("sort") ? "sort_order" : "page" });
    }
  });
});

describe("reading, snoozing, deleting one notification", () => {
  it("PATCH marks it read (hidden unless includes[]=read), unread brings it back, each with notification_updated", async () => {
    const [n] = (await list(agent)).payload;
    const before = await unreadCount(agent);
    const read = await patch(`${base}/notifications/${n.id}`, agent.key, {});
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: n.id, user_id: agent.id, notification_type: "conversation_creation", primary_actor_type: "Conversation" });
    expect(typeof read.body.read_at).toBe("string");
    expect(await unreadCount(agent)).toBe(before - 1);
    expect((await list(agent)).payload.some((x) => x.id === n.id)).toBe(false);
    const withRead = await list(agent, "?includes[]=read");
    expect(withRead.payload.find((x) => x.id === n.id)?.read_at).toBe(read.body.read_at);
    const unread = await post(`${base}/notifications/${n.id}/unread`, agent.key);
    expect(unread.status).toBe(200);
    expect(unread.body.read_at).toBeNull();
    expect(await unreadCount(agent)).toBe(before);
    expect((await eventsOf(n.id)).map(([name]) => name)).toEqual(["notification_created", "notification_updated", "notification_updated"]);
  });

  it("snooze hides it until the time given (Unix seconds); includes[]=snoozed shows it", async () => {
    const [n] = (await list(agent)).payload;
    const until = Math.floor(Date.now() / 1000) + 3600;
    const res = await post(`${base}/notifications/${n.id}/snooze`, agent.key, { snoozed_until: until });
    expect(res.status).toBe(200);
    expect(res.body.snoozed_until).toBe(new Date(until * 1000).toISOString());
    expect(res.body.meta).toEqual({ last_snoozed_at: null });
    expect((await list(agent)).payload.some((x) => x.id === n.id)).toBe(false);
    expect((await list(agent, "?includes[]=snoozed")).payload.find((x) => x.id === n.id)?.snoozed_until).toBe(new Date(until * 1000).toISOString());
    // a snooze whose time has passed hides it no longer
    const past = await post(`${base}/notifications/${n.id}/snooze`, agent.key, { snoozed_until: Math.floor(Date.now() / 1000) - 10 });
    expect(past.status).toBe(200);
    expect((await list(agent)).payload.some((x) => x.id === n.id)).toBe(true);
  });

  it("DELETE removes it with notification_deleted", async () => {
    const [n] = (await list(colleague)).payload;
    const res = await del(`${base}/notifications/${n.id}`, colleague.key);
    expect(res.status).toBe(200);
    expect(await stored(n.id)).toBeNull();
    expect((await eventsOf(n.id)).at(-1)).toEqual(["notification_deleted", { user_id: colleague.id, notification_id: n.id }]);
    expect((await del(`${base}/notifications/${n.id}`, colleague.key)).status).toBe(404);
  });

  it("another user's notification is unknown: 404 and nothing changes", async () => {
    const [n] = (await list(colleague)).payload;
    const before = await stored(n.id);
    for (const res of [
      await patch(`${base}/notifications/${n.id}`, agent.key, {}),
      await post(`${base}/notifications/${n.id}/unread`, agent.key),
      await post(`${base}/notifications/${n.id}/snooze`, agent.key, { snoozed_until: 2_000_000_000 }),
      await del(`${base}/notifications/${n.id}`, agent.key),
      await patch(`${base}/notifications/${n.id}`, admin.key, {}),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.errors[0]).toMatchObject({ field: "id", code: "not_found" });
    }
    expect(await stored(n.id)).toEqual(before);
  });

  it("refuses bad ids and bodies with the error body, changing nothing", async () => {
    const [n] = (await list(agent)).payload;
    const before = await stored(n.id);
    const bad = [
      await patch(`${base}/notifications/abc`, agent.key, {}),
      await post(`${base}/notifications/${n.id}/snooze`, agent.key, {}),
      await post(`${base}/notifications/${n.id}/snooze`, agent.key, { snoozed_until: "tomorrow" }),
      await post(`${base}/notifications/read_all`, agent.key, { primary_actor_type: "Conversation" }),
      await post(`${base}/notifications/read_all`, agent.key, { primary_actor_type: "Message", primary_actor_id: 1 }),
    ];
    for (const res of bad) {
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ description: expect.any(String), errors: [expect.objectContaining({ field: expect.any(String), code: expect.any(String) })] });
    }
    const malformed = await call("POST", `${base}/notifications/${n.id}/snooze`, { key: agent.key, rawBody: "{not json", headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect(await stored(n.id)).toEqual(before);
  });
});

describe("read_all and destroy_all", () => {
  it("read_all with a primary actor reads that conversation's notifications only", async () => {
    const target = (await list(colleague)).payload[0];
    const before = await unreadCount(colleague);
    const res = await post(`${base}/notifications/read_all`, colleague.key, { primary_actor_type: "Conversation", primary_actor_id: target.primary_actor_id });
    expect(res.status).toBe(200);
    expect(await unreadCount(colleague)).toBe(before - 1);
    expect((await stored(target.id))!.read_at).not.toBeNull();
    expect((await eventsOf(target.id)).at(-1)).toEqual(["notification_updated", { user_id: colleague.id }]);
  });

  it("read_all reads all of the caller's, not another user's", async () => {
    const agentBefore = await unreadCount(agent);
    expect(agentBefore).toBeGreaterThan(0);
    expect((await post(`${base}/notifications/read_all`, colleague.key, {})).status).toBe(200);
    expect(await unreadCount(colleague)).toBe(0);
    expect(await unreadCount(agent)).toBe(agentBefore);
    const meta = (await list(colleague, "?includes[]=read")).meta;
    expect(meta).toMatchObject({ unread_count: 0 });
    expect(meta.count).toBeGreaterThan(0);
  });

  it("destroy_all with type read deletes the read ones; without, all of them; never another user's", async () => {
    const agentCount = (await list(agent, "?includes[]=read&includes[]=snoozed")).meta.count;
    const [one] = (await list(colleague, "?includes[]=read")).payload;
    expect((await post(`${base}/notifications/${one.id}/unread`, colleague.key)).status).toBe(200);
    expect((await post(`${base}/notifications/destroy_all`, colleague.key, { type: "read" })).status).toBe(200);
    const left = await list(colleague, "?includes[]=read&includes[]=snoozed");
    expect(left.payload.map((x) => x.id)).toEqual([one.id]);
    expect((await post(`${base}/notifications/destroy_all`, colleague.key, {})).status).toBe(200);
    expect((await list(colleague, "?includes[]=read&includes[]=snoozed")).meta.count).toBe(0);
    expect((await eventsOf(one.id)).at(-1)).toEqual(["notification_deleted", { user_id: colleague.id, notification_id: one.id }]);
    expect((await list(agent, "?includes[]=read&includes[]=snoozed")).meta.count).toBe(agentCount);
  });
});

describe("a deleted conversation", () => {
  it("takes its notifications (each with notification_deleted) and participants with it", async () => {
    const id = await openConversation();
    expect((await post(`${base}/conversations/${id}/participants`, admin.key, { user_ids: [agent.id] })).status).toBe(200);
    const n = (await list(agent)).payload.find((x) => x.primary_actor.id === id)!;
    expect((await call("DELETE", `${base}/conversations/${id}`, { key: admin.key })).status).toBe(200);
    expect(await stored(n.id)).toBeNull();
    expect((await eventsOf(n.id)).at(-1)).toEqual(["notification_deleted", { user_id: agent.id, notification_id: n.id }]);
    const left = await shard.prepare("SELECT count(*) AS n FROM conversation_participants WHERE conversation_id = ?").bind(n.primary_actor_id).first<{ n: number }>();
    expect(left!.n).toBe(0);
  });
});

describe("a user who leaves the account", () => {
  it("leaves no notifications, settings or participations behind", async () => {
    const leaver = await createUser(world.platformKey, "Leaver");
    await addToAccount(world.platformKey, world.accountId, leaver.id, "agent");
    await addInboxMember(world.accountId, inbox, leaver.id);
    expect((await put(`${base}/notification_settings`, leaver.key, { notification_settings: { selected_push_flags: ["push_conversation_creation"] } })).status).toBe(200);
    const id = await openConversation();
    expect((await post(`${base}/conversations/${id}/participants`, admin.key, { user_ids: [leaver.id] })).status).toBe(200);
    expect((await list(leaver)).meta.count).toBe(1);
    const removed = await del(`/platform/api/v1/accounts/${world.accountId}/account_users`, world.platformKey, { user_id: leaver.id });
    expect(removed.status).toBe(200);
    const count = async (table: string) =>
      (await shard.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`).bind(leaver.id).first<{ n: number }>())!.n;
    expect([await count("notifications"), await count("notification_settings"), await count("conversation_participants")]).toEqual([0, 0, 0]);
  });
});

describe("keys and accounts", () => {
  it("no key is a 401, another account's user a 403, an agent bot key a 403", async () => {
    const other = await createWorld("Other Bell");
    const paths: Array<[string, string]> = [
      ["GET", "/notifications"],
      ["GET", "/notifications/unread_count"],
      ["POST", "/notifications/read_all"],
      ["POST", "/notifications/destroy_all"],
      ["PATCH", "/notifications/1"],
      ["POST", "/notifications/1/unread"],
      ["POST", "/notifications/1/snooze"],
      ["DELETE", "/notifications/1"],
      ["GET", "/notification_settings"],
      ["PUT", "/notification_settings"],
    ];
    const bot = await post(`${base}/agent_bots`, admin.key, { name: "Bell bot" });
    expect(bot.status).toBe(200);
    for (const [method, path] of paths) {
      const body = method === "GET" ? undefined : {};
      const none = await call(method, `${base}${path}`, { key: null, body });
      expect(none.status).toBe(401);
      expect(none.body.errors[0].code).toBe("missing_key");
      const stranger = await call(method, `${base}${path}`, { key: other.agent.key, body });
      expect(stranger.status).toBe(403);
      const botCall = await call(method, `${base}${path}`, { key: bot.body.access_token, body });
      expect(botCall.status).toBe(403);
    }
  });
});

describe("notification settings", () => {
  it("start as Chatwoot's defaults (assignments) and list every flag", async () => {
    const res = await get(`${base}/notification_settings`, admin.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      user_id: admin.id,
      account_id: world.accountId,
      all_email_flags: [
        "email_conversation_creation",
        "email_conversation_assignment",
        "email_assigned_conversation_new_message",
        "email_conversation_mention",
        "email_participating_conversation_new_message",
      ],
      selected_email_flags: ["email_conversation_assignment"],
      all_push_flags: [
        "push_conversation_creation",
        "push_conversation_assignment",
        "push_assigned_conversation_new_message",
        "push_conversation_mention",
        "push_participating_conversation_new_message",
      ],
      selected_push_flags: ["push_conversation_assignment"],
    });
    expect((await get(`${base}/notification_settings`, admin.key)).body.id).toBe(res.body.id);
  });

  it("PUT replaces the kinds given and keeps the other", async () => {
    const res = await put(`${base}/notification_settings`, admin.key, { notification_settings: { selected_email_flags: ["email_conversation_mention", "email_conversation_creation"] } });
    expect(res.status).toBe(200);
    expect(res.body.selected_email_flags).toEqual(["email_conversation_creation", "email_conversation_mention"]);
    expect(res.body.selected_push_flags).toEqual(["push_conversation_assignment"]);
    // settings are per account: the agent's in this account are theirs alone
    expect((await get(`${base}/notification_settings`, agent.key)).body.selected_push_flags).toEqual(["push_conversation_creation"]);
  });

  it("refuses unknown flags and a missing wrapper with the error body, changing nothing", async () => {
    const before = (await get(`${base}/notification_settings`, admin.key)).body;
    for (const body of [
      { notification_settings: { selected_email_flags: ["push_conversation_creation"] } },
      { notification_settings: { selected_push_flags: "push_conversation_creation" } },
      { notification_settings: {} },
      { selected_email_flags: [] },
    ]) {
      const res = await put(`${base}/notification_settings`, admin.key, body);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].field).toMatch(/^notification_settings/);
    }
    expect((await get(`${base}/notification_settings`, admin.key)).body).toEqual(before);
  });
});
