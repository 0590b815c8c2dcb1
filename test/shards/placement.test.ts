/**
 * Where accounts go and how they leave (docs/shards.md), in a storage of this file's own: each new
 * account goes to the least full shard, and an account's delete removes its rows from its shard and the
 * directory, and nothing of any other account.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { connectDirectory } from "../../src/db/connect";
import { createAccount } from "../../src/domain/identity/accounts";
import { recordShardSize } from "../../src/domain/identity/shard-stats";
import type { PlatformScope } from "../../src/domain/kernel/scope";
import { jobScope } from "../../src/jobs/scope";
import { allShards, directory, shardNumberOf, shardOf } from "../support/databases";
import { createPlatformApp, del, get, post } from "../support/http";
import { createWorld } from "../support/world";
import { seedContacts } from "../support/contact-fixtures";

const platformKey = await createPlatformApp("Placement platform");

/**
 * The platform app's scope as the jobs build theirs, acting on the directory, with sizes counted in steps
 * of 16 KiB (a test's shards hold a few MB, as the bench's do: 64 MiB would make every shard one size).
 */
async function placingScope(): Promise<PlatformScope> {
  const app = await directory().prepare("SELECT max(id) AS id FROM platform_apps").first<{ id: number }>();
  const db = connectDirectory(env).db;
  const scope = jobScope(db, { ...env, PLACEMENT_SIZE_STEP_BYTES: "16384" }, db);
  return { ...scope, actor: { type: "platform_app", platformAppId: app!.id } };
}

async function accountsPerShard(): Promise<number[]> {
  const { results } = await directory().prepare("SELECT shard, count(*) AS n FROM accounts GROUP BY shard").all<{ shard: number; n: number }>();
  return allShards().map((_, shard) => results.find((row) => row.shard === shard)?.n ?? 0);
}

const rowsOf = async (db: D1Database, table: string, accountId: number) =>
  (await db.prepare(`SELECT count(*) AS n FROM ${table} WHERE account_id = ?`).bind(accountId).first<{ n: number }>())!.n;

describe("placement", () => {
  // first in the file, while the shards are alike: nothing deleted has left free pages in one of them yet
  it("spreads a burst of creates by what each grew to, with no size reading between them", async () => {
    const scope = await placingScope();
    // a pool of many small accounts (as if each shard held a thousand more), whose sizes the cron read once before the burst
    await Promise.all(allShards().map((_, shard) => recordShardSize({ ...scope, db: scope.shards.open(shard) }, shard)));
    await directory().prepare("UPDATE shard_stats SET accounts = accounts + 1000").run();
    // an import fills the first account at once with a few thousand rows, every later one with a few
    const big = await createAccount(scope, { name: "Burst big" });
    await seedContacts(big.id, 3_000);
    const placed: number[] = [];
    for (let i = 0; i < 4 * allShards().length; i++) {
      const account = await createAccount(scope, { name: `Burst ${i}` });
      placed.push(account.shard);
      await seedContacts(account.id, 20);
    }
    // the pool as the rest of the file expects it: its true counts, and no size read yet
    await directory().prepare("UPDATE shard_stats SET accounts = accounts - 1000, bytes = 0").run();
    // the big account's shard takes at most the one create that reads its size; the others share the rest
    expect(placed.filter((shard) => shard === big.shard).length).toBeLessThanOrEqual(1);
    for (let shard = 0; shard < allShards().length; shard++) {
      if (shard !== big.shard) expect(placed.filter((s) => s === shard).length).toBeGreaterThanOrEqual(2);
    }
  });

  it("puts each new account on the least full shard, so the pool stays even", async () => {
    const shards = allShards().length;
    expect(shards).toBeGreaterThanOrEqual(2);
    const before = await accountsPerShard();
    const made: number[] = [];
    for (let i = 0; i < shards * 3; i++) {
      const res = await post("/platform/api/v1/accounts", platformKey, { name: `Even ${i}` });
      expect(res.status).toBe(200);
      made.push(res.body.id);
    }
    const after = await accountsPerShard();
    expect(Math.max(...after) - Math.min(...after)).toBeLessThanOrEqual(Math.max(1, Math.max(...before) - Math.min(...before)));
    // the directory's counts agree with the accounts it holds
    const { results } = await directory().prepare("SELECT shard, accounts FROM shard_stats ORDER BY shard").all<{ shard: number; accounts: number }>();
    expect(results.map((row) => row.accounts)).toEqual(after);
    // each account's row is on its shard, and on no other
    for (const accountId of made) {
      const home = await shardNumberOf(accountId);
      const found = await Promise.all(allShards().map((db) => db.prepare("SELECT count(*) AS n FROM accounts WHERE id = ?").bind(accountId).first<{ n: number }>()));
      expect(found.map((row) => row!.n)).toEqual(allShards().map((_, shard) => (shard === home ? 1 : 0)));
    }
  });

  it("fills the shard an account left first", async () => {
    const res = await post("/platform/api/v1/accounts", platformKey, { name: "Leaving" });
    const leaving = res.body.id as number;
    const shard = await shardNumberOf(leaving);
    // even the pool out, then free one seat on the leaving account's shard
    const counts = await accountsPerShard();
    for (let s = 0; s < counts.length; s++) {
      for (let n = counts[s]; n < Math.max(...counts); n++) await post("/platform/api/v1/accounts", platformKey, { name: `Filler ${s}.${n}` });
    }
    expect((await del(`/platform/api/v1/accounts/${leaving}`, platformKey)).status).toBe(200);
    const next = await post("/platform/api/v1/accounts", platformKey, { name: "Next" });
    expect(await shardNumberOf(next.body.id)).toBe(shard);
  });
});

describe("account delete", () => {
  it("removes an account larger than one delete statement takes, search rows and all, in rounds", async () => {
    const big = await createWorld("Big Deleted Co");
    // more contacts than one round deletes (2,000 a table), each with its search row
    await seedContacts(big.accountId, 4_500);
    const shard = await shardOf(big.accountId);
    const searchRows = () => shard.prepare("SELECT count(*) AS n FROM contact_search WHERE account_key = ?").bind(`<a${big.accountId}>`).first<{ n: number }>();
    expect((await searchRows())!.n).toBe(4_500);
    expect((await del(`/platform/api/v1/accounts/${big.accountId}`, big.platformKey)).status).toBe(200);
    expect(await rowsOf(shard, "contacts", big.accountId)).toBe(0);
    expect(await rowsOf(shard, "counters", big.accountId)).toBe(0);
    expect((await searchRows())!.n).toBe(0);
    expect((await directory().prepare("SELECT count(*) AS n FROM accounts WHERE id = ?").bind(big.accountId).first<{ n: number }>())!.n).toBe(0);
  });

  it("removes the account's rows from its shard and the directory, and leaves every other account whole", async () => {
    const gone = await createWorld("Deleted Co");
    const kept = await createWorld("Kept Co");
    for (const world of [gone, kept]) {
      const inbox = await post(`${world.base}/inboxes`, world.admin.key, { name: "API", channel: { type: "api" } });
      const contact = await post(`${world.base}/contacts`, world.admin.key, { name: "Customer", email: `c.${world.accountId}@example.com` });
      const conversation = await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inbox.body.id, contact_id: contact.body.payload.contact.id });
      expect(conversation.status).toBe(200);
      expect((await post(`${world.base}/conversations/${conversation.body.id}/messages`, world.admin.key, { content: "Hello" })).status).toBe(200);
    }
    const shard = await shardOf(gone.accountId);
    const tables = ["inboxes", "contacts", "conversations", "messages", "account_users", "event_outbox"];
    const keptBefore = await Promise.all(tables.map(async (table) => rowsOf(await shardOf(kept.accountId), table, kept.accountId)));
    expect(keptBefore.every((n) => n > 0)).toBe(true);

    expect((await del(`/platform/api/v1/accounts/${gone.accountId}`, gone.platformKey)).status).toBe(200);

    for (const table of tables) expect(await rowsOf(shard, table, gone.accountId)).toBe(0);
    expect((await shard.prepare("SELECT count(*) AS n FROM accounts WHERE id = ?").bind(gone.accountId).first<{ n: number }>())!.n).toBe(0);
    expect((await directory().prepare("SELECT count(*) AS n FROM accounts WHERE id = ?").bind(gone.accountId).first<{ n: number }>())!.n).toBe(0);
    expect(await rowsOf(directory(), "account_users", gone.accountId)).toBe(0);
    expect((await get(`${gone.base}/agents`, gone.admin.key)).status).toBe(404);
    // the users stay (they may belong elsewhere); the other account is untouched
    expect((await get("/api/v1/profile", gone.admin.key)).status).toBe(200);
    const keptAfter = await Promise.all(tables.map(async (table) => rowsOf(await shardOf(kept.accountId), table, kept.accountId)));
    expect(keptAfter).toEqual(keptBefore);
  });
});
