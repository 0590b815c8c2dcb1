/**
 * Article views are counted in batches: the queue consumer adds up a batch's views of several articles
 * in one round trip, one statement per article, and acks them (site.test.ts reads pages and sees the count follow).
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { connectShard } from "../../src/db/connect";
import { QueryMeter } from "../../src/db/metering";
import { addArticleViews } from "../../src/domain/help-center/public";
import { consumeQueue } from "../../src/jobs/queue";
import { jobScope } from "../../src/jobs/scope";
import { post } from "../support/http";
import { createWorld } from "../support/world";
import { shardNumberOf, shardOf } from "../support/databases";

let world: Awaited<ReturnType<typeof createWorld>>;
const ids: number[] = [];

const viewsOf = async (id: number) => (await (await shardOf(world.accountId)).prepare("SELECT views FROM articles WHERE id = ?").bind(id).first<{ views: number }>())?.views;

beforeAll(async () => {
  world = await createWorld("Views");
  await post(`${world.base}/portals`, world.admin.key, { name: "Views", slug: "views-docs" });
  for (const slug of ["one", "two"]) {
    const res = await post(`${world.base}/portals/views-docs/articles`, world.admin.key, { title: slug, slug, content: "x", status: 1 });
    ids.push(res.body.payload.id);
  }
});

describe("article views", () => {
  it("adds up many views of several articles in one round trip", async () => {
    const meter = new QueryMeter();
    // the account's shard, as the queue consumer opens it for this account's views
    const { db } = connectShard(env, await shardNumberOf(world.accountId), { meter, writes: true });
    const views = [ids[0], ids[1], ids[0], ids[0], 999_999].map((articleId) => ({ accountId: world.accountId, articleId }));
    // the same article id under another account changes nothing
    await addArticleViews(jobScope(db, env), [...views, { accountId: world.accountId + 1_000_000, articleId: ids[1] }]);
    expect(meter.roundTrips).toBe(1);
    expect(await viewsOf(ids[0])).toBe(3);
    expect(await viewsOf(ids[1])).toBe(1);
  });

  it("are counted by the queue consumer, which acks the batch's views", async () => {
    const acked: number[] = [];
    const messages = Array.from({ length: 30 }, (_, i) => ({
      id: String(i),
      timestamp: new Date(),
      attempts: 1,
      body: { kind: "article_view" as const, accountId: world.accountId, articleId: ids[i % 2] },
      ack: () => acked.push(i),
      retry: () => {
        throw new Error("no view should be retried");
      },
    }));
    const before = [await viewsOf(ids[0]), await viewsOf(ids[1])] as number[];
    await consumeQueue({ queue: "edgedesk-events", messages, retryAll: () => undefined, ackAll: () => undefined } as unknown as MessageBatch<never>, env);
    expect(acked).toHaveLength(30);
    expect(await viewsOf(ids[0])).toBe(before[0] + 15);
    expect(await viewsOf(ids[1])).toBe(before[1] + 15);
  });

});
