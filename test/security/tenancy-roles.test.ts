/**
 * Permissions inside one account: agents on administrators' routes, agents and the inboxes they are not
 * members of, saved filters of other users, and the keys and secrets an agent must never see.
 */
import { describe, expect, it } from "vitest";
import { del, get, patch, post } from "../support/http";
import { addToAccount } from "../support/world";
import { buildTenant, catalogue, send, snapshot } from "./tenant";

const A = await buildTenant("Acme", "acme", 1);
const B = await buildTenant("Globex", "globex", 1);
let before = await snapshot(A);
const expectAUnchanged = async () => expect(await snapshot(A)).toEqual(before);

describe("an agent on administrators' routes", () => {
  const adminOnly = catalogue(A).filter((r) => r.admin);
  it.each(adminOnly.map((r) => [r.name, r] as const))("%s answers 403", async (_, route) => {
    for (const key of [A.agent.key, A.outsider.key]) {
      const res = await send(key, route);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.errors[0].code).toBe("administrator_required");
    }
  });
  it("changed nothing", expectAUnchanged);

  it("is judged by its role in the account it calls, not in another account", async () => {
    // B's administrator is only an agent of A
    const added = await post(`${A.base}/agents`, A.admin.key, { name: "Globex Admin", email: B.admin.email, role: "agent" });
    expect(added.body.id).toBe(B.admin.id);
    const res = await patch(A.base, B.admin.key, { name: "Taken over" });
    expect(res.status).toBe(403);
    expect((await post(`${A.base}/webhooks`, B.admin.key, { url: "https://globex.example.com/spy" })).status).toBe(403);
    expect((await del(`${A.base}/inboxes/${A.inbox.id}`, B.admin.key)).status).toBe(403);
    await del(`${A.base}/agents/${B.admin.id}`, A.admin.key);
    await expectAUnchanged();
  });
});

describe("an agent and the inboxes it is not a member of", () => {
  const hidden = () => `${A.base}/conversations/${A.hiddenConversationId}`;
  const visible = () => `${A.base}/conversations/${A.conversationId}`;

  it("does not see the inbox in the list, and cannot read it or its members", async () => {
    const list = await get(`${A.base}/inboxes`, A.agent.key);
    expect(list.body.payload.map((i: { id: number }) => i.id)).toEqual([A.inbox.id]);
    expect((await get(`${A.base}/inboxes`, A.outsider.key)).body.payload).toEqual([]);
    for (const path of [`inboxes/${A.otherInbox.id}`, `inboxes/${A.otherInbox.id}/assignable_agents`, `inboxes/${A.otherInbox.id}/agent_bot`, `inbox_members/${A.otherInbox.id}`]) {
      const res = await get(`${A.base}/${path}`, A.agent.key);
      expect(res.status, path).toBe(403);
    }
    // its own inbox it may read
    expect((await get(`${A.base}/inboxes/${A.inbox.id}`, A.agent.key)).status).toBe(200);
    expect((await get(`${A.base}/inbox_members/${A.inbox.id}`, A.agent.key)).status).toBe(200);
  });

  it.each([
    ["GET", ""],
    ["PATCH", "", { priority: "high" }],
    ["PUT", "", { priority: "high" }],
    ["POST", "/toggle_status", { status: "resolved" }],
    ["POST", "/toggle_priority", { priority: "urgent" }],
    ["POST", "/assignments", { assignee_id: null }],
    ["GET", "/labels"],
    ["POST", "/labels", { labels: ["stolen"] }],
    ["POST", "/custom_attributes", { custom_attributes: { x: 1 } }],
    ["POST", "/mute"],
    ["POST", "/unmute"],
    ["POST", "/unread"],
    ["POST", "/update_last_seen"],
    ["POST", "/toggle_typing_status", { typing_status: "on" }],
    ["POST", "/live_ticket"],
    ["GET", "/messages"],
    ["GET", "/attachments"],
    ["POST", "/messages", { content: "sneaky" }],
    ["PATCH", "/messages/MESSAGE", { status: "failed" }],
    ["DELETE", "/messages/MESSAGE"],
  ] as const)("cannot %s the conversation%s of that inbox (403)", async (method, suffix, body?: unknown) => {
    const message = (await get(`${hidden()}/messages`, A.admin.key)).body.payload[0].id;
    const path = `${hidden()}${suffix.replace("MESSAGE", String(message))}`;
    for (const key of [A.agent.key, A.outsider.key]) {
      const res = await send(key, { method, path, body });
      expect(res.status, JSON.stringify(res.body)).toBe(403);
    }
  });

  it("changed nothing in that conversation", expectAUnchanged);

  it("does not find its conversations in lists, counts, filters, searches or the contact's conversations", async () => {
    const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);
    for (const [key, expected] of [
      [A.agent.key, [A.conversationId]],
      [A.outsider.key, []],
    ] as const) {
      const list = await get(`${A.base}/conversations?status=all&assignee_type=all`, key);
      expect(ids(list.body.data.payload)).toEqual(expected);
      expect(list.body.data.meta.all_count).toBe(expected.length);
      const byInbox = await get(`${A.base}/conversations?status=all&inbox_id=${A.otherInbox.id}`, key);
      expect(byInbox.body.data.payload).toEqual([]);
      const meta = await get(`${A.base}/conversations/meta?status=all`, key);
      expect(meta.body.meta.all_count).toBe(expected.length);
      const searched = await get(`${A.base}/conversations?status=all&q=hidden`, key);
      expect(searched.body.data.payload).toEqual([]);
      const filtered = await post(`${A.base}/conversations/filter`, key, {
        payload: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }],
      });
      expect(ids(filtered.body.payload)).toEqual(expected);
      const ofContact = await get(`${A.base}/contacts/${A.mergee.id}/conversations`, key);
      expect(ofContact.body.payload).toEqual([]);
      const inboxes = await get(`${A.base}/contacts/${A.contact.id}/contactable_inboxes`, key);
      expect(inboxes.body.payload.map((ci: { inbox: { id: number } }) => ci.inbox.id)).not.toContain(A.otherInbox.id);
    }
    // the administrator sees both
    const all = await get(`${A.base}/conversations?status=all`, A.admin.key);
    expect(ids(all.body.data.payload).sort()).toEqual([A.conversationId, A.hiddenConversationId].sort());
  });

  it("cannot open a conversation or a contact inbox in that inbox", async () => {
    const conversation = await post(`${A.base}/conversations`, A.agent.key, { inbox_id: A.otherInbox.id, contact_id: A.contact.id });
    expect(conversation.status).toBe(403);
    const contactInbox = await post(`${A.base}/contacts/${A.contact.id}/contact_inboxes`, A.agent.key, { inbox_id: A.otherInbox.id });
    expect(contactInbox.status).toBe(403);
    await expectAUnchanged();
  });

  it("may act on a conversation of its own inbox, and on one of its team in another inbox", async () => {
    expect((await get(visible(), A.agent.key)).status).toBe(200);
    expect((await get(visible(), A.outsider.key)).status).toBe(403);
    // Chatwoot's rule: a team member may act on the team's conversations in any inbox
    expect((await post(`${hidden()}/assignments`, A.admin.key, { team_id: A.team.id })).status).toBe(200);
    expect((await get(hidden(), A.agent.key)).status).toBe(200);
    expect((await get(hidden(), A.outsider.key)).status).toBe(403);
    expect((await post(`${hidden()}/assignments`, A.admin.key, { team_id: null })).status).toBe(200);
    expect((await get(hidden(), A.agent.key)).status).toBe(403);
    before = await snapshot(A); // the conversation was changed on purpose
  });

  it("cannot be assigned a conversation of an inbox it is not a member of", async () => {
    const res = await post(`${hidden()}/assignments`, A.admin.key, { assignee_id: A.agent.id });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe("assignee_id");
  });
});

describe("an agent removed from the account", () => {
  // a whole tenant is built inside the test: with the machine busy that alone can take most of 30 s
  it("loses every route of it at once", { timeout: 90_000 }, async () => {
    const world = await buildTenant("Leaving", "leaving", 1);
    expect((await get(`${world.base}/conversations/${world.conversationId}`, world.agent.key)).status).toBe(200);
    expect((await del(`${world.base}/agents/${world.agent.id}`, world.admin.key)).status).toBe(200);
    const res = await get(`${world.base}/conversations/${world.conversationId}`, world.agent.key);
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe("not_a_member");
    expect((await get(world.base, world.agent.key)).status).toBe(403);
    // added back, it starts without its old inboxes and teams
    await addToAccount(world.platformKey, world.accountId, world.agent.id, "agent");
    expect((await get(`${world.base}/conversations/${world.conversationId}`, world.agent.key)).status).toBe(403);
    expect((await get(`${world.base}/inboxes`, world.agent.key)).body.payload).toEqual([]);
  });
});

describe("custom filters of another user in the same account", () => {
  it.each([
    ["GET", undefined],
    ["PATCH", { name: "Mine now" }],
    ["PUT", { name: "Mine now" }],
    ["DELETE", undefined],
  ] as const)("%s by the administrator answers 404", async (method, body) => {
    const res = await send(A.admin.key, { method, path: `${A.base}/custom_filters/${A.agentFilter.id}`, body });
    expect(res.status).toBe(404);
    const outsider = await send(A.outsider.key, { method, path: `${A.base}/custom_filters/${A.adminFilter.id}`, body });
    expect(outsider.status).toBe(404);
  });

  it("lists only the caller's own", async () => {
    const mine = await get(`${A.base}/custom_filters`, A.admin.key);
    expect(mine.body.map((f: { id: number }) => f.id)).toEqual([A.adminFilter.id]);
    expect((await get(`${A.base}/custom_filters`, A.outsider.key)).body).toEqual([]);
    await expectAUnchanged();
  });
});

describe("keys and secrets", () => {
  it("no read of an agent shows a user's key, the bot's key, the inbox HMAC token or a webhook secret", async () => {
    const inbox = (await get(`${A.base}/inboxes/${A.inbox.id}`, A.admin.key)).body;
    const secrets = [A.admin.key, A.agent.key, A.outsider.key, A.botKey, inbox.hmac_token, A.webhook.secret];
    expect(secrets.every((s) => typeof s === "string" && s.length > 10)).toBe(true);
    for (const route of catalogue(A).filter((r) => r.method === "GET")) {
      const res = await send(A.agent.key, route);
      const text = JSON.stringify(res.body);
      expect(secrets.filter((s) => text.includes(s)), route.name).toEqual([]);
    }
  });

  it("an administrator sees the bot's key and the inbox token, never a user's key", async () => {
    for (const route of catalogue(A).filter((r) => r.method === "GET" && r.path.includes("/api/v1/"))) {
      const text = JSON.stringify((await send(A.admin.key, route)).body);
      expect([A.admin.key, A.agent.key, A.outsider.key].filter((s) => text.includes(s)), route.name).toEqual([]);
    }
    expect((await get(`${A.base}/agent_bots/${A.bot.id}`, A.admin.key)).body.access_token).toBe(A.botKey);
  });
});

describe("nested paths check the whole chain inside one account", () => {
  it("a message is reached only through its own conversation", async () => {
    const hiddenMessage = (await get(`${A.base}/conversations/${A.hiddenConversationId}/messages`, A.admin.key)).body.payload[0];
    const through = `${A.base}/conversations/${A.conversationId}/messages/${hiddenMessage.id}`;
    // the agent can see the first conversation, not the hidden one: going through the first is no way in
    for (const key of [A.agent.key, A.admin.key]) {
      expect((await patch(through, key, { status: "failed" })).status).toBe(404);
      expect((await del(through, key)).status).toBe(404);
    }
    const after = (await get(`${A.base}/conversations/${A.hiddenConversationId}/messages`, A.admin.key)).body.payload[0];
    expect(after).toEqual(hiddenMessage);
  });

  it("a category or an article is reached only through its own portal", async () => {
    const other = `${A.base}/portals/acme-other`;
    expect((await post(`${A.base}/portals`, A.admin.key, { name: "Other", slug: "acme-other" })).status).toBe(200);
    const category = (await post(`${other}/categories`, A.admin.key, { name: "Other", slug: "other-guides" })).body.payload;
    const article = (await post(`${other}/articles`, A.admin.key, { title: "Other draft", content: "x", category_id: category.id })).body.payload;
    const mine = `${A.base}/portals/${A.portalSlug}`;
    for (const [method, path, body] of [
      ["GET", `${mine}/categories/${category.id}`],
      ["PATCH", `${mine}/categories/${category.id}`, { name: "Moved" }],
      ["DELETE", `${mine}/categories/${category.id}`],
      ["GET", `${mine}/articles/${article.id}`],
      ["PATCH", `${mine}/articles/${article.id}`, { status: "published" }],
      ["DELETE", `${mine}/articles/${article.id}`],
    ] as const) {
      const res = await send(A.admin.key, { method, path, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    for (const [path, body, field] of [
      [`${mine}/articles`, { title: "X", content: "x", category_id: category.id }, "category_id"],
      [`${mine}/articles`, { title: "Y", content: "x", associated_article_id: article.id }, "associated_article_id"],
      [`${mine}/categories`, { name: "Z", slug: "z", parent_category_id: category.id }, "parent_category_id"],
      [`${mine}/articles/reorder`, { positions_hash: { [article.id]: 3 } }, `positions_hash.${article.id}`],
    ] as const) {
      const res = await post(path, A.admin.key, body);
      expect(res.status, path).toBe(422);
      expect(res.body.errors[0].field).toBe(field);
    }
    expect((await get(`${other}/articles/${article.id}`, A.admin.key)).body.payload).toEqual(article);
    expect((await get(`${other}/categories/${category.id}`, A.admin.key)).body.payload.name).toBe("Other");
  });

  it("a delivery is reached only through the log of the receiver it was made for", async () => {
    const b = A.base;
    const logs = [
      [`${b}/webhooks/${A.webhook.id}/deliveries`, A.delivery.id],
      [`${b}/inboxes/${A.inbox.id}/deliveries`, A.inboxDelivery.id],
      [`${b}/agent_bots/${A.bot.id}/deliveries`, A.botDelivery.id],
    ] as const;
    for (const [log, own] of logs) {
      expect((await get(`${log}/${own}`, A.admin.key)).status, log).toBe(200);
      for (const [, foreign] of logs.filter(([, id]) => id !== own)) {
        const res = await get(`${log}/${foreign}`, A.admin.key);
        expect(res.status, `${log}/${foreign}`).toBe(404);
        expect(res.body.errors[0].field).toBe("delivery_id");
        expect((await post(`${log}/${foreign}/redeliver`, A.admin.key)).status).toBe(404);
      }
    }
    // the other inbox has its own (empty) log: the first inbox's delivery is not in it
    expect((await get(`${b}/inboxes/${A.otherInbox.id}/deliveries/${A.inboxDelivery.id}`, A.admin.key)).status).toBe(404);
  });

  it("team members and inbox members are those of the team or inbox named", async () => {
    const team2 = (await post(`${A.base}/teams`, A.admin.key, { name: "Second" })).body;
    // removing someone who belongs to another team leaves that team alone
    expect((await del(`${A.base}/teams/${team2.id}/team_members`, A.admin.key, { user_ids: [A.agent.id] })).status).toBe(200);
    expect((await get(`${A.base}/teams/${A.team.id}/team_members`, A.admin.key)).body.map((m: { id: number }) => m.id)).toEqual([A.agent.id]);
    expect((await del(`${A.base}/inbox_members`, A.admin.key, { inbox_id: A.otherInbox.id, user_ids: [A.agent.id] })).status).toBe(200);
    expect((await get(`${A.base}/inbox_members/${A.inbox.id}`, A.admin.key)).body.payload.map((m: { id: number }) => m.id)).toEqual([A.agent.id]);
  });
});
