/**
 * Moving an account to another shard (README "Shards"; `npm run move-account`) while its clients keep
 * writing: every change the Worker acknowledged is there afterwards, changes during the move are refused
 * with 503 and Retry-After, ids and search survive, and the old shard keeps nothing of the account.
 */
import { describe, expect, it } from "vitest";
import { moveAccount } from "../../scripts/lib/move-account.mjs";
import { allShards, directory, shardNumberOf } from "../support/databases";
import { call, del, get, post } from "../support/http";
import { addToAccount, createUser, createWorld } from "../support/world";
import { timing } from "./support";

/** An account on a shard below the last, so it has somewhere higher to go. */
async function movableWorld() {
  for (let attempt = 0; attempt < 8; attempt++) {
    const world = await createWorld(`Moving Co ${attempt}`);
    const shard = await shardNumberOf(world.accountId);
    if (shard < allShards().length - 1) return { ...world, shard };
  }
  throw new Error("no account below the last shard");
}

const rowsOn = async (db: D1Database, table: string, accountId: number) =>
  (await db.prepare(`SELECT count(*) AS n FROM ${table} WHERE account_id = ?`).bind(accountId).first<{ n: number }>())!.n;

describe("moving an account", () => {
  it("loses nothing acknowledged under concurrent writes, and leaves nothing behind", async () => {
    const world = await movableWorld();
    const to = world.shard + 1;
    const inbox = await post(`${world.base}/inboxes`, world.admin.key, { name: "API", channel: { type: "api" } });
    const first = await post(`${world.base}/contacts`, world.admin.key, { name: "First Customer", email: `first.${world.accountId}@example.com` });
    const firstId = first.body.payload.contact.id;
    const conversation = await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inbox.body.id, contact_id: firstId });
    await post(`${world.base}/conversations/${conversation.body.id}/messages`, world.admin.key, { content: "The parcel went to Zanzibar" });
    const keyed = await call("POST", `${world.base}/labels`, { key: world.admin.key, body: { title: "keyed" }, headers: { "Idempotency-Key": `move-${world.accountId}` } });
    expect(keyed.status).toBe(200);

    // a client that keeps creating contacts through the move, a few milliseconds apart: a loop that
    // never waits would keep the test isolate's event loop from ever reaching the timers the mover's
    // drain and this test wait on
    const writes: Array<{ email: string; status: number; retryAfter: string | null }> = [];
    let moving = true;
    const writer = (async () => {
      for (let n = 0; moving; n++) {
        const email = `during.${world.accountId}.${n}@example.com`;
        const res = await post(`${world.base}/contacts`, world.admin.key, { name: `During ${n}`, email });
        writes.push({ email, status: res.status, retryAfter: res.headers.get("retry-after") });
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const lines: string[] = [];
    const move = moveAccount({ directory: directory(), shards: allShards(), accountId: world.accountId, to, drainMs: 1_500, log: (line) => lines.push(line) });
    // while it moves: the platform adds a member (the directory's change reaches the new shard) and may not delete the account
    while (!lines.some((line) => line.includes("is moving"))) await new Promise((resolve) => setTimeout(resolve, 20));
    const newcomer = await createUser(world.platformKey, "Joined Mid Move");
    await addToAccount(world.platformKey, world.accountId, newcomer.id, "agent");
    const deleted = await del(`/platform/api/v1/accounts/${world.accountId}`, world.platformKey);
    expect(deleted.status).toBe(503);
    expect(deleted.body.errors).toEqual([expect.objectContaining({ code: "account_moving" })]);
    await move;
    moving = false;
    await writer;

    // every write was either acknowledged or refused to be retried; none failed otherwise
    expect(writes.every((w) => w.status === 200 || (w.status === 503 && w.retryAfter !== null))).toBe(true);
    expect(writes.some((w) => w.status === 503)).toBe(true);
    const acknowledged = writes.filter((w) => w.status === 200).map((w) => w.email);
    expect(acknowledged.length).toBeGreaterThan(0);

    // the account now answers from its new shard, with every acknowledged contact and its old ids
    expect(await shardNumberOf(world.accountId)).toBe(to);
    const listed: string[] = [];
    for (let page = 1; ; page++) {
      const res = await get(`${world.base}/contacts?page=${page}`, world.admin.key);
      expect(timing(res.headers, "db-shard")).toBe(to);
      listed.push(...res.body.payload.map((c: { email: string }) => c.email));
      if (res.body.payload.length < 15) break;
    }
    for (const email of acknowledged) expect(listed).toContain(email);
    expect((await get(`${world.base}/contacts/${firstId}`, world.admin.key)).body.payload.name).toBe("First Customer");
    expect(((await get(`${world.base}/agents`, world.admin.key)).body as Array<{ id: number }>).map((agent) => agent.id)).toContain(newcomer.id);
    expect((await get(`${world.base}/conversations`, newcomer.key)).status).toBe(200);
    // a retry of a change acknowledged before the move is answered from its record, not made again
    const replayed = await call("POST", `${world.base}/labels`, { key: world.admin.key, body: { title: "keyed" }, headers: { "Idempotency-Key": `move-${world.accountId}` } });
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body).toEqual(keyed.body);
    const found = await get(`${world.base}/search?q=Zanzibar`, world.admin.key);
    expect(found.body.payload.messages.map((m: { content: string }) => m.content)).toEqual(["The parcel went to Zanzibar"]);

    // the move's copy counted the same rows, the old shard keeps none, and new rows take the new shard's ids
    const [source, target] = [allShards()[world.shard], allShards()[to]];
    for (const table of ["contacts", "conversations", "messages", "inboxes", "account_users", "event_outbox"]) {
      expect(await rowsOn(source, table, world.accountId)).toBe(0);
    }
    expect(await rowsOn(target, "contacts", world.accountId)).toBe(acknowledged.length + 1);
    expect((await source.prepare("SELECT count(*) AS n FROM contact_search WHERE account_key = ?").bind(`<a${world.accountId}>`).first<{ n: number }>())!.n).toBe(0);
    const later = await post(`${world.base}/contacts`, world.admin.key, { name: "After the move", email: `after.${world.accountId}@example.com` });
    expect(later.body.payload.contact.id).toBeGreaterThan(to * 2 ** 40);
    expect(lines.some((line) => line.includes(`is on shard ${to}`))).toBe(true);
  });

  it("refuses a move to a lower shard or out of the pool, changing nothing", async () => {
    const world = await createWorld("Staying Co");
    const shard = await shardNumberOf(world.accountId);
    for (const to of [-1, allShards().length, ...(shard > 0 ? [shard - 1] : []), shard]) {
      await expect(moveAccount({ directory: directory(), shards: allShards(), accountId: world.accountId, to, drainMs: 0 })).rejects.toThrow();
    }
    expect(await shardNumberOf(world.accountId)).toBe(shard);
    expect((await post(`${world.base}/labels`, world.admin.key, { title: "still-writable" })).status).toBe(200);
  });
});
