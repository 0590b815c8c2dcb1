/**
 * Accounts on different shards (docs/shards.md): each request runs on its account's shard in the one
 * hop of its auth batch, says so in Server-Timing, carries the shard in its bookmark, and never reaches
 * another shard's rows, even where ids coincide. Public routes find their account's shard by their key.
 */
import { describe, expect, it } from "vitest";
import { allShards, directory, shardNumberOf } from "../support/databases";
import { call, del, get, post, put } from "../support/http";
import { addToAccount, createUser } from "../support/world";
import { timing, worldsOnTwoShards } from "./support";

const [a, b] = await worldsOnTwoShards("Shard Routing");

describe("the pool", () => {
  it("is reported by GET /api: every shard binding this Worker has", async () => {
    const res = await get("/api");
    expect(res.body.shards).toBe(allShards().length);
    expect(res.body.shards).toBeGreaterThanOrEqual(2);
  });
});

describe("an account's requests", () => {
  it("run on the shard the directory placed the account on, with no more round trips than one database", async () => {
    for (const world of [a, b]) {
      const res = await get(`${world.base}/agents`, world.admin.key);
      expect(res.status).toBe(200);
      expect(res.body.map((agent: { id: number }) => agent.id).sort()).toEqual([world.admin.id, world.agent.id].sort());
      expect(timing(res.headers, "db-shard")).toBe(world.shard);
      // the key, the account, its shard and the membership in one directory batch; the agents in one shard batch
      expect(timing(res.headers, "db-round-trips")).toBe(2);
    }
  });

  it("answer a bookmark that names their shard, and ignore one of another shard or no shard", async () => {
    const first = await call("POST", `${a.base}/labels`, { key: a.admin.key, body: { title: `bookmarked-${Date.now()}` } });
    expect(first.status).toBe(200);
    const bookmark = first.headers.get("x-d1-bookmark")!;
    expect(bookmark).toMatch(new RegExp(`^${a.shard}:[0-9a-f-]+$`));
    for (const given of [bookmark, bookmark.replace(/^\d+:/, `${b.shard}:`), "99:00000000", "not-a-bookmark", `${a.shard}:'; DROP TABLE labels`]) {
      const res = await call("GET", `${a.base}/labels`, { key: a.admin.key, headers: { "x-d1-bookmark": given } });
      expect(res.status).toBe(200);
      expect(res.body.payload.map((label: { title: string }) => label.title)).toContain(first.body.title);
      expect(res.headers.get("x-d1-bookmark")).toMatch(new RegExp(`^${a.shard}:`));
    }
  });

  it("give out ids from their shard's own range, and never reach another shard's rows", async () => {
    const mine = await post(`${a.base}/contacts`, a.admin.key, { name: "Ada on A", email: `ada.${Date.now()}@a.example` });
    const theirs = await post(`${b.base}/contacts`, b.admin.key, { name: "Bea on B", email: `bea.${Date.now()}@b.example` });
    const [mineId, theirsId] = [mine.body.payload.contact.id, theirs.body.payload.contact.id];
    // shard n gives out ids above n × 2^40: one id names one row across the pool
    for (const [id, shard] of [[mineId, a.shard], [theirsId, b.shard]]) {
      expect(id).toBeGreaterThan(shard * 2 ** 40);
      expect(id).toBeLessThanOrEqual((shard + 1) * 2 ** 40);
    }
    expect((await get(`${a.base}/contacts/${mineId}`, a.admin.key)).body.payload.name).toBe("Ada on A");
    expect((await get(`${a.base}/contacts/${theirsId}`, a.admin.key)).status).toBe(404);
    // a key of one account on the other's path
    expect((await get(`${b.base}/contacts/${theirsId}`, a.admin.key)).status).toBe(403);
    expect((await put(`${b.base}/contacts/${theirsId}`, a.admin.key, { name: "Taken over" })).status).toBe(403);
    expect((await get(`${b.base}/contacts/${theirsId}`, b.admin.key)).body.payload.name).toBe("Bea on B");
  });
});

describe("a user in accounts on two shards", () => {
  it("sees both accounts, works in each, and a change of its name reaches both", async () => {
    const user = await createUser(a.platformKey, "Two Shard Agent");
    await addToAccount(a.platformKey, a.accountId, user.id, "agent");
    // the platform app that made account B adds the user there too
    const added = await post(`/platform/api/v1/accounts/${b.accountId}/account_users`, b.platformKey, { user_id: user.id, role: "agent" });
    expect(added.status).toBe(403); // another app's user: the platform rules still apply
    const member = await post(`${b.base}/agents`, b.admin.key, { name: "Two Shard Agent", email: user.email, role: "agent" });
    expect(member.status).toBe(200);

    const profile = await get("/api/v1/profile", user.key);
    expect(profile.body.accounts.map((account: { id: number }) => account.id).sort()).toEqual([a.accountId, b.accountId].sort());
    for (const world of [a, b]) expect((await get(`${world.base}/conversations`, user.key)).status).toBe(200);

    expect((await put("/api/v1/profile", user.key, { name: "Renamed Everywhere" })).status).toBe(200);
    for (const world of [a, b]) {
      const agents = (await get(`${world.base}/agents`, world.admin.key)).body as Array<{ id: number; name: string }>;
      expect(agents.find((agent) => agent.id === user.id)?.name).toBe("Renamed Everywhere");
    }

    // leaving B: B's shard no longer lists the user, A's still does, and the key no longer opens B
    expect((await del(`${b.base}/agents/${user.id}`, b.admin.key)).status).toBe(200);
    expect(((await get(`${b.base}/agents`, b.admin.key)).body as Array<{ id: number }>).map((agent) => agent.id)).not.toContain(user.id);
    expect(((await get(`${a.base}/agents`, a.admin.key)).body as Array<{ id: number }>).map((agent) => agent.id)).toContain(user.id);
    expect((await get(`${b.base}/conversations`, user.key)).status).toBe(403);
  });
});

describe("public routes", () => {
  it("find the shard of the inbox's account, for inboxes on several shards", async () => {
    for (const world of [a, b]) {
      const inbox = await post(`${world.base}/inboxes`, world.admin.key, { name: "Site", channel: { type: "web_widget", website_url: "https://shop.example" } });
      expect(inbox.status).toBe(200);
      const identifier = inbox.body.inbox_identifier ?? inbox.body.website_token;
      // the shard of a keyless request is shown to a platform key only (docs/api.md "Errors")
      const shown = await get(`/public/api/v1/inboxes/${identifier}`, world.platformKey);
      expect(shown.status).toBe(200);
      expect(timing(shown.headers, "db-shard")).toBe(world.shard);
      const contact = await post(`/public/api/v1/inboxes/${identifier}/contacts`, world.platformKey, { name: `Visitor of ${world.accountId}`, email: `visitor.${world.accountId}@shop.example` });
      expect(contact.status).toBe(200);
      expect(timing(contact.headers, "db-shard")).toBe(world.shard);
      const listed = await get(`${world.base}/contacts?page=1`, world.admin.key);
      expect(listed.body.payload.map((c: { name: string }) => c.name)).toContain(`Visitor of ${world.accountId}`);
    }
    expect((await get("/public/api/v1/inboxes/no-such-inbox-anywhere")).status).toBe(404);
  });

  it("keep a portal's slug unique across shards", async () => {
    const slug = `shared-slug-${Date.now()}`;
    const first = await post(`${a.base}/portals`, a.admin.key, { name: "Help A", slug });
    expect(first.status).toBe(200);
    const second = await post(`${b.base}/portals`, b.admin.key, { name: "Help B", slug });
    expect(second.status).toBe(422);
    expect(second.body.errors).toEqual([expect.objectContaining({ field: "slug", code: "taken" })]);
    expect((await get(`${b.base}/portals`, b.admin.key)).body.payload).toEqual([]);
    const portal = await get(`/public/api/v1/portals/${slug}`, a.platformKey);
    expect(portal.status).toBe(200);
    expect(portal.body.name).toBe("Help A");
    expect(timing(portal.headers, "db-shard")).toBe(a.shard);
    // once A lets the slug go, B may take it, and the public route follows it to B's shard
    expect((await del(`${a.base}/portals/${slug}`, a.admin.key)).status).toBe(200);
    expect((await post(`${b.base}/portals`, b.admin.key, { name: "Help B", slug })).status).toBe(200);
  });
});

describe("a shard out of reach", () => {
  it("answers its own account 503 with Retry-After, and every other account as before", async () => {
    const other = await worldsOnTwoShards("Shard Outage");
    const [down, up] = other;
    await directory().prepare("UPDATE accounts SET shard = 9 WHERE id = ?").bind(down.accountId).run();
    try {
      const refused = await get(`${down.base}/agents`, down.admin.key);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(refused.body.errors).toEqual([expect.objectContaining({ code: "shard_unavailable" })]);
      expect((await get(`${up.base}/agents`, up.admin.key)).status).toBe(200);
    } finally {
      await directory().prepare("UPDATE accounts SET shard = ? WHERE id = ?").bind(down.shard, down.accountId).run();
    }
    expect(await shardNumberOf(down.accountId)).toBe(down.shard);
    expect((await get(`${down.base}/agents`, down.admin.key)).status).toBe(200);
  });

  it("refuses the changes of an account being moved with 503 and Retry-After, and still serves its reads", async () => {
    await directory().prepare("UPDATE accounts SET shard_status = 2 WHERE id = ?").bind(b.accountId).run();
    try {
      const write = await post(`${b.base}/labels`, b.admin.key, { title: "during-move" });
      expect(write.status).toBe(503);
      expect(write.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(write.body.errors).toEqual([expect.objectContaining({ code: "account_moving" })]);
      expect((await get(`${b.base}/labels`, b.admin.key)).status).toBe(200);
    } finally {
      await directory().prepare("UPDATE accounts SET shard_status = 1 WHERE id = ?").bind(b.accountId).run();
    }
    expect((await get(`${b.base}/labels`, b.admin.key)).body.payload.map((label: { title: string }) => label.title)).not.toContain("during-move");
  });
});
