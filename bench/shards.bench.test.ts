/**
 * The shard pool at 10,000 accounts (docs/shards.md; bench/README.md "Shards"). One run measures one
 * pool size (BENCH_SHARDS; `npm run bench:shards` runs 1, 16 and 64 in turn):
 * (a) accounts per shard after BENCH_ACCOUNTS creates, through the domain's createAccount (the real
 *     placement, without HTTP, so that 10,000 fit in minutes);
 * (b) rows per shard after accounts of Zipf-distributed sizes, created one after another as fast as they
 *     go (a burst), each filled at once, with the size sweep run once a minute as the cron runs it;
 * (c) round trips and rows read (Server-Timing) of a few endpoints;
 * (d) directory reads per request once the isolate's caches are warm: public widget GETs, and placement
 *     look-ups as the queue consumer makes them;
 * (e) one hot account: the round trips of a stream of its requests, summed per shard;
 * (f) the cron over every shard (median of 3).
 * Every figure is printed on a line starting with "shards-bench".
 */
import { env } from "cloudflare:workers";
import { it } from "vitest";
import { connectDirectory } from "../src/db/connect";
import { QueryMeter } from "../src/db/metering";
import { forgetPlacement, readPlacement } from "../src/db/shards";
import { createAccount } from "../src/domain/identity/accounts";
import { recordShardSize } from "../src/domain/identity/shard-stats";
import type { PlatformScope } from "../src/domain/kernel/scope";
import { runScheduledWork } from "../src/jobs/cron";
import { jobScope } from "../src/jobs/scope";
import { allShards, directory, shardNumberOf, shardOf } from "../test/support/databases";
import { createInbox } from "../test/support/fixtures";
import { call, createPlatformApp } from "../test/support/http";
import { addToAccount, createUser, createWorld } from "../test/support/world";

const SHARDS = allShards().length;
/** What vitest.bench.config.ts passes on from the environment. */
const bench = env as unknown as { BENCH_ACCOUNTS?: string; BENCH_ZIPF_ACCOUNTS?: string; BENCH_SWEEP_EVERY?: string; BENCH_SWEEP_SECONDS?: string };
const ACCOUNTS = Number(bench.BENCH_ACCOUNTS ?? 10_000);
/** Creates in flight at once while seeding (the directory serialises them; a few overlap the shard writes). */
const CONCURRENCY = 4;
/** Zipf phase: how many accounts, the exponent, the largest account, the bound on all rows, how often sizes are swept. */
const ZIPF_ACCOUNTS = Number(bench.BENCH_ZIPF_ACCOUNTS ?? Math.min(1_000, Math.ceil(ACCOUNTS / 10)));
const ZIPF_EXPONENT = 1.2;
const ZIPF_MAX_ROWS = 3_000;
const ZIPF_TOTAL_ROWS = 300_000;
/**
 * Sizes are swept every SWEEP_SECONDS of the run's time (60, as the cron), or, when BENCH_SWEEP_EVERY is
 * given, every that many creates instead; 0 creates: never, and the recorded sizes are set to 0 first,
 * so placement goes by accounts alone (the comparison).
 */
const SWEEP_EVERY = bench.BENCH_SWEEP_EVERY === undefined ? null : Number(bench.BENCH_SWEEP_EVERY);
const SWEEP_SECONDS = Number(bench.BENCH_SWEEP_SECONDS ?? 60);
const RUNS = 15;

const report = (...parts: unknown[]) => console.log(["shards-bench", `shards=${SHARDS}`, ...parts].join(" | "));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const maxOverMean = (xs: number[]) => Math.max(...xs) / (xs.reduce((a, b) => a + b, 0) / xs.length);

function timingOf(headers: Headers) {
  const value = (name: string) => Number(new RegExp(`${name};desc="(\\d+)"`).exec(headers.get("server-timing") ?? "")?.[1] ?? NaN);
  return { roundTrips: value("db-round-trips"), rowsRead: value("db-rows-read"), shard: value("db-shard") };
}

/** A platform app's scope, built the way the jobs build theirs (src/jobs/scope.ts), acting on the directory. */
async function platformScope(): Promise<{ scope: PlatformScope; platformKey: string }> {
  const platformKey = await createPlatformApp("Shards bench");
  const app = await directory().prepare("SELECT max(id) AS id FROM platform_apps").first<{ id: number }>();
  const db = connectDirectory(env).db;
  return { scope: { ...jobScope(db, env, db), actor: { type: "platform_app", platformAppId: app!.id } }, platformKey };
}

async function countsPerShard(sql: string): Promise<number[]> {
  return Promise.all(allShards().map(async (db) => (await db.prepare(sql).first<{ n: number }>())!.n));
}

/** A deterministic Zipf sampler over 1..max (P(k) ∝ k^-s), from a seeded 32-bit generator (mulberry32). */
function zipf(max: number, s: number, seed: number) {
  const cumulative: number[] = [];
  let total = 0;
  for (let k = 1; k <= max; k++) cumulative.push((total += k ** -s));
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid] < target) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  };
}

/** `rows` contacts of the account on its shard, in one statement (a recursive CTE). */
async function fillWithContacts(accountId: number, rows: number) {
  const shard = await shardOf(accountId);
  await shard
    .prepare(
      `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?1)
       INSERT INTO contacts (account_id, name, email, blocked, resolved, created_at, updated_at)
       SELECT ?2, 'Customer ' || n, 'c' || n || '.' || ?2 || '@example.com', 0, 1, ?3, ?3 FROM seq`,
    )
    .bind(rows, accountId, Date.now())
    .run();
}

/** The size sweep of every shard, as the cron runs it (one tiny query each, the size written to the directory). */
async function sweepSizes() {
  const db = connectDirectory(env).db;
  const transport = jobScope(db, env, db);
  await Promise.all(allShards().map((_, shard) => recordShardSize({ ...transport, db: transport.shards.open(shard) }, shard)));
}

async function measure(method: string, path: string, key: string | null, body: () => unknown = () => undefined) {
  const samples: Array<ReturnType<typeof timingOf>> = [];
  for (let i = 0; i < RUNS; i++) {
    const res = await call(method, path, { key, body: body() });
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    samples.push(timingOf(res.headers));
  }
  return { roundTrips: median(samples.map((s) => s.roundTrips)), rowsRead: median(samples.map((s) => s.rowsRead)) };
}

/** A website inbox of the account and the public identifier the widget addresses it by. */
async function widgetInbox(accountId: number) {
  const inboxId = await createInbox(accountId, { channel: "Channel::WebWidget" });
  const row = await (await shardOf(accountId)).prepare("SELECT identifier FROM inboxes WHERE id = ?").bind(inboxId).first<{ identifier: string }>();
  return row!.identifier;
}

it("measures the pool", async () => {
  const { scope, platformKey } = await platformScope();

  // (a) accounts per shard after ACCOUNTS creates, placed by the real createAccount
  let started = performance.now();
  let made = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (made < ACCOUNTS) {
        const n = ++made;
        await createAccount(scope, { name: `Seeded ${n}` });
        if (n % 1_000 === 0) console.log(`shards-bench | shards=${SHARDS} | seeded ${n} of ${ACCOUNTS} accounts in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const { results } = await directory().prepare("SELECT shard, count(*) AS n FROM accounts GROUP BY shard").all<{ shard: number; n: number }>();
  const perShard = allShards().map((_, shard) => results.find((row) => row.shard === shard)?.n ?? 0);
  report(`(a) ${ACCOUNTS} accounts in ${seconds.toFixed(0)} s`, `per shard min ${Math.min(...perShard)} max ${Math.max(...perShard)}`, `max/mean ${maxOverMean(perShard).toFixed(3)}`);

  // (b) Zipf-sized accounts, placed by size (swept every SWEEP_EVERY creates) then accounts
  started = performance.now();
  const size = zipf(ZIPF_MAX_ROWS, ZIPF_EXPONENT, 20261127);
  const before = await countsPerShard("SELECT count(*) AS n FROM contacts");
  let rows = 0;
  let zipfAccounts = 0;
  let sweeps = 0;
  let sweptAt = -Infinity;
  if (SWEEP_EVERY === 0) await directory().prepare("UPDATE shard_stats SET bytes = 0").run();
  for (let i = 0; i < ZIPF_ACCOUNTS && rows < ZIPF_TOTAL_ROWS; i++) {
    const due = SWEEP_EVERY === null ? performance.now() - sweptAt >= SWEEP_SECONDS * 1000 : SWEEP_EVERY > 0 && i % SWEEP_EVERY === 0;
    if (due) {
      await sweepSizes();
      sweptAt = performance.now();
      sweeps += 1;
    }
    const account = await createAccount(scope, { name: `Zipf ${i}` });
    const n = Math.min(size(), ZIPF_TOTAL_ROWS - rows);
    await fillWithContacts(account.id, n);
    rows += n;
    zipfAccounts += 1;
    if ((i + 1) % 250 === 0) console.log(`shards-bench | shards=${SHARDS} | zipf: ${i + 1} accounts, ${rows} rows`);
  }
  const after = await countsPerShard("SELECT count(*) AS n FROM contacts");
  const zipfRows = after.map((n, shard) => n - before[shard]);
  report(
    `(b) ${zipfAccounts} Zipf accounts (s=${ZIPF_EXPONENT}, 1..${ZIPF_MAX_ROWS} rows), ${rows} rows, ${SWEEP_EVERY === null ? `sweep every ${SWEEP_SECONDS} s` : SWEEP_EVERY ? `sweep every ${SWEEP_EVERY} creates` : "no sweep (by accounts)"} (${sweeps} sweeps), ${((performance.now() - started) / 1000).toFixed(0)} s`,
    `rows per shard min ${Math.min(...zipfRows)} max ${Math.max(...zipfRows)}`,
    `max/mean ${maxOverMean(zipfRows).toFixed(3)}`,
  );

  // (c) round trips and rows read per endpoint: on a new account (wherever placement put it), and on a
  // seeded account of shard 0, which a pool of one shares with any pool (shards other than 0 keep an
  // id range, src/db/id-ranges.ts, and with it an entry per table in sqlite_sequence)
  const world = await createWorld("Shards bench");
  const onShardZero = (await directory().prepare("SELECT min(id) AS id FROM accounts WHERE shard = 0 AND name LIKE 'Seeded %'").first<{ id: number }>())!.id;
  const zeroAdmin = await createUser(platformKey, "Shard zero admin");
  await addToAccount(platformKey, onShardZero, zeroAdmin.id, "administrator");
  let contact = 0;
  for (const [accountId, key] of [
    [world.accountId, world.admin.key],
    [onShardZero, zeroAdmin.key],
  ] as const) {
    const base = `/api/v1/accounts/${accountId}`;
    const identifier = await widgetInbox(accountId);
    const shard = await shardNumberOf(accountId);
    const sequences = (await allShards()[shard].prepare("SELECT count(*) AS n FROM sqlite_sequence").first<{ n: number }>())!.n;
    const endpoints: Array<[string, () => Promise<{ roundTrips: number; rowsRead: number }>]> = [
      ["GET agents", () => measure("GET", `${base}/agents`, key)],
      ["GET conversations", () => measure("GET", `${base}/conversations`, key)],
      ["POST contacts", () => measure("POST", `${base}/contacts`, key, () => ({ name: "Bench", email: `bench.${++contact}@example.com` }))],
      // a keyless route shows its cost only to a request that carries a platform key (docs/api.md "Errors")
      ["GET public inbox (warm)", () => measure("GET", `/public/api/v1/inboxes/${identifier}`, platformKey)],
    ];
    for (const [name, run] of endpoints) {
      const { roundTrips, rowsRead } = await run();
      report(`(c) account on shard ${shard} (${sequences} sqlite_sequence rows): ${name}`, `round trips ${roundTrips}`, `rows read ${rowsRead}`);
    }
  }

  // (d) directory reads per request, caches warm: the widget's public GETs, and placement look-ups
  const widgetAccounts = (await directory().prepare("SELECT id FROM accounts WHERE name LIKE 'Zipf %' ORDER BY id LIMIT 20").all<{ id: number }>()).results.map((r) => r.id);
  const identifiers = await Promise.all(widgetAccounts.map(widgetInbox));
  const warm = await Promise.all(identifiers.map(async (key) => timingOf((await call("GET", `/public/api/v1/inboxes/${key}`, { key: platformKey })).headers).roundTrips));
  const shardOnly = median(await Promise.all(identifiers.map(async (key) => timingOf((await call("GET", `/public/api/v1/inboxes/${key}`, { key: platformKey })).headers).roundTrips)));
  let publicRequests = 0;
  let withDirectory = 0;
  for (let i = 0; i < 500; i++) {
    const res = await call("GET", `/public/api/v1/inboxes/${identifiers[i % identifiers.length]}`, { key: platformKey });
    publicRequests += 1;
    if (timingOf(res.headers).roundTrips > shardOnly) withDirectory += 1;
  }
  report(`(d) public GETs: first of each key ${median(warm)} round trips, warm ${shardOnly}`, `${withDirectory} of ${publicRequests} warm requests read the directory`, `per request ${(withDirectory / publicRequests).toFixed(4)}`);
  const meter = new QueryMeter();
  const metered = connectDirectory(env, { meter }).db;
  for (const accountId of widgetAccounts) {
    forgetPlacement(accountId);
    await readPlacement(metered, accountId);
  }
  const cold = meter.roundTrips;
  for (let i = 0; i < 1_000; i++) await readPlacement(metered, widgetAccounts[i % widgetAccounts.length]);
  report(`(d) placement look-ups: ${cold} directory reads for ${widgetAccounts.length} accounts cold`, `${meter.roundTrips - cold} for 1000 warm`, `per look-up ${((meter.roundTrips - cold) / 1000).toFixed(4)}`);

  // (e) one hot account: its requests' round trips, summed per shard (Server-Timing names the shard)
  const hotShard = await shardNumberOf(world.accountId);
  const perShardTrips = new Map<number, number>();
  for (let i = 0; i < 200; i++) {
    const res = await call("GET", `${world.base}/${i % 2 ? "agents" : "conversations"}`, { key: world.admin.key });
    const { roundTrips, shard } = timingOf(res.headers);
    perShardTrips.set(shard, (perShardTrips.get(shard) ?? 0) + roundTrips);
  }
  const others = [...perShardTrips].filter(([shard]) => shard !== hotShard).reduce((sum, [, trips]) => sum + trips, 0);
  report(`(e) 200 requests of one account on shard ${hotShard}`, `round trips there ${perShardTrips.get(hotShard) ?? 0}`, `on the other ${SHARDS - 1} shards ${others}`);

  // (f) the cron over every shard and the directory
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const at = performance.now();
    await runScheduledWork(env);
    times.push(performance.now() - at);
  }
  report(`(f) runScheduledWork over ${SHARDS} shards`, `median ${median(times).toFixed(0)} ms`, `runs ${times.map((t) => t.toFixed(0)).join(", ")} ms`);
  const stats = (await directory().prepare("SELECT shard, accounts, bytes FROM shard_stats ORDER BY shard").all<{ shard: number; accounts: number; bytes: number }>()).results;
  report(`shard_stats after the cron: bytes min ${Math.min(...stats.map((s) => s.bytes))} max ${Math.max(...stats.map((s) => s.bytes))}`);
});
