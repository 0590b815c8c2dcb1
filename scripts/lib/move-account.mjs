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

/** Copies the rows `select` finds (it takes the last rowid seen and a limit) from `from` to `to`, chunk by chunk. */
async function copyChunks(from, to, table, columns, select, options) {
  let last = -Infinity;
  let copied = 0;
  for (;;) {
    const { results } = await select(last, CHUNK_ROWS).all();
    if (results.length === 0) return copied;
    await insertRows(to, table, columns, results, options).run();
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

/** Removes every row of the account from `db` (its search-index rows first: they are found through the rows they index). */
async function removeAccount(db, accountId, tables) {
  for (const [index, base] of Object.entries(SEARCH_INDEXES)) {
    await deleteChunks(db, index, `rowid IN (SELECT id FROM ${quote(base)} WHERE account_id = ?)`, accountId);
  }
  for (const { name } of tables) await deleteChunks(db, name, "account_id = ?", accountId);
  await db.prepare("DELETE FROM accounts WHERE id = ?").bind(accountId).run();
}

async function countOf(db, table, where, accountId) {
  return (await db.prepare(`SELECT count(*) AS n FROM ${quote(table)} WHERE ${where}`).bind(accountId).first()).n;
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

  await directory.prepare("UPDATE accounts SET shard_status = ? WHERE id = ? AND shard = ?").bind(MOVING, accountId, from).run();
  log(`account ${accountId} is moving from shard ${from} to shard ${to}: its changes wait; draining for ${drainMs} ms`);
  await sleep(drainMs);

  const tables = await accountTables(source);
  // a cut-short run may have left rows on the new shard
  await removeAccount(target, accountId, tables);
  // the new shard's ids come from its own range before anything lands there (as src/db/id-ranges.ts keeps them)
  const start = to * IDS_PER_SHARD;
  await target.batch([
    target.prepare("INSERT INTO sqlite_sequence (name, seq) SELECT name, ? FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%' AND name NOT IN (SELECT name FROM sqlite_sequence)").bind(start),
    target.prepare("UPDATE sqlite_sequence SET seq = ? WHERE seq < ?").bind(start, start),
  ]);

  const copied = {};
  const accountColumns = await columnsOf(source, "accounts");
  copied.accounts = await copyChunks(source, target, "accounts", accountColumns, (last, limit) =>
    source.prepare("SELECT rowid AS __rowid, * FROM accounts WHERE id = ? AND rowid > ? ORDER BY rowid LIMIT ?").bind(accountId, last === -Infinity ? -1 : last, limit),
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
      source.prepare(`SELECT rowid AS __rowid, * FROM ${quote(name)} WHERE account_id = ? AND rowid > ? ORDER BY rowid LIMIT ?`).bind(accountId, last === -Infinity ? -1 : last, limit),
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
        source.prepare(`SELECT rowid AS __rowid, * FROM ${quote(index)} WHERE rowid IN (SELECT id FROM ${quote(base)} WHERE account_id = ?) AND rowid > ? ORDER BY rowid LIMIT ?`).bind(accountId, last === -Infinity ? -1 : last, limit),
      { withRowid: true },
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

  await target.prepare("UPDATE accounts SET shard = ?, shard_status = ? WHERE id = ?").bind(to, ACTIVE, accountId).run();
  await directory.batch([
    directory.prepare("UPDATE accounts SET shard = ?, shard_status = ?, shard_version = shard_version + 1 WHERE id = ? AND shard = ? AND shard_status = ?").bind(to, ACTIVE, accountId, from, MOVING),
    directory.prepare("INSERT INTO shard_stats (shard, accounts, bytes, updated_at) VALUES (?, 0, 0, 0) ON CONFLICT DO NOTHING").bind(to),
    directory.prepare("UPDATE shard_stats SET accounts = accounts + (CASE shard WHEN ? THEN 1 ELSE -1 END) WHERE shard IN (?, ?)").bind(to, from, to),
  ]);
  log(`account ${accountId} is on shard ${to}; its changes are let in. Draining ${drainMs} ms before shard ${from} forgets it`);
  await sleep(drainMs);
  await removeAccount(source, accountId, tables);
  log(`account ${accountId}: its rows are gone from shard ${from}`);
  return copied;
}
