/**
 * Moving an account to another shard (docs/shards.md; `npm run move-account`) while its clients keep
 * writing: every change the Worker acknowledged is there afterwards, changes during the move are refused
 * with 503 and Retry-After, ids and search survive, and the old shard keeps nothing of the account. A
 * move never strands the account: transient database errors are retried, a failure before the switch
 * rolls back on its own, and a mover that died is rolled back by the cron's next run.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { moveAccount } from "../../src/jobs/account-move";
import { runScheduledWork } from "../../src/jobs/cron";
import { allShards, directory, shardNumberOf } from "../support/databases";
import { publicInbox } from "../public/widget-support";
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

// a move copies every row of an account: on a busy machine that takes longer than the suites' 30 s
describe("moving an account", { timeout: 90_000 }, () => {
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
    const move = moveAccount({ directory: directory(), shards: allShards(), accountId: world.accountId, to, drainMs: 1_500, leaveMs: 2_000, log: (line) => lines.push(line) });
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

/**
 * Shard `d1` as the mover sees it, with `fault` heard before each statement (its SQL): it may throw (a
 * database error) or never settle (a mover whose process stopped there). Everything else is the real D1.
 */
function withFault(d1: D1Database, fault: (query: string) => Promise<void> | void): D1Database {
  const wrap = (query: string, bound: D1PreparedStatement) => ({
    unwrapped: bound,
    bind: (...values: unknown[]) => wrap(query, bound.bind(...values)),
    run: async () => (await fault(query), bound.run()),
    all: async () => (await fault(query), bound.all()),
    first: async (column?: string) => (await fault(query), column === undefined ? bound.first() : bound.first(column)),
  });
  return {
    prepare: (query: string) => wrap(query, d1.prepare(query)),
    batch: async (statements: Array<ReturnType<typeof wrap>>) => {
      await fault("batch");
      return d1.batch(statements.map((statement) => statement.unwrapped));
    },
  } as unknown as D1Database;
}

/** A movable account with contacts, a conversation and messages, so a copy has several tables to go through. */
async function filledWorld() {
  const world = await movableWorld();
  const inbox = await post(`${world.base}/inboxes`, world.admin.key, { name: "API", channel: { type: "api" } });
  const emails: string[] = [];
  for (let n = 0; n < 3; n++) {
    const email = `kept.${world.accountId}.${n}@example.com`;
    const contact = await post(`${world.base}/contacts`, world.admin.key, { name: `Kept ${n}`, email });
    expect(contact.status).toBe(200);
    emails.push(email);
    const conversation = await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inbox.body.id, contact_id: contact.body.payload.contact.id });
    await post(`${world.base}/conversations/${conversation.body.id}/messages`, world.admin.key, { content: `Hello ${n}` });
  }
  return { ...world, emails };
}

/** The directory's entry of the account, and whether `shard` still holds any row of it. */
async function standing(accountId: number) {
  return directory().prepare("SELECT shard, shard_status AS status, move_to AS moveTo FROM accounts WHERE id = ?").bind(accountId).first<{ shard: number; status: number; moveTo: number | null }>();
}
async function anyRowsOn(shard: D1Database, accountId: number) {
  let n = (await shard.prepare("SELECT count(*) AS n FROM accounts WHERE id = ?").bind(accountId).first<{ n: number }>())!.n;
  for (const table of ["contacts", "conversations", "messages", "inboxes", "account_users", "event_outbox"]) n += await rowsOn(shard, table, accountId);
  return n;
}

/** The account takes changes on `shard` again, and every contact in `emails` is there. */
async function writableWithEverything(world: Awaited<ReturnType<typeof filledWorld>>, shard: number) {
  const later = await post(`${world.base}/contacts`, world.admin.key, { name: "Afterwards", email: `afterwards.${world.accountId}@example.com` });
  expect(later.status).toBe(200);
  expect(timing(later.headers, "db-shard")).toBe(shard);
  const listed = await get(`${world.base}/contacts`, world.admin.key);
  expect(listed.body.payload.map((c: { email: string }) => c.email)).toEqual(expect.arrayContaining([...world.emails, `afterwards.${world.accountId}@example.com`]));
}

describe("a move never strands the account", { timeout: 90_000 }, () => {
  it("retries a busy database and moves all the same", async () => {
    const world = await filledWorld();
    const to = world.shard + 1;
    let busy = 0;
    const shards = allShards().map((db, n) =>
      n !== to
        ? db
        : withFault(db, (query) => {
            // the first inserts of messages meet a locked database, as D1 answers under load
            if (query.startsWith('INSERT INTO "messages"') && busy < 3) {
              busy += 1;
              throw new Error("D1_ERROR: database is locked: SQLITE_BUSY");
            }
          }),
    );
    const messages = await rowsOn(allShards()[world.shard], "messages", world.accountId);
    const lines: string[] = [];
    await moveAccount({ directory: directory(), shards, accountId: world.accountId, to, drainMs: 0, leaveMs: 0, log: (line) => lines.push(line) });
    expect(busy).toBe(3);
    expect(lines.filter((line) => line.includes("SQLITE_BUSY") && line.includes("trying again"))).toHaveLength(3);
    expect(await standing(world.accountId)).toEqual({ shard: to, status: 1, moveTo: null });
    expect(await rowsOn(allShards()[to], "messages", world.accountId)).toBe(messages);
    expect(await anyRowsOn(allShards()[world.shard], world.accountId)).toBe(0);
    await writableWithEverything(world, to);
  });

  it("rolls back on its own when the new shard fails before the switch", async () => {
    const world = await filledWorld();
    const to = world.shard + 1;
    const shards = allShards().map((db, n) =>
      n !== to
        ? db
        : withFault(db, (query) => {
            if (query.startsWith('INSERT INTO "messages"')) throw new Error("D1_ERROR: no such table: messages: SQLITE_ERROR");
          }),
    );
    const lines: string[] = [];
    await expect(moveAccount({ directory: directory(), shards, accountId: world.accountId, to, drainMs: 0, leaveMs: 0, log: (line) => lines.push(line) })).rejects.toThrow(
      /did not move .*no such table.*active on shard/,
    );
    // back on its old shard at once, taking changes, and the new shard keeps nothing of it
    expect(await standing(world.accountId)).toEqual({ shard: world.shard, status: 1, moveTo: null });
    expect(await anyRowsOn(allShards()[to], world.accountId)).toBe(0);
    await writableWithEverything(world, world.shard);
  });

  it("is rolled back by the cron when its mover stopped half way through the copy", async () => {
    const world = await filledWorld();
    const to = world.shard + 1;
    // the mover's process stops for good as it starts on the messages: the contacts are copied by then
    let stopped!: () => void;
    const hasStopped = new Promise<void>((resolve) => (stopped = resolve));
    const shards = allShards().map((db, n) =>
      n !== to
        ? db
        : withFault(db, async (query) => {
            if (query.startsWith('INSERT INTO "messages"')) {
              stopped();
              await new Promise(() => {});
            }
          }),
    );
    void moveAccount({ directory: directory(), shards, accountId: world.accountId, to, drainMs: 0, leaveMs: 0 });
    await hasStopped;
    expect(await rowsOn(allShards()[to], "contacts", world.accountId)).toBe(3);
    const refused = await post(`${world.base}/contacts`, world.admin.key, { name: "Refused", email: `refused.${world.accountId}@example.com` });
    expect(refused.status).toBe(503);

    // a live mover beats its heartbeat: the cron leaves a move alone while the heartbeat is recent
    await runScheduledWork(env).catch(() => {});
    expect((await standing(world.accountId))!.status).toBe(2);
    // a minute and more later (the heartbeat put back, as the clock would have moved), the cron's next run rolls it back
    await directory().prepare("UPDATE accounts SET updated_at = updated_at - 120000 WHERE id = ?").bind(world.accountId).run();
    await runScheduledWork(env).catch(() => {});
    expect(await standing(world.accountId)).toEqual({ shard: world.shard, status: 1, moveTo: null });
    expect(await anyRowsOn(allShards()[to], world.accountId)).toBe(0);
    await writableWithEverything(world, world.shard);
  });

  it("lets a widget's changes in as soon as it ends, though its placement was cached during the move", async () => {
    const world = await movableWorld();
    const to = world.shard + 1;
    const { identifier } = await publicInbox(world.accountId);
    const lines: string[] = [];
    const move = moveAccount({ directory: directory(), shards: allShards(), accountId: world.accountId, to, drainMs: 300, leaveMs: 0, log: (line) => lines.push(line) });
    while (!lines.some((line) => line.includes("is moving"))) await new Promise((resolve) => setTimeout(resolve, 20));
    // during the move the widget reads (served from the old shard) and may not write
    expect((await get(`/public/api/v1/inboxes/${identifier}`, null)).status).toBe(200);
    expect((await post(`/public/api/v1/inboxes/${identifier}/contacts`, null, { name: "Too early" })).status).toBe(503);
    await move;
    // at once afterwards: no cached placement keeps it waiting
    // a platform key, so the answer shows which shard served it (docs/api.md "Errors": figures for proven callers only)
    const created = await post(`/public/api/v1/inboxes/${identifier}/contacts`, world.platformKey, { name: "Right after" });
    expect(created.status).toBe(200);
    expect(timing(created.headers, "db-shard")).toBe(to);
  });
});
