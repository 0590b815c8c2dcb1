/**
 * Moving one account's rows from its shard to another (docs/shards.md: "Moving an account"), on D1
 * bindings directly: `npm run move-account` hands it wrangler's bindings (local, or Cloudflare's), the
 * cron the Worker's (`recoverMoves`), the tests theirs. In order:
 *   1. the directory marks the account moving (`shard_status`, `move_to` the new shard, `updated_at` the
 *      move's heartbeat): from then on its changes are refused with 503 and Retry-After, its reads are
 *      still served from the old shard;
 *   2. it waits `drainMs` (by default a little over PLACEMENT_WRITE_TTL_MS, src/db/shards.ts: the
 *      longest a change trusts a cached placement), so every change acknowledged before the mark is on
 *      the old shard;
 *   3. it copies the account's rows, table by table in chunks, ids kept, its search-index rows and its
 *      Idempotency-Key records, beating the heartbeat as it goes;
 *   4. it compares the counts of every table on both shards;
 *   5. the directory switches the account to the new shard, bumps its version and lets changes in; its
 *      `move_to` now names the old shard, whose rows are left to remove;
 *   6. once no cached placement can still send a read to the old shard (`leaveMs` after the mark), it
 *      deletes the rows there and clears `move_to`.
 * Every statement is retried with backoff on D1's transient errors (busy, locked, a reset or lost
 * connection, overload). Any other failure before the switch rolls the move back on its own: the account
 * active on its old shard again, the partial copy removed. A mover that stopped (a killed process) stops
 * beating the heartbeat; the cron rolls back a move whose heartbeat is older than MOVE_STALE_MS and removes
 * whatever rows a move left behind, so an account refuses changes for the copy's time at most, plus a
 * minute or two when the mover dies.
 *
 * Ids: each shard gives out ids from its own range (src/db/id-ranges.ts), and an account moves only to
 * a shard with a higher number, so its rows keep their ids below the new shard's own range and clash
 * with nothing there.
 *
 * The file imports nothing: Node runs it as it is for `npm run move-account` (type stripping), and the
 * Worker bundles it for the cron. The status values are SHARD_STATUS's (src/db/shard-status.ts).
 */

const ACTIVE = 1;
const MOVING = 2;
const IDS_PER_SHARD = 2 ** 40;
/** Full-text tables and the table whose ids their rowids are. */
const SEARCH_INDEXES: Record<string, string> = { contact_search: "contacts", message_search: "messages", article_search: "articles" };
const CHUNK_ROWS = 200;
/** The most JSON one insert carries: long messages and articles make rows of very different sizes. */
const CHUNK_BYTES = 200_000;
/**
 * Columns of `users` a shard's copy leaves out (password and token digests), as
 * src/domain/identity/mirror.ts copies users from the directory.
 */
const DIRECTORY_ONLY_USER_COLUMNS = ["password_hash", "unconfirmed_email", "confirmation_token_digest", "confirmation_expires_at", "reset_password_token_digest", "reset_password_expires_at"];

/** A move whose heartbeat is older than this is taken for dead: the cron rolls it back. */
export const MOVE_STALE_MS = 60_000;
/** How often a running move beats its heartbeat (well inside MOVE_STALE_MS, retries and all). */
const HEARTBEAT_MS = 10_000;
/** The Worker trusts a cached placement this long for reads (PLACEMENT_TTL_MS, src/db/shards.ts), plus requests in flight. */
export const LEAVE_OLD_SHARD_MS = 30_000 + 5_000;
/** Before the copy: a change trusts a cached placement 2 s at most (PLACEMENT_WRITE_TTL_MS), plus its own time. */
export const DRAIN_MS = 3_000;

/**
 * D1's words for an error that passes: the database busy or locked, a lost or reset connection, an
 * overloaded or restarting database. The statement did not commit (or, after a lost answer, a repeat
 * fails on the rows it already wrote, which rolls the move back), so it is tried again.
 */
const TRANSIENT = /SQLITE_BUSY|database is locked|Network connection lost|connection reset|ECONNRESET|overloaded|object to be reset|D1_ERROR: (internal error|timed out)/i;
const RETRIES = 8;
const FIRST_RETRY_MS = 100;
const LONGEST_RETRY_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

type Row = Record<string, unknown>;
type Log = (line: string) => void;
export type MoveRetry = { retries?: number; firstMs?: number };

/** A D1 database whose every call is retried on transient errors, with exponential backoff and jitter. */
type Patient = {
  run(query: string, ...values: unknown[]): Promise<D1Result>;
  all<T = Row>(query: string, ...values: unknown[]): Promise<T[]>;
  first<T = Row>(query: string, ...values: unknown[]): Promise<T | null>;
  batch(statements: Array<[query: string, ...values: unknown[]]>): Promise<D1Result[]>;
};

function patient(d1: D1Database, name: string, log: Log, { retries = RETRIES, firstMs = FIRST_RETRY_MS }: MoveRetry = {}): Patient {
  const retried = async <T>(work: () => Promise<T>): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        const text = String((error as { message?: unknown })?.message ?? error) + String((error as { cause?: unknown })?.cause ?? "");
        if (attempt >= retries || !TRANSIENT.test(text)) throw error;
        const wait = Math.min(LONGEST_RETRY_MS, firstMs * 2 ** attempt) * (0.5 + Math.random() / 2);
        log(`  ${name}: ${text.slice(0, 120)}; trying again in ${Math.round(wait)} ms`);
        await sleep(wait);
      }
    }
  };
  const statement = (query: string, values: unknown[]) => d1.prepare(query).bind(...values);
  return {
    run: (query, ...values) => retried(() => statement(query, values).run()),
    all: async <T>(query: string, ...values: unknown[]) => (await retried(() => statement(query, values).all<T>())).results,
    first: <T>(query: string, ...values: unknown[]) => retried(() => statement(query, values).first<T>()),
    batch: (statements) => retried(() => d1.batch(statements.map(([query, ...values]) => statement(query, values)))),
  };
}

type Table = { name: string; columns: string[] };

async function columnsOf(db: Patient, table: string): Promise<string[]> {
  return (await db.all<{ name: string }>(`PRAGMA table_info(${quote(table)})`)).map((column) => column.name);
}

/** The account's tables on a shard: every ordinary table with an `account_id` column, with its columns. */
async function accountTables(db: Patient): Promise<Table[]> {
  const names = await db.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name <> 'd1_migrations'",
  );
  const tables: Table[] = [];
  for (const { name } of names) {
    const columns = await columnsOf(db, name);
    if (columns.includes("account_id")) tables.push({ name, columns });
  }
  return tables;
}

/** One insert of `rows` (objects keyed by column) into `table`, as a statement for `Patient.run`. */
function insertRows(table: string, columns: string[], rows: Row[], withRowid = false): [string, string] {
  const names = [...(withRowid ? ["rowid"] : []), ...columns];
  const values = names.map((name) => `json_extract(value, '$.${name === "rowid" ? "__rowid" : `"${name}"`}')`);
  return [`INSERT INTO ${quote(table)} (${names.map(quote).join(", ")}) SELECT ${values.join(", ")} FROM json_each(?) WHERE true`, JSON.stringify(rows)];
}

/** Splits rows into groups of at most CHUNK_BYTES of JSON (a row larger than that goes alone). */
function bySize(rows: Row[]): Row[][] {
  const groups: Row[][] = [];
  let group: Row[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = JSON.stringify(row).length;
    if (group.length > 0 && bytes + size > CHUNK_BYTES) {
      groups.push(group);
      [group, bytes] = [[], 0];
    }
    group.push(row);
    bytes += size;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** Deletes, a thousand rows a statement, the rows of `table` that `where` picks (D1 caps a statement's time). */
async function deleteChunks(db: Patient, table: string, where: string, ...values: unknown[]) {
  for (;;) {
    const { meta } = await db.run(`DELETE FROM ${quote(table)} WHERE rowid IN (SELECT rowid FROM ${quote(table)} WHERE ${where} LIMIT 1000)`, ...values);
    if (!meta.changes) return;
  }
}

/**
 * The account's Idempotency-Key records (src/http/idempotency.ts): their scope names the account, or
 * for the widget's requests one of its inboxes' identifiers. They carry no account_id of their own.
 */
async function idempotencyScopes(db: Patient, accountId: number): Promise<string[]> {
  const inboxes = await db.all<{ identifier: string }>("SELECT identifier FROM inboxes WHERE account_id = ?", accountId);
  return [`account:${accountId}:`, ...inboxes.map((row) => `public:${row.identifier}:`)];
}
const SCOPE_PREFIX = "substr(scope, 1, length(?)) = ?";

/**
 * Removes every row of the account from shard `db` (its search-index rows first: they are found through
 * the rows they index). The idempotency scopes are read from `scopesFrom`, the shard that has its inboxes.
 */
async function removeAccount(db: Patient, accountId: number, scopesFrom: Patient = db) {
  const tables = await accountTables(db);
  const prefixes = await idempotencyScopes(scopesFrom, accountId);
  for (const prefix of prefixes) await deleteChunks(db, "idempotency_keys", SCOPE_PREFIX, prefix, prefix);
  for (const [index, base] of Object.entries(SEARCH_INDEXES)) {
    await deleteChunks(db, index, `rowid IN (SELECT id FROM ${quote(base)} WHERE account_id = ?)`, accountId);
  }
  for (const { name } of tables) await deleteChunks(db, name, "account_id = ?", accountId);
  await db.run("DELETE FROM accounts WHERE id = ?", accountId);
}

async function countOf(db: Patient, table: string, where: string, accountId: number): Promise<number> {
  return (await db.first<{ n: number }>(`SELECT count(*) AS n FROM ${quote(table)} WHERE ${where}`, accountId))!.n;
}

/** Upserts `rows` of `table` into `db`, a newer copy there kept (`updated_at`), the columns in `leaveOut` left empty. */
async function upsertRows(db: Patient, table: string, rows: Row[], leaveOut: string[] = []) {
  const columns = await columnsOf(db, table);
  const updates = columns.filter((c) => c !== "id").map((c) => `${quote(c)} = excluded.${quote(c)}`).join(", ");
  const values = columns.map((c) => (leaveOut.includes(c) ? "NULL" : `json_extract(value, '$."${c}"')`)).join(", ");
  for (const group of bySize(rows)) {
    await db.run(
      `INSERT INTO ${quote(table)} (${columns.map(quote).join(", ")}) SELECT ${values} FROM json_each(?) WHERE true ON CONFLICT (id) DO UPDATE SET ${updates} WHERE excluded.updated_at >= ${quote(table)}.updated_at`,
      JSON.stringify(group),
    );
  }
}

/**
 * The account's identity rows on `shard` as the directory has them: its account row, memberships (a
 * membership the directory no longer has goes), the members' users without their secrets, its bots and
 * the system bots.
 */
async function copyIdentityFromDirectory(directory: Patient, shard: Patient, accountId: number) {
  const account = await directory.all("SELECT * FROM accounts WHERE id = ?", accountId);
  const members = await directory.all<Row & { user_id: number }>("SELECT * FROM account_users WHERE account_id = ?", accountId);
  const users = await directory.all("SELECT * FROM users WHERE id IN (SELECT user_id FROM account_users WHERE account_id = ?)", accountId);
  const bots = await directory.all("SELECT * FROM agent_bots WHERE account_id = ? OR account_id IS NULL", accountId);
  await upsertRows(shard, "accounts", account);
  await upsertRows(shard, "users", users, DIRECTORY_ONLY_USER_COLUMNS);
  await upsertRows(shard, "account_users", members);
  await upsertRows(shard, "agent_bots", bots);
  await shard.run("DELETE FROM account_users WHERE account_id = ? AND user_id NOT IN (SELECT value FROM json_each(?))", accountId, JSON.stringify(members.map((row) => row.user_id)));
}

/** Thrown when the directory shows the move is no longer this run's (the cron rolled it back as dead). */
class MoveTakenOver extends Error {}

/** Copies the rows `select` finds (given the last rowid seen and a limit) from `from` to `to`, chunk by chunk. */
async function copyChunks(from: Patient, to: Patient, table: string, columns: string[], select: (last: number) => [string, ...unknown[]], beat: () => Promise<void>, withRowid = false): Promise<number> {
  let last = -1;
  let copied = 0;
  for (;;) {
    const rows = await from.all<Row & { __rowid: number }>(...select(last));
    if (rows.length === 0) return copied;
    for (const group of bySize(rows)) await to.run(...insertRows(table, columns, group, withRowid));
    copied += rows.length;
    last = rows[rows.length - 1].__rowid;
    await beat();
  }
}

/** The copy itself (steps 3 and 4): every row of the account from `source` to `target`, counted on both. */
async function copyAccount(source: Patient, target: Patient, accountId: number, to: number, beat: () => Promise<void>, log: Log): Promise<Record<string, number>> {
  const tables = await accountTables(source);
  const prefixes = await idempotencyScopes(source, accountId);
  // the new shard's ids come from its own range before anything lands there (as src/db/id-ranges.ts keeps them)
  const start = to * IDS_PER_SHARD;
  await target.batch([
    ["INSERT INTO sqlite_sequence (name, seq) SELECT name, ? FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%' AND name NOT IN (SELECT name FROM sqlite_sequence)", start],
    ["UPDATE sqlite_sequence SET seq = ? WHERE seq < ?", start, start],
  ]);

  const copied: Record<string, number> = {};
  copied.accounts = await copyChunks(source, target, "accounts", await columnsOf(source, "accounts"), (last) => ["SELECT rowid AS __rowid, * FROM accounts WHERE id = ? AND rowid > ? ORDER BY rowid LIMIT ?", accountId, last, CHUNK_ROWS], beat);
  // the members' users, unless the new shard has a copy as fresh (they may be members of its accounts too)
  const members = await source.all("SELECT * FROM users WHERE id IN (SELECT user_id FROM account_users WHERE account_id = ?)", accountId);
  await upsertRows(target, "users", members);
  for (const { name, columns } of tables) {
    copied[name] = await copyChunks(source, target, name, columns, (last) => [`SELECT rowid AS __rowid, * FROM ${quote(name)} WHERE account_id = ? AND rowid > ? ORDER BY rowid LIMIT ?`, accountId, last, CHUNK_ROWS], beat);
    if (copied[name] > 0) log(`  ${name}: ${copied[name]} rows`);
  }
  for (const [index, base] of Object.entries(SEARCH_INDEXES)) {
    const select = (last: number): [string, ...unknown[]] => [
      `SELECT rowid AS __rowid, * FROM ${quote(index)} WHERE rowid IN (SELECT id FROM ${quote(base)} WHERE account_id = ?) AND rowid > ? ORDER BY rowid LIMIT ?`,
      accountId,
      last,
      CHUNK_ROWS,
    ];
    copied[index] = await copyChunks(source, target, index, await columnsOf(source, index), select, beat, true);
  }
  const keyColumns = await columnsOf(source, "idempotency_keys");
  copied.idempotency_keys = 0;
  for (const prefix of prefixes) {
    copied.idempotency_keys += await copyChunks(source, target, "idempotency_keys", keyColumns, (last) => [`SELECT rowid AS __rowid, * FROM idempotency_keys WHERE ${SCOPE_PREFIX} AND rowid > ? ORDER BY rowid LIMIT ?`, prefix, prefix, last, CHUNK_ROWS], beat);
  }

  // the same count of every table on both shards, or no switch
  const differ: string[] = [];
  const compare = async (name: string, where: string) => {
    const [a, b] = [await countOf(source, name, where, accountId), await countOf(target, name, where, accountId)];
    if (a !== b) differ.push(`${name} (${a} on the old shard, ${b} on the new)`);
  };
  for (const { name } of tables) await compare(name, "account_id = ?");
  for (const [index, base] of Object.entries(SEARCH_INDEXES)) await compare(index, `rowid IN (SELECT id FROM ${quote(base)} WHERE account_id = ?)`);
  if (differ.length > 0) throw new Error(`the copy differs: ${differ.join(", ")}`);
  return copied;
}

type Bindings = { directory: D1Database; shards: D1Database[]; log?: Log; retry?: MoveRetry };
type Placed = { shard: number; shard_status: number; move_to: number | null; updated_at: number };

/**
 * Removes the rows that the account left on shard `left` (the partial copy of a move rolled back, or its
 * old shard after a move), then clears `move_to`. Harmless to repeat, and to run beside another run.
 */
async function removeLeftovers(db: Patient, shards: Patient[], accountId: number, home: number, left: number, log: Log) {
  if (left !== home && shards[left]) await removeAccount(shards[left], accountId, shards[home] ?? shards[left]);
  await db.run(`UPDATE accounts SET move_to = NULL WHERE id = ? AND shard_status = ${ACTIVE} AND move_to = ?`, accountId, left);
  log(`account ${accountId}: its rows are gone from shard ${left}`);
}

/**
 * Rolls back a move that has not switched: the account active on its old shard again (at once, so its
 * changes are let in), then the partial copy removed. `stale`, from the cron, rolls back only a move
 * whose heartbeat stopped before then, so a live mover keeps its move. Answers whether it rolled back.
 */
async function rollBack(db: Patient, shards: Patient[], accountId: number, log: Log, stale?: number): Promise<boolean> {
  const account = await db.first<Placed>("SELECT shard, shard_status, move_to, updated_at FROM accounts WHERE id = ?", accountId);
  if (!account || account.shard_status !== MOVING || account.move_to === null) return false;
  const reactivated = await db.run(
    `UPDATE accounts SET shard_status = ${ACTIVE}, updated_at = ? WHERE id = ? AND shard = ? AND shard_status = ${MOVING} AND move_to = ? AND updated_at <= ?`,
    Date.now(),
    accountId,
    account.shard,
    account.move_to,
    stale ?? Number.MAX_SAFE_INTEGER,
  );
  if (reactivated.meta.changes !== 1) return false;
  log(`account ${accountId} is active on shard ${account.shard} again; removing its partial copy from shard ${account.move_to}`);
  await removeLeftovers(db, shards, accountId, account.shard, account.move_to, log);
  return true;
}

/**
 * Moves account `accountId` to shard `to`. `directory` and `shards` (indexed by shard number) are D1
 * bindings; `log` hears each step; `drainMs` and `leaveMs` are steps 2 and 6's waits. Answers the rows
 * copied per table.
 */
export async function moveAccount(options: Bindings & { accountId: number; to: number; drainMs?: number; leaveMs?: number }): Promise<Record<string, number>> {
  const { accountId, to, drainMs = DRAIN_MS, leaveMs = LEAVE_OLD_SHARD_MS, log = () => {} } = options;
  const db = patient(options.directory, "directory", log, options.retry);
  const shards = options.shards.map((shard, n) => patient(shard, `shard ${n}`, log, options.retry));
  let account = await db.first<Placed>("SELECT shard, shard_status, move_to, updated_at FROM accounts WHERE id = ?", accountId);
  if (!account) throw new Error(`account ${accountId} is not in the directory`);
  const from = account.shard;
  if (!Number.isInteger(to) || to < 0 || to >= shards.length) throw new Error(`shard ${to} is not in this pool (0 to ${shards.length - 1})`);
  if (to <= from) throw new Error(`account ${accountId} is on shard ${from}: it moves only to a higher shard, whose id range is above its ids`);
  if (account.shard_status === MOVING) {
    if (account.updated_at > Date.now() - MOVE_STALE_MS) throw new Error(`account ${accountId} is being moved by another run (its heartbeat is ${Math.round((Date.now() - account.updated_at) / 1000)} s old)`);
    await rollBack(db, shards, accountId, log, Date.now() - MOVE_STALE_MS);
    account = (await db.first<Placed>("SELECT shard, shard_status, move_to, updated_at FROM accounts WHERE id = ?", accountId))!;
  }
  if (account.shard_status !== ACTIVE) throw new Error(`account ${accountId} is being created or deleted`);
  // rows an earlier move left (a partial copy, or the old shard's) go first
  if (account.move_to !== null) await removeLeftovers(db, shards, accountId, from, account.move_to, log);
  const [source, target] = [shards[from], shards[to]];

  const markedAt = Date.now();
  const marked = await db.run(
    `UPDATE accounts SET shard_status = ${MOVING}, move_to = ?, updated_at = ? WHERE id = ? AND shard = ? AND shard_status = ${ACTIVE} AND move_to IS NULL`,
    to,
    markedAt,
    accountId,
    from,
  );
  if (marked.meta.changes !== 1) throw new Error(`account ${accountId} changed before its move began; nothing was done`);
  log(`account ${accountId} is moving from shard ${from} to shard ${to}: its changes wait; draining for ${drainMs} ms`);

  let beaten = markedAt;
  const beat = async () => {
    if (Date.now() - beaten < HEARTBEAT_MS) return;
    beaten = Date.now();
    const kept = await db.run(`UPDATE accounts SET updated_at = ? WHERE id = ? AND shard = ? AND shard_status = ${MOVING} AND move_to = ?`, beaten, accountId, from, to);
    if (kept.meta.changes !== 1) throw new MoveTakenOver(`account ${accountId}'s move was rolled back meanwhile (its heartbeat was late); nothing more was done`);
  };

  let copied: Record<string, number>;
  try {
    await sleep(drainMs);
    await beat();
    // a cut-short run may have left rows on the new shard
    await removeAccount(target, accountId, source);
    copied = await copyAccount(source, target, accountId, to, beat, log);
    log(`account ${accountId}: ${Object.values(copied).reduce((sum, n) => sum + n, 0)} rows copied and counted`);
    const switched = await db.run(
      `UPDATE accounts SET shard = ?, shard_status = ${ACTIVE}, shard_version = shard_version + 1, move_to = ?, updated_at = ? WHERE id = ? AND shard = ? AND shard_status = ${MOVING} AND move_to = ?`,
      to,
      from,
      Date.now(),
      accountId,
      from,
      to,
    );
    if (switched.meta.changes !== 1) throw new MoveTakenOver(`account ${accountId}'s move was rolled back meanwhile (its heartbeat was late); nothing more was done`);
  } catch (error) {
    if (error instanceof MoveTakenOver) throw error;
    // before the switch: the account goes back to its old shard at once, and the copy is removed
    const rolledBack = await rollBack(db, shards, accountId, log).catch((rollbackError) => {
      log(`account ${accountId}: the roll-back failed too (${String(rollbackError)}); the cron finishes it within ${MOVE_STALE_MS / 1000} s`);
      return false;
    });
    throw new Error(`account ${accountId} did not move (${String((error as Error)?.message ?? error)})${rolledBack ? `; it is active on shard ${from} again and the partial copy is removed` : ""}`, { cause: error });
  }
  log(`account ${accountId} is on shard ${to}; its changes are let in`);

  // identity changed during the move (a member added or removed, a rename, a suspension) went to the old
  // shard's copies: the directory has the truth, so the new shard's copies are taken from it again
  await copyIdentityFromDirectory(db, target, accountId);
  // the placement counts (they steer new accounts; a count off by one for a moment is harmless)
  await db.batch([
    ["INSERT INTO shard_stats (shard, accounts, bytes, updated_at) VALUES (?, 0, 0, 0) ON CONFLICT DO NOTHING", to],
    ["UPDATE shard_stats SET accounts = max(accounts + (CASE shard WHEN ? THEN 1 ELSE -1 END), 0) WHERE shard IN (?, ?)", to, from, to],
  ]);
  const wait = markedAt + leaveMs - Date.now();
  if (wait > 0) {
    log(`account ${accountId}: shard ${from} keeps its rows ${wait} ms more, for readers that placed it before the move`);
    await sleep(wait);
  }
  await removeLeftovers(db, shards, accountId, to, from, log);
  return copied;
}

/**
 * The cron's repair of moves (src/jobs/cron.ts): a move whose heartbeat stopped more than MOVE_STALE_MS
 * ago (its mover was killed or lost) is rolled back, and rows a move left on a shard (a partial copy
 * whose removal failed, an old shard whose mover stopped after the switch) are removed once no cached
 * placement can lead there. Answers how many accounts it repaired.
 */
export async function recoverMoves(options: Bindings & { at?: number }): Promise<number> {
  const { at = Date.now(), log = () => {} } = options;
  const db = patient(options.directory, "directory", log, options.retry);
  const shards = options.shards.map((shard, n) => patient(shard, `shard ${n}`, log, options.retry));
  let repaired = 0;
  const stale = await db.all<{ id: number }>(`SELECT id FROM accounts WHERE shard_status = ${MOVING} AND updated_at < ? LIMIT 20`, at - MOVE_STALE_MS);
  for (const { id } of stale) if (await rollBack(db, shards, id, log, at - MOVE_STALE_MS)) repaired += 1;
  const left = await db.all<{ id: number; shard: number; move_to: number }>(
    `SELECT id, shard, move_to FROM accounts WHERE shard_status = ${ACTIVE} AND move_to IS NOT NULL AND updated_at < ? LIMIT 20`,
    at - LEAVE_OLD_SHARD_MS,
  );
  for (const account of left) {
    await removeLeftovers(db, shards, account.id, account.shard, account.move_to, log);
    repaired += 1;
  }
  return repaired;
}
