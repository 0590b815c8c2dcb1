/**
 * Moving an account of 10,000 messages while its clients write (docs/shards.md: "Moving an account";
 * bench/README.md "Moving an account"). Six writers post messages to the account and one to a neighbour
 * account on the same shard, from before the move until after it; the move is the mover's own code
 * (src/jobs/account-move.ts) with its default waits. Reports, on lines starting with "move-bench":
 * acknowledged writes lost (every message answered 200 must be on the new shard), the longest refusal
 * (from the first 503 to the first write acknowledged after the last one) beside the copy's own time, and
 * the neighbour's p50 before and during the move. `npm run bench:move`; BENCH_MOVE_MESSAGES for another size.
 */
import { env } from "cloudflare:workers";
import { it } from "vitest";
import { DRAIN_MS, moveAccount } from "../src/jobs/account-move";
import { allShards, directory, shardNumberOf, shardOf } from "../test/support/databases";
import { call, post } from "../test/support/http";
import { createWorld } from "../test/support/world";

const MESSAGES = Number((env as unknown as { BENCH_MOVE_MESSAGES?: string }).BENCH_MOVE_MESSAGES ?? 10_000);
const WRITERS = 6;

const report = (...parts: unknown[]) => console.log(["move-bench", ...parts].join(" | "));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type World = Awaited<ReturnType<typeof createWorld>>;
type Write = { content: string; status: number; start: number; end: number };

/** An API inbox, a contact and a conversation of the account: answers the conversation's messages path. */
async function conversationOf(world: World) {
  const inbox = await post(`${world.base}/inboxes`, world.admin.key, { name: "API", channel: { type: "api" } });
  const contact = await post(`${world.base}/contacts`, world.admin.key, { name: "Customer", email: `customer.${world.accountId}@example.com` });
  const conversation = await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inbox.body.id, contact_id: contact.body.payload.contact.id });
  return { id: conversation.body.id as number, path: `${world.base}/conversations/${conversation.body.id}/messages` };
}

/** Two accounts on one shard below the last (the moved one and its neighbour). */
async function twoOnOneShard(): Promise<[World, World, number]> {
  const seen = new Map<number, World>();
  for (let attempt = 0; attempt < 12; attempt++) {
    const world = await createWorld(`Move bench ${attempt}`);
    const shard = await shardNumberOf(world.accountId);
    if (shard === allShards().length - 1) continue;
    const other = seen.get(shard);
    if (other) return [other, world, shard];
    seen.set(shard, world);
  }
  throw new Error("no two accounts on one shard below the last");
}

/** A writer that posts messages `prefix-<n>` until `running()` says stop, a few ms apart. */
async function writer(path: string, key: string, prefix: string, running: () => boolean, writes: Write[]) {
  for (let n = 0; running(); n++) {
    const content = `${prefix}-${n}`;
    const start = performance.now();
    const res = await call("POST", path, { key, body: { content } });
    writes.push({ content, status: res.status, start, end: performance.now() });
    await sleep(5);
  }
}

it("moves an account while its clients write", async () => {
  const [moved, neighbour, from] = await twoOnOneShard();
  const to = from + 1;
  const conversation = await conversationOf(moved);
  const nextDoor = await conversationOf(neighbour);
  const shard = await shardOf(moved.accountId);
  await shard
    .prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
       INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, created_at, updated_at)
       SELECT account_id, inbox_id, id, 0, 'Seeded message ' || n || ' about order ' || (n * 7919 % 100000), ?3, ?3 FROM conversations, seq WHERE conversations.id = ?2`,
    )
    .bind(MESSAGES, conversation.id, Date.now())
    .run();
  const rows = async (db: D1Database, table: string) => (await db.prepare(`SELECT count(*) AS n FROM ${table} WHERE account_id = ?`).bind(moved.accountId).first<{ n: number }>())!.n;
  report(`account ${moved.accountId} on shard ${from} of ${allShards().length}: ${await rows(shard, "messages")} messages; neighbour ${neighbour.accountId} on the same shard`);

  // the neighbour alone first: its baseline in this run
  let baseline = true;
  const alone: Write[] = [];
  await Promise.all([writer(nextDoor.path, neighbour.admin.key, "alone", () => baseline, alone), sleep(3_000).then(() => (baseline = false))]);

  const writes: Write[][] = Array.from({ length: WRITERS }, () => []);
  const neighbourWrites: Write[] = [];
  let running = true;
  const writers = [
    ...writes.map((list, i) => writer(conversation.path, moved.admin.key, `w${i}`, () => running, list)),
    writer(nextDoor.path, neighbour.admin.key, "next", () => running, neighbourWrites),
  ];
  await sleep(2_000);
  const marks: Record<string, number> = {};
  const started = performance.now();
  const copied = await moveAccount({
    directory: directory(),
    shards: allShards(),
    accountId: moved.accountId,
    to,
    log: (line) => {
      if (line.includes("is moving")) marks.marked = performance.now();
      if (line.includes("copied and counted")) marks.copied = performance.now();
      if (line.includes(`is on shard ${to}`)) marks.switched = performance.now();
    },
  });
  const finished = performance.now();
  await sleep(2_000);
  running = false;
  await Promise.all(writers);

  // lost: a message answered 200 that the new shard does not have
  const all = writes.flat();
  const onNewShard = new Set(
    (await allShards()[to].prepare("SELECT content FROM messages WHERE account_id = ? AND content LIKE 'w%-%'").bind(moved.accountId).all<{ content: string }>()).results.map((r) => r.content),
  );
  const acknowledged = all.filter((w) => w.status === 200);
  const lost = acknowledged.filter((w) => !onNewShard.has(w.content)).length;
  const refused = all.filter((w) => w.status === 503);
  const other = all.filter((w) => w.status !== 200 && w.status !== 503);
  const firstRefused = Math.min(...refused.map((w) => w.start));
  const lastRefused = Math.max(...refused.map((w) => w.start));
  const firstBack = Math.min(...acknowledged.filter((w) => w.start > lastRefused).map((w) => w.end));
  // the neighbour's writes that overlapped the move, from its mark to its switch
  const during = neighbourWrites.filter((w) => w.start < marks.switched && w.end > marks.marked && w.status === 200).map((w) => w.end - w.start);

  report(`copied ${Object.values(copied).reduce((a, b) => a + b, 0)} rows (messages ${copied.messages}, message_search ${copied.message_search})`);
  report(`writes to the account: ${all.length}`, `acknowledged ${acknowledged.length}`, `refused (503) ${refused.length}`, `other answers ${other.length}`, `acknowledged writes lost ${lost}`);
  report(
    `longest refusal ${((firstBack - firstRefused) / 1000).toFixed(1)} s (first 503 to the first write acknowledged after the last)`,
    `mark to switch ${((marks.switched - marks.marked) / 1000).toFixed(1)} s (the drain, then the copy and its count ${((marks.copied - marks.marked) / 1000 - DRAIN_MS / 1000).toFixed(1)} s)`,
    `whole move ${((finished - started) / 1000).toFixed(1)} s (with the old shard's rows kept for cached readers, then removed)`,
  );
  report(`neighbour p50 alone ${median(alone.map((w) => w.end - w.start)).toFixed(0)} ms (${alone.length} writes)`, `during the move ${median(during).toFixed(0)} ms (${during.length} writes)`);
  if (lost > 0 || other.length > 0) throw new Error(`lost ${lost}, other answers ${other.map((w) => w.status).join(",")}`);
});
