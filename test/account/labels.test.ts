import { beforeAll, describe, expect, it } from "vitest";
import { shardOf } from "../support/databases";
import { del, get, patch, post, put } from "../support/http";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let other: World;

beforeAll(async () => {
  world = await createWorld("Labels");
  other = await createWorld("Elsewhere");
});

async function tagsOf(accountId: number, type: string, id: number): Promise<string[]> {
  const { results } = await (await shardOf(accountId)).prepare(
    "SELECT tag FROM taggings WHERE account_id = ? AND taggable_type = ? AND taggable_id = ? ORDER BY tag",
  )
    .bind(accountId, type, id)
    .all<{ tag: string }>();
  return results.map((r) => r.tag);
}

async function tag(accountId: number, type: string, id: number, title: string) {
  await (await shardOf(accountId)).prepare("INSERT INTO taggings (account_id, taggable_type, taggable_id, tag, created_at) VALUES (?, ?, ?, ?, ?)")
    .bind(accountId, type, id, title, Date.now())
    .run();
}

describe("labels", () => {
  it("lets an administrator create, show, update and delete a label; lists it for agents by title", async () => {
    const { base, admin, agent } = world;
    const created = await post(`${base}/labels`, admin.key, { title: "Billing", description: "Money", show_on_sidebar: false });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      title: "billing",
      description: "Money",
      color: "#1f93ff",
      show_on_sidebar: false,
    });
    const id = created.body.id;
    await post(`${base}/labels`, admin.key, { label: { title: "after-sales_2", color: "#00ff00" } });

    const list = await get(`${base}/labels`, agent.key);
    expect(list.status).toBe(200);
    expect(list.body.payload.map((l: { title: string }) => l.title)).toEqual(["after-sales_2", "billing"]);

    expect((await get(`${base}/labels/${id}`, admin.key)).body).toEqual(created.body);

    const updated = await patch(`${base}/labels/${id}`, admin.key, { color: "#ABCDEF", show_on_sidebar: "true" });
    expect(updated.body).toEqual({ ...created.body, color: "#ABCDEF", show_on_sidebar: true });
    expect((await put(`${base}/labels/${id}`, admin.key, { description: null })).body.description).toBeNull();

    expect(await del(`${base}/labels/${id}`, admin.key)).toMatchObject({ status: 200, body: {} });
    expect((await get(`${base}/labels/${id}`, admin.key)).status).toBe(404);
    expect((await del(`${base}/labels/${id}`, admin.key)).status).toBe(404);
  });

  it("validates the title and colour", async () => {
    const { base, admin } = world;
    for (const title of ["a", "two words", "-dash", "_under"]) {
      const res = await post(`${base}/labels`, admin.key, { title });
      expect(res.status, title).toBe(422);
      expect(res.body.errors, title).toEqual([expect.objectContaining({ field: "title", code: "invalid" })]);
    }
    expect((await post(`${base}/labels`, admin.key, { title: "Ünïcode9" })).body.title).toBe("ünïcode9");

    const missing = await post(`${base}/labels`, admin.key, {});
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: "title", code: "required" })]);

    const color = await post(`${base}/labels`, admin.key, { title: "coloured", color: "blue" });
    expect(color.status).toBe(422);
    expect(color.body.errors).toEqual([expect.objectContaining({ field: "color" })]);

    await post(`${base}/labels`, admin.key, { title: "urgent" });
    const dup = await post(`${base}/labels`, admin.key, { title: "URGENT" });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual([expect.objectContaining({ field: "title", code: "taken" })]);
    const second = await post(`${base}/labels`, admin.key, { title: "later" });
    const rename = await patch(`${base}/labels/${second.body.id}`, admin.key, { title: "Urgent" });
    expect(rename.body.errors).toEqual([expect.objectContaining({ field: "title", code: "taken" })]);
  });

  it("renames the tag on conversations and contacts when a label is renamed", async () => {
    const { base, admin, accountId } = world;
    const label = await post(`${base}/labels`, admin.key, { title: "vip" });
    // taggings of made-up rows, with ids no real row of the shared test database has
    const row = (account: number, n: number) => 900_000_000 + account * 1_000 + n;
    await tag(accountId, "Conversation", row(accountId, 1), "vip");
    await tag(accountId, "Contact", row(accountId, 7), "vip");
    // Already carries the new title (a tag applied without a label): keeps exactly one.
    await tag(accountId, "Conversation", row(accountId, 2), "vip");
    await tag(accountId, "Conversation", row(accountId, 2), "premium");
    // Another account's tag of the same title is not touched.
    await tag(other.accountId, "Conversation", row(other.accountId, 101), "vip");

    const renamed = await patch(`${base}/labels/${label.body.id}`, admin.key, { title: "Premium" });
    expect(renamed.status).toBe(200);
    expect(renamed.headers.get("server-timing")).toContain('db-round-trips;desc="3"');
    expect(renamed.body.title).toBe("premium");
    expect(await tagsOf(accountId, "Conversation", row(accountId, 1))).toEqual(["premium"]);
    expect(await tagsOf(accountId, "Contact", row(accountId, 7))).toEqual(["premium"]);
    expect(await tagsOf(accountId, "Conversation", row(accountId, 2))).toEqual(["premium"]);
    expect(await tagsOf(other.accountId, "Conversation", row(other.accountId, 101))).toEqual(["vip"]);
  });

  it("keeps agents to the list, accounts apart, and requires a key", async () => {
    const { base, admin, agent } = world;
    const label = await post(`${base}/labels`, admin.key, { title: "secret-ish" });
    const id = label.body.id;
    expect((await get(`${base}/labels/${id}`, agent.key)).status).toBe(403);
    expect((await post(`${base}/labels`, agent.key, { title: "nope" })).status).toBe(403);
    expect((await patch(`${base}/labels/${id}`, agent.key, { title: "nope" })).status).toBe(403);
    expect((await del(`${base}/labels/${id}`, agent.key)).status).toBe(403);

    expect((await get(`${base}/labels`, other.admin.key)).status).toBe(403);
    expect((await get(`${other.base}/labels/${id}`, other.admin.key)).status).toBe(404);
    expect((await patch(`${other.base}/labels/${id}`, other.admin.key, { color: "#000000" })).status).toBe(404);
    expect((await get(`${base}/labels`)).status).toBe(401);
  });
});
