import { beforeAll, describe, expect, it } from "vitest";
import { shardOf } from "../support/databases";
import { del, get, patch, post, put } from "../support/http";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let other: World;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const QUERY = { payload: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }] };

beforeAll(async () => {
  world = await createWorld("Filters");
  other = await createWorld("Elsewhere");
});

const namesOf = (res: { body: { name: string }[] }) => res.body.map((f) => f.name);

describe("custom filters", () => {
  it("saves, lists by type, shows, updates and deletes the caller's own filters", async () => {
    const { base, agent } = world;
    const created = await post(`${base}/custom_filters`, agent.key, { name: "Open ones", query: QUERY });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: "Open ones",
      filter_type: "conversation",
      query: QUERY,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    const id = created.body.id;
    const contactFilter = await post(`${base}/custom_filters`, agent.key, {
      custom_filter: { name: "Leads", filter_type: "contact", query: { payload: [] } },
    });
    expect(contactFilter.body.filter_type).toBe("contact");
    await post(`${base}/custom_filters`, agent.key, { name: "Weekly", filter_type: 2, query: {} });

    expect(namesOf(await get(`${base}/custom_filters`, agent.key))).toEqual(["Open ones"]);
    expect(namesOf(await get(`${base}/custom_filters?filter_type=contact`, agent.key))).toEqual(["Leads"]);
    expect(namesOf(await get(`${base}/custom_filters?filter_type=2`, agent.key))).toEqual(["Weekly"]);
    expect((await get(`${base}/custom_filters?filter_type=inbox`, agent.key)).status).toBe(422);

    expect((await get(`${base}/custom_filters/${id}`, agent.key)).body).toEqual(created.body);
    const updated = await patch(`${base}/custom_filters/${id}`, agent.key, { name: "Open", filter_type: "contact" });
    expect(updated.body).toMatchObject({ id, name: "Open", filter_type: "contact", query: QUERY });
    expect((await put(`${base}/custom_filters/${id}`, agent.key, { query: { payload: [] } })).body.query).toEqual({ payload: [] });

    const removed = await del(`${base}/custom_filters/${id}`, agent.key);
    expect(removed.status).toBe(204);
    expect((await get(`${base}/custom_filters/${id}`, agent.key)).status).toBe(404);
  });

  it("validates name, type and query", async () => {
    const { base, agent } = world;
    const missing = await post(`${base}/custom_filters`, agent.key, {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["name", "query"]);
    const badType = await post(`${base}/custom_filters`, agent.key, { name: "x", filter_type: "inbox", query: {} });
    expect(badType.body.errors[0].field).toBe("filter_type");
    const badQuery = await post(`${base}/custom_filters`, agent.key, { name: "x", query: [1, 2] });
    expect(badQuery.body.errors[0].field).toBe("query");
  });

  it("hides another user's filters, administrators included, and other accounts'", async () => {
    const { base, agent, admin } = world;
    const agents = await post(`${base}/custom_filters`, agent.key, { name: "Private", query: {} });
    const id = agents.body.id;
    expect(namesOf(await get(`${base}/custom_filters`, admin.key))).toEqual([]);
    expect((await get(`${base}/custom_filters/${id}`, admin.key)).status).toBe(404);
    expect((await patch(`${base}/custom_filters/${id}`, admin.key, { name: "Mine now" })).status).toBe(404);
    expect((await del(`${base}/custom_filters/${id}`, admin.key)).status).toBe(404);
    expect((await get(`${base}/custom_filters/${id}`, agent.key)).body.name).toBe("Private");

    expect((await get(`${base}/custom_filters`, other.admin.key)).status).toBe(403);
    expect((await get(`${other.base}/custom_filters/${id}`, other.admin.key)).status).toBe(404);
    expect((await get(`${base}/custom_filters`)).status).toBe(401);
  });

  it("allows at most 1000 filters per user per account", async () => {
    const { base, admin, accountId } = world;
    const shard = await shardOf(accountId);
    const insert = shard.prepare(
      "INSERT INTO custom_filters (account_id, user_id, name, filter_type, query, created_at, updated_at) VALUES (?, ?, ?, 0, '{}', 0, 0)",
    );
    await shard.batch(Array.from({ length: 999 }, (_, i) => insert.bind(accountId, admin.id, `f${i}`)));
    expect((await post(`${base}/custom_filters`, admin.key, { name: "1000th", query: {} })).status).toBe(200);
    const over = await post(`${base}/custom_filters`, admin.key, { name: "1001st", query: {} });
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual([expect.objectContaining({ code: "limit_reached" })]);
    // The limit is per user: the agent still may.
    expect((await post(`${base}/custom_filters`, world.agent.key, { name: "fine", query: {} })).status).toBe(200);
  });
});
