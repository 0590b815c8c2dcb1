/**
 * POST /portals/{slug}/categories/reorder (Chatwoot's categories#reorder, as articles#reorder):
 * `positions_hash` moves this portal's categories and nothing else; administrators only.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { shardOf } from "../support/databases";
import { call, get, post } from "../support/http";
import { createWorld } from "../support/world";

let world: Awaited<ReturnType<typeof createWorld>>;
let other: Awaited<ReturnType<typeof createWorld>>;
let portal: string;
let ids: { a: number; b: number; c: number; elsewhere: number; foreign: number };
const stamp = Date.now();

async function category(base: string, key: string, name: string, position: number) {
  const res = await post(`${base}/categories`, key, { name, slug: name.toLowerCase().replace(/\W+/g, "-"), position });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.payload.id as number;
}

beforeAll(async () => {
  world = await createWorld("Category order");
  other = await createWorld("Category order elsewhere");
  const made = async (base: string, key: string, slug: string) => {
    const res = await post(`${base}/portals`, key, { name: slug, slug, config: { allowed_locales: ["en"] } });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return `${base}/portals/${slug}`;
  };
  portal = await made(world.base, world.admin.key, `order-${stamp}`);
  const second = await made(world.base, world.admin.key, `order-second-${stamp}`);
  const foreign = await made(other.base, other.admin.key, `order-foreign-${stamp}`);
  ids = {
    a: await category(portal, world.admin.key, "Alpha", 1),
    b: await category(portal, world.admin.key, "Beta", 2),
    c: await category(portal, world.admin.key, "Gamma", 3),
    elsewhere: await category(second, world.admin.key, "Elsewhere", 1),
    foreign: await category(foreign, other.admin.key, "Foreign", 1),
  };
});

/** Both accounts' categories, each read on its account's shard (ids are unique per shard: the other account's are keyed apart). */
const positions = async () => {
  const stored = async (accountId: number, prefix: string) =>
    (await (await shardOf(accountId)).prepare("SELECT id, position, updated_at FROM categories WHERE account_id = ? ORDER BY id").bind(accountId).all<{ id: number; position: number; updated_at: number }>()).results.map((r) => [
      `${prefix}${r.id}`,
      { position: r.position, updated_at: r.updated_at },
    ]);
  return Object.fromEntries([...(await stored(world.accountId, "")), ...(await stored(other.accountId, "other:"))]);
};
const listed = async () => (await get(`${portal}/categories`, world.agent.key)).body.payload.map((c: { id: number; position: number }) => [c.id, c.position]);

describe("categories reorder", () => {
  it("sets the positions of the portal's categories; the list follows them", async () => {
    const before = await positions();
    const res = await post(`${portal}/categories/reorder`, world.admin.key, { positions_hash: { [ids.c]: 1, [ids.a]: 2, [ids.b]: 3 } });
    expect(res.status).toBe(200);
    expect(await listed()).toEqual([
      [ids.c, 1],
      [ids.a, 2],
      [ids.b, 3],
    ]);
    // a position is not an edit of the category
    const after = await positions();
    expect(after[ids.c].updated_at).toBe(before[ids.c].updated_at);
  });

  it("refuses ids of another portal or account, naming them, and moves nothing", async () => {
    const before = await positions();
    const res = await post(`${portal}/categories/reorder`, world.admin.key, { positions_hash: { [ids.a]: 9, [ids.elsewhere]: 5, [ids.foreign]: 6 } });
    expect(res.status).toBe(422);
    // in the body's key order, which is numeric: the other account's shard may give out lower ids
    expect(res.body.errors).toHaveLength(2);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: `positions_hash.${ids.elsewhere}`, code: "not_found" }),
        expect.objectContaining({ field: `positions_hash.${ids.foreign}`, code: "not_found" }),
      ]),
    );
    expect(await positions()).toEqual(before);
  });

  it("refuses bad bodies with the error body, unchanged afterwards", async () => {
    const before = await positions();
    for (const body of [{}, { positions_hash: {} }, { positions_hash: { x: 1 } }, { positions_hash: { [ids.a]: "first" } }, { positions_hash: [ids.a] }]) {
      const res = await post(`${portal}/categories/reorder`, world.admin.key, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ description: expect.any(String), errors: [expect.objectContaining({ field: expect.stringMatching(/^positions_hash/), code: expect.any(String) })] });
    }
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [i + 1, i]));
    expect((await post(`${portal}/categories/reorder`, world.admin.key, { positions_hash: many })).status).toBe(422);
    expect(await positions()).toEqual(before);
  });

  it("is an administrator's: agents 403, another account's key 403, no key 401, an unknown portal 404; nothing moves", async () => {
    const before = await positions();
    const body = { positions_hash: { [ids.a]: 7 } };
    const agent = await post(`${portal}/categories/reorder`, world.agent.key, body);
    expect(agent.status).toBe(403);
    expect(agent.body.errors[0].code).toBe("administrator_required");
    expect((await post(`${portal}/categories/reorder`, other.admin.key, body)).status).toBe(403);
    expect((await call("POST", `${portal}/categories/reorder`, { body })).status).toBe(401);
    expect((await post(`${world.base}/portals/no-such-${stamp}/categories/reorder`, world.admin.key, body)).status).toBe(404);
    // another account's administrator on its own account, naming our category: refused as not its portal's
    const foreignPortal = `${other.base}/portals/order-foreign-${stamp}`;
    expect((await post(`${foreignPortal}/categories/reorder`, other.admin.key, body)).status).toBe(422);
    expect(await positions()).toEqual(before);
  });
});
