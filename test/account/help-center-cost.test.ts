/**
 * Every help-center request costs at most three database round trips, authentication included, and
 * reads only through batches (Server-Timing reports round trips and unmetered reads). Creating a portal
 * costs one more: its slug is claimed in the directory, where slugs are unique across shards.
 */
import { expect, it } from "vitest";
import { type Reply, call, get, post } from "../support/http";
import { createWorld } from "../support/world";

const roundTrips = (reply: Reply) => Number(/db-round-trips;desc="(\d+)"/.exec(reply.headers.get("server-timing") ?? "")?.[1]);

it("keeps each route within three round trips", async () => {
  const w = await createWorld("Cost");
  const portal = `${w.base}/portals/cost`;
  const replies: Array<[string, Reply]> = [];
  const record = async (label: string, reply: Promise<Reply>) => {
    const r = await reply;
    replies.push([label, r]);
    return r;
  };
  await record("create portal", post(`${w.base}/portals`, w.admin.key, { name: "Cost", slug: "cost" }));
  await record("list portals", get(`${w.base}/portals`, w.agent.key));
  await record("show portal", get(portal, w.agent.key));
  await record("update portal", call("PATCH", portal, { key: w.admin.key, body: { name: "Costs" } }));
  const category = await record("create category", post(`${portal}/categories`, w.admin.key, { name: "C", slug: "c" }));
  await record("list categories", get(`${portal}/categories`, w.agent.key));
  await record("update category", call("PATCH", `${portal}/categories/${category.body.payload.id}`, { key: w.admin.key, body: { name: "D" } }));
  const article = await record(
    "create article",
    post(`${portal}/articles`, w.admin.key, { title: "Hello", content: "hello world", status: 1, category_id: category.body.payload.id }),
  );
  const articlePath = `${portal}/articles/${article.body.payload.id}`;
  await record("list articles", get(`${portal}/articles`, w.agent.key));
  await record("search articles", get(`${portal}/articles?query=hello`, w.agent.key));
  await record("show article", get(articlePath, w.admin.key));
  await record("update article", call("PATCH", articlePath, { key: w.admin.key, body: { title: "Hi" } }));
  await record("reorder articles", post(`${portal}/articles/reorder`, w.admin.key, { positions_hash: { [article.body.payload.id]: 4 } }));
  // keyless routes show their cost only to a request that carries a platform key (docs/api.md "Errors")
  await record("public portal", get("/public/api/v1/portals/cost", w.platformKey));
  await record("public categories", get("/public/api/v1/portals/cost/categories", w.platformKey));
  await record("public search", get("/public/api/v1/portals/cost/articles?query=hello", w.platformKey));
  await record("public article", get(`/public/api/v1/portals/cost/articles/${article.body.payload.slug}`, w.platformKey));
  await record("delete article", call("DELETE", articlePath, { key: w.admin.key }));
  await record("delete category", call("DELETE", `${portal}/categories/${category.body.payload.id}`, { key: w.admin.key }));
  await record("delete portal", call("DELETE", portal, { key: w.admin.key }));

  for (const [label, reply] of replies) {
    expect(reply.status, label).toBe(200);
    expect(roundTrips(reply), label).toBeLessThanOrEqual(label === "create portal" ? 4 : 3);
    expect(reply.headers.get("server-timing"), label).not.toContain("db-unmetered");
  }
});
