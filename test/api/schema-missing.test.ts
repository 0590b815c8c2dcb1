/**
 * A database behind the code (a local `wrangler dev` that never ran the migrations, a deploy ahead of
 * them) answers 503 with the command to run, never a bare 500. This file drops a table of its own
 * database, so it runs in a workerd of its own (vitest.config.ts).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { shardOf } from "../support/databases";
import { get, post } from "../support/http";
import { createWorld } from "../support/world";
import { runScheduledWork } from "../../src/jobs/cron";

const world = await createWorld();

describe("a database without the tables a route needs", () => {
  it("answers 503 with Retry-After and the command that migrates it", async () => {
    expect((await get(`${world.base}/canned_responses`, world.admin.key)).status).toBe(200);
    await (await shardOf(world.accountId)).exec("DROP TABLE canned_responses");
    for (const res of [
      await get(`${world.base}/canned_responses`, world.admin.key),
      await post(`${world.base}/canned_responses`, world.admin.key, { short_code: "hi", content: "Hello" }),
    ]) {
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("60");
      expect(res.body.errors).toEqual([{ field: "", message: res.body.description, code: "database_not_migrated" }]);
      expect(res.body.description).toContain("npm run db:migrate");
    }
    // the rest of the API is unaffected
    expect((await get(`${world.base}/labels`, world.admin.key)).status).toBe(200);
  });
});

describe("the minute's cron with one sweep failing", () => {
  it("runs the sweeps after it, then fails", async () => {
    // the campaigns' table is gone, so that sweep fails; the idempotency keys are pruned after it
    const scope = `cron-test:${world.accountId}`;
    const shard = await shardOf(world.accountId);
    await shard.prepare("INSERT INTO idempotency_keys (scope, key, request_digest, created_at, expires_at) VALUES (?, 'old', 'x', 0, ?)").bind(scope, Date.now() - 1000).run();
    await shard.exec("DROP TABLE campaign_recipients");
    await shard.exec("DROP TABLE campaigns");
    await expect(runScheduledWork(env)).rejects.toThrow(/1 of the cron's sweeps failed/);
    expect(await shard.prepare("SELECT count(*) AS n FROM idempotency_keys WHERE scope = ?").bind(scope).first("n")).toBe(0);
  });
});
