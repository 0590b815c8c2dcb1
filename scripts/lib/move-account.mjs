// Moves one account's rows from its shard to another (README "Shards": "Moving an account"), working
// on D1 bindings directly: `npm run move-account` hands it wrangler's bindings (local, or Cloudflare's),
// the tests hand it the Worker's. In order:
//   1. the directory marks the account moving: from then on its changes are refused with 503 and
//      Retry-After (nothing is acknowledged that could be lost), its reads still served from the old shard;
//   2. it waits `drainMs` (by default longer than the Worker's 30 s placement cache and any request), so
//      every change acknowledged before the mark is on the old shard;
//   3. it copies the account's rows, table by table in chunks, ids kept, and its search-index rows;
//   4. it compares the counts of every table on both shards, and stops (the account stays moving, to be
//      run again) if any differs;
//   5. the directory switches the account to the new shard, bumps its version and lets changes in;
//   6. it waits `drainMs` again, so nobody still reads the old shard, and deletes the rows there.
// Run again after a failure, it starts over: rows a cut-short run left on the new shard are removed first.
//
// Ids: each shard gives out ids from its own range (src/db/id-ranges.ts), and an account moves only to
// a shard with a higher number, so its rows keep their ids below the new shard's own range and clash
// with nothing there.

const ACTIVE = 1;
const MOVING = 2;
const IDS_PER_SHARD = 2 ** 40;
/** Full-text tables and the table whose ids their rowids are. */
const SEARCH_INDEXES = { contact_search: "contacts", message_search: "messages", article_search: "articles" };
const CHUNK_ROWS = 200;
/** The most JSON one insert carries: long messages and articles make rows of very different sizes. */
const CHUNK_BYTES = 200_000;
/**
 * Columns of `users` a shard's copy leaves out (password and token digests), as
 * src/domain/identity/mirror.ts copies users from the directory.
 */
const DIRECTORY_ONLY_USER_COLUMNS = ["password_hash", "unconfirmed_email", "confirmation_token_digest", "confirmation_expires_at", "reset_password_token_digest", "reset_password_expires_at"];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const quote = (name) => `"${name.replaceAll('"', '""')}"`;

/** The account's tables on a shard: every ordinary table with an `account_id` column, with its columns. */
async function accountTables(db) {
  const { results } = await db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name <> 'd1_migrations'").all();
  const tables = [];
  for (const { name } of results) {
    const columns = (await db.prepare(`PRAGMA table_info(${quote(name)})`).all()).results.map((column) => column.name);
    if (columns.includes("account_id")) tables.push({ name, columns });
  }
  return tables;
}

async function columnsOf(db, table) {
  return (await db.prepare(`PRAGMA table_info(${quote(table)})`).all()).results.map((column) => column.name);
}

/** One statement that inserts `rows` (objects keyed by column) into `table` of `db`. */
function insertRows(db, table, columns, rows, { withRowid = false } = {}) {
  const names = [...(withRowid ? ["rowid"] : []), ...columns];
  const values = names.map((name) => `json_extract(value, '$.${name === "rowid" ? "__rowid" : `"${name}"`}')`);
  return db.prepare(`INSERT INTO ${quote(table)} (${names.map(quote).join(", ")}) SELECT ${values.join(", ")} FROM json_each(?) WHERE true`).bind(JSON.stringify(rows));
}

/** Splits rows into groups of at most CHUNK_BYTES of JSON (a row larger than that goes alone). */
function bySize(rows) {
  const groups = [];
  let group = [];
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

/** Copies the rows `select` finds (it takes the last rowid seen and a limit) from `from` to `to`, chunk by chunk. */
async function copyChunks(from, to, table, columns, select, options) {
  let last = -1;
  let copied = 0;
  for (;;) {
    const { results } = await select(last, CHUNK_ROWS).all();
    if (results.length === 0) return copied;
    for (const group of bySize(results)) await insertRows(to, table, columns, group, options).run();
    copied += results.length;
    last = results[results.length - 1].__rowid;
  }
}

/** Deletes, a thousand rows a statement, the rows of `table` that `where` picks (D1 caps a statement's time). */
async function deleteChunks(db, table, where, ...values) {
  for (;;) {
    const { meta } = await db.prepare(`DELETE FROM ${quote(table)} WHERE rowid IN (SELECT rowid FROM ${quote(table)} WHERE ${where} LIMIT 1000)`).bind(...values).run();
    if (!meta.changes) return;
  }
}

/**
 * The account's Idempotency-Key records (src/http/idempotency.ts): their scope names the account, or
 * for the widget's requests one of its inboxes' identifiers. They carry no account_id of their own.
 */
async function idempotencyScopes(db, accountId) {
  const { results } = await db.prepare("SELECT identifier FROM inboxes WHERE account_id = ?").bind(accountId).all();
  return [`account:${accountId}:`, ...results.map((row) => `public:${row.identifier}:`)];
}
const scopePrefix = "substr(scope, 1, length(?)) = ?";

/** Removes every row of the account from `db` (its search-index rows first: they are found through the rows they index). */
async function removeAccount(db, accountId, tables, prefixes) {
  for (const prefix of prefixes) await deleteChunks(db, "idempotency_keys", scopePrefix, prefix, prefix);
  for (const [index, base] of Object.entries(SEARCH_INDEXES)) {
    await deleteChunks(db, index, `rowid IN (SELECT id FROM ${quote(base)} WHERE account_id = ?)`, accountId);
  }
  for (const { name } of tables) await deleteChunks(db, name, "account_id = ?", accountId);
  await db.prepare("DELETE FROM accounts WHERE id = ?").bind(accountId).run();
}

async function countOf(db, table, where, accountId) {
  return (await db.prepare(`SELECT count(*) AS n FROM ${quote(table)} WHERE ${where}`).bind(accountId).first()).n;
}

/** Upserts `rows` of `table` into `db`, a newer copy there kept (`updated_at`), the columns in `leaveOut` left empty. */
async function upsertRows(db, table, columns, rows, leaveOut = []) {
  const updates = columns.filter((c) => c !== "id").map((c) => `${quote(c)} = excluded.${quote(c)}`).join(", ");
  const values = columns.map((c) => (leaveOut.includes(c) ? "NULL" : `json_extract(value, '$."${c}"')`)).join(", ");
  for (const group of bySize(rows)) {
    await db
      .prepare(`INSERT INTO ${quote(table)} (${columns.map(quote).join(", ")}) SELECT ${values} FROM json_each(?) WHERE true ON CONFLICT (id) DO UPDATE SET ${updates} WHERE excluded.updated_at >= ${quote(table)}.updated_at`)
      .bind(JSON.stringify(group))
      .run();
  }
}

/**
 * The account's identity rows on `shard` as the directory has them: its account row, memberships (a
 * membership the directory no longer has goes), the members' users without their secrets, its bots and
 * the system bots.
 */
async function copyIdentityFromDirectory(directory, shard, accountId) {
  const read = async (query, ...values) => (await directory.prepare(query).bind(...values).all()).results;
  const [account, members, users, bots] = [
    await read("SELECT * FROM accounts WHERE id = ?", accountId),
    await read("SELECT * FROM account_users WHERE account_id = ?", accountId),
    await read("SELECT * FROM users WHERE id IN (SELECT user_id FROM account_users WHERE account_id = ?)", accountId),
    await read("SELECT * FROM agent_bots WHERE account_id = ? OR account_id IS NULL", accountId),
  ];
  await upsertRows(shard, "accounts", await columnsOf(shard, "accounts"), account);
  await upsertRows(shard, "users", await columnsOf(shard, "users"), users, DIRECTORY_ONLY_USER_COLUMNS);
  await upsertRows(shard, "account_users", await columnsOf(shard, "account_users"), members);
  await upsertRows(shard, "agent_bots", await columnsOf(shard, "agent_bots"), bots);
  await shard
    .prepare("DELETE FROM account_users WHERE account_id = ? AND user_id NOT IN (SELECT value FROM json_each(?))")
    .bind(accountId, JSON.stringify(members.map((row) => row.user_id)))
    .run();
}

/**
 * Moves account `accountId` to shard `to`. `directory` and `shards` (indexed by shard number) are D1
 * bindings; `log` hears each step. Answers the rows copied per table.
 */
export async function moveAccount({ directory, shards, accountId, to, drainMs = 35_000, log = () => {} }) {
  const account = await directory.prepare("SELECT shard, shard_status FROM accounts WHERE id = ?").bind(accountId).first();
  if (!account) throw new Error(`account ${accountId} is not in the directory`);
  const from = account.shard;
  if (!Number.isInteger(to) || to < 0 || to >= shards.length) throw new Error(`shard ${to} is not in this pool (0 to ${shards.length - 1})`);
  if (to <= from) throw new Error(`account ${accountId} is on shard ${from}: it moves only to a higher shard, whose id range is above its ids`);
  if (account.shard_status !== ACTIVE && account.shard_status !== MOVING) throw new Error(`account ${accountId} is being created or deleted`);
  const [source, target] = [shards[from], shards[to]];

  const marked = await directory.prepare("UPDATE accounts SET shard_status = ?, move_to = ? WHERE id = ? AND shard = ? AND shard_status IN (?, ?)").bind(MOVING, to, accountId, from, ACTIVE, MOVING).run();
  if (marked.meta.changes !== 1) throw new Error(`account ${accountId} changed before its move began; nothing was done`);
  log(`account ${accountId} is moving from shard ${from} to shard ${to}: its changes wait; draining for ${drainMs} ms`);
  await sleep(drainMs);

  const tables = await accountTables(source);
  const prefixes = await idempotencyScopes(source, accountId);
  // a cut-short run may have left rows on the new shard
  await removeAccount(target, accountId, tables, prefixes);
  // the new shard's ids come from its own range before anything lands there (as src/db/id-ranges.ts keeps them)
  const start = to * IDS_PER_SHARD;
  await target.batch([
    target.prepare("INSERT INTO sqlite_sequence (name, seq) SELECT name, ? FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%' AND name NOT IN (SELECT name FROM sqlite_sequence)").bind(start),
    target.prepare("UPDATE sqlite_sequence SET seq = ? WHERE seq < ?").bind(start, start),
  ]);

  const copied = {};
  const accountColumns = await columnsOf(source, "accounts");
  copied.accounts = await copyChunks(source, target, "accounts", accountColumns, (last, limit) =>
    source.prepare("SELECT rowid AS __rowid, * FROM accounts WHERE id = ? AND rowid > ? ORDER BY rowid LIMIT ?").bind(accountId, last, limit),
  );
  // the members' users, unless the new shard has a copy as fresh (they may be members of its accounts too)
  const userColumns = await columnsOf(source, "users");
  const { results: members } = await source.prepare("SELECT * FROM users WHERE id IN (SELECT user_id FROM account_users WHERE account_id = ?)").bind(accountId).all();
  for (let i = 0; i < members.length; i += CHUNK_ROWS) {
    const rows = members.slice(i, i + CHUNK_ROWS);
    const updates = userColumns.filter((c) => c !== "id").map((c) => `${quote(c)} = excluded.${quote(c)}`).join(", ");
    await target
      .prepare(`INSERT INTO users (${userColumns.map(quote).join(", ")}) SELECT ${userColumns.map((c) => `json_extract(value, '$."${c}"')`).join(", ")} FROM json_each(?) WHERE true ON CONFLICT (id) DO UPDATE SET ${updates} WHERE excluded.updated_at >= users.updated_at`)
      .bind(JSON.stringify(rows))
      .run();
  }
  for (const { name, columns } of tables) {
    copied[name] = await copyChunks(source, target, name, columns, (last, limit) =>
      source.prepare(`SELECT rowid AS __rowid, * FROM ${quote(name)} WHERE account_id = ? AND rowid > ? ORDER BY rowid LIMIT ?`).bind(accountId, last, limit),
    );
    log(`  ${name}: ${copied[name]} rows`);
  }
  for (const [index, base] of Object.entries(SEARCH_INDEXES)) {
    const columns = await columnsOf(source, index);
    copied[index] = await copyChunks(
      source,
      target,
      index,
      columns,
      (last, limit) =>
        source.prepare(`SELECT rowid AS __rowid, * FROM ${quote(index)} WHERE rowid IN (SELECT id FROM ${quote(base)} WHERE account_id = ?) AND rowid > ? ORDER BY rowid LIMIT ?`).bind(accountId, last, limit),
      { withRowid: true },
    );
  }

  const keyColumns = await columnsOf(source, "idempotency_keys");
  copied.idempotency_keys = 0;
  for (const prefix of prefixes) {
    copied.idempotency_keys += await copyChunks(source, target, "idempotency_keys", keyColumns, (last, limit) =>
      source.prepare(`SELECT rowid AS __rowid, * FROM idempotency_keys WHERE ${scopePrefix} AND rowid > ? ORDER BY rowid LIMIT ?`).bind(prefix, prefix, last, limit),
    );
  }

  // the same count of every table on both shards, or no switch
  const differ = [];
  for (const { name } of tables) {
    const [a, b] = [await countOf(source, name, "account_id = ?", accountId), await countOf(target, name, "account_id = ?", accountId)];
    if (a !== b) differ.push(`${name} (${a} on shard ${from}, ${b} on shard ${to})`);
  }
  for (const [index, base] of Object.entries(SEARCH_INDEXES)) {
    const where = `rowid IN (SELECT id FROM ${quote(base)} WHERE account_id = ?)`;
    const [a, b] = [await countOf(source, index, where, accountId), await countOf(target, index, where, accountId)];
    if (a !== b) differ.push(`${index} (${a} on shard ${from}, ${b} on shard ${to})`);
  }
  if (differ.length > 0) throw new Error(`the copy differs, the account stays moving (run the move again): ${differ.join(", ")}`);
  log(`account ${accountId}: ${Object.values(copied).reduce((sum, n) => sum + n, 0)} rows copied and counted`);

  const switched = await directory
    .prepare("UPDATE accounts SET shard = ?, shard_status = ?, shard_version = shard_version + 1, move_to = NULL WHERE id = ? AND shard = ? AND shard_status = ?")
    .bind(to, ACTIVE, accountId, from, MOVING)
    .run();
  if (switched.meta.changes !== 1) {
    // deleted, or switched by another run, meanwhile: the old shard keeps its rows, the copy goes
    await removeAccount(target, accountId, tables, prefixes);
    throw new Error(`account ${accountId} changed during its move (deleted, or moved by another run); the copy on shard ${to} was removed`);
  }
  // identity changed during the move (a member added or removed, a rename, a suspension) went to the old
  // shard's copies: the directory has the truth, so the new shard's copies are taken from it again
  await copyIdentityFromDirectory(directory, target, accountId);
  // the placement counts (they steer new accounts; a count off by one for a moment is harmless)
  await directory.batch([
    directory.prepare("INSERT INTO shard_stats (shard, accounts, bytes, updated_at) VALUES (?, 0, 0, 0) ON CONFLICT DO NOTHING").bind(to),
    directory.prepare("UPDATE shard_stats SET accounts = max(accounts + (CASE shard WHEN ? THEN 1 ELSE -1 END), 0) WHERE shard IN (?, ?)").bind(to, from, to),
  ]);
  log(`account ${accountId} is on shard ${to}; its changes are let in. Draining ${drainMs} ms before shard ${from} forgets it`);
  await sleep(drainMs);
  await removeAccount(source, accountId, tables, prefixes);
  log(`account ${accountId}: its rows are gone from shard ${from}`);
  return copied;
}
