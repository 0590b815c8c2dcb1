/**
 * The shards' copies of identity (docs/shards.md). The directory owns accounts, users, memberships and
 * agent bots; each shard keeps a copy of the rows its accounts use, so that what an account's queries
 * join (assignees, senders, members, bots) stays on the account's own shard. An identity change commits
 * in the directory first, then copies the rows it touched to the shards concerned:
 * - a copy overwrites only an older one (`updated_at`), so two changes copied out of order keep the newer;
 * - removals are named (this membership, this bot), never "whatever the directory lacks", because a
 *   read of the directory can be older than a change another request just copied;
 * - secrets a shard never needs (password, confirmation and reset digests) are not copied.
 * If a copy fails, the request fails after the directory committed; repeating the change copies again.
 */
import { eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { type Database, type Statement, inJsonList, rawSql, schema } from "../../db/client";
import { idRangeStatements } from "../../db/id-ranges";
import { batch, write } from "../kernel/batch";
import type { TransportScope } from "../kernel/scope";

const { accounts, users, accountUsers, agentBots } = schema;

/** Columns of the directory's users that stay there. */
const DIRECTORY_ONLY_USER_COLUMNS = ["password_hash", "unconfirmed_email", "confirmation_token_digest", "confirmation_expires_at", "reset_password_token_digest", "reset_password_expires_at"];

/** Rows copied in one statement: one JSON parameter each, far below D1's statement limits. */
const ROWS_PER_STATEMENT = 200;

const columnNames = (table: SQLiteTable) => Object.values(getTableColumns(table)).map((column) => column.name);

/**
 * One statement that writes `rows` (raw rows of `table`, keyed by column name) into `db`'s copy of the
 * table: new ids are inserted, existing ones overwritten unless the copy there is newer.
 */
function copyStatement(db: Database, table: SQLiteTable, rows: Array<Record<string, unknown>>): Statement {
  const names = columnNames(table);
  const list = sql.raw(names.map((name) => `"${name}"`).join(", "));
  const values = sql.join(
    names.map((name) => (table === users && DIRECTORY_ONLY_USER_COLUMNS.includes(name) ? sql`NULL` : sql`json_extract(value, ${`$."${name}"`})`)),
    sql`, `,
  );
  const updates = sql.raw(names.filter((name) => name !== "id").map((name) => `"${name}" = excluded."${name}"`).join(", "));
  return rawSql(
    db,
    sql`INSERT INTO ${table} (${list}) SELECT ${values} FROM json_each(${JSON.stringify(rows)}) WHERE true
        ON CONFLICT (id) DO UPDATE SET ${updates} WHERE excluded.updated_at >= ${table}.updated_at`,
  );
}

function copyStatements(db: Database, table: SQLiteTable, rows: Array<Record<string, unknown>>): Statement[] {
  const statements: Statement[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) statements.push(copyStatement(db, table, rows.slice(i, i + ROWS_PER_STATEMENT)));
  return statements;
}

const rawRows = (db: Database, query: SQL) => rawSql<Record<string, unknown>>(db, query);

/**
 * Copies the identity rows of `accountIds` from the directory to each account's shard: the account row,
 * the account's own bots, and its memberships with their users (only those of `userIds` when given: a
 * change of one member copies that member, not the whole team). One directory read, then one batch per shard.
 * `placing` (an account just placed on its shard): the same batch also raises the shard's id range
 * (src/db/id-ranges.ts) before the account writes any row, and copies the system bots, which a shard
 * added since the last change of a system bot lacks.
 */
export async function copyIdentityToShards(scope: TransportScope, accountIds: number[], { userIds, placing = false }: { userIds?: number[]; placing?: boolean } = {}) {
  const ids = [...new Set(accountIds)];
  if (ids.length === 0 || sameDatabase(scope)) return;
  const { directory } = scope;
  const members = userIds === undefined ? sql`` : sql` AND ${inJsonList(accountUsers.userId, userIds)}`;
  const [accountRows, memberRows, userRows, botRows] = await batch(directory, [
    rawRows(directory, sql`SELECT * FROM ${accounts} WHERE ${inJsonList(accounts.id, ids)}`),
    rawRows(directory, sql`SELECT * FROM ${accountUsers} WHERE ${inJsonList(accountUsers.accountId, ids)}${members}`),
    rawRows(directory, sql`SELECT * FROM ${users} WHERE ${users.id} IN (SELECT ${accountUsers.userId} FROM ${accountUsers} WHERE ${inJsonList(accountUsers.accountId, ids)}${members})`),
    rawRows(directory, sql`SELECT * FROM ${agentBots} WHERE ${inJsonList(agentBots.accountId, ids)}${placing ? sql` OR ${agentBots.accountId} IS NULL` : sql``}`),
  ]);
  const shardsOf = new Map<number, number[]>();
  for (const account of accountRows) {
    const shard = Number(account.shard);
    shardsOf.set(shard, [...(shardsOf.get(shard) ?? []), Number(account.id)]);
  }
  await Promise.all(
    [...shardsOf].map(([shard, onShard]) => {
      const db = scope.shards.open(shard);
      const here = new Set(onShard);
      const members = memberRows.filter((row) => here.has(Number(row.account_id)));
      const memberIds = new Set(members.map((row) => Number(row.user_id)));
      return write(db, [
        ...(placing ? idRangeStatements(db, shard) : []),
        ...copyStatements(db, accounts, accountRows.filter((row) => here.has(Number(row.id)))),
        ...copyStatements(db, users, userRows.filter((row) => memberIds.has(Number(row.id)))),
        ...copyStatements(db, accountUsers, members),
        ...copyStatements(db, agentBots, botRows.filter((row) => row.account_id === null || here.has(Number(row.account_id)))),
      ]);
    }),
  );
}

/** Copies a user's row to the shards of every account the user belongs to (a profile or e-mail change). */
export async function copyUserToShards(scope: TransportScope, userId: number) {
  if (sameDatabase(scope)) return;
  const { directory } = scope;
  const [memberships] = await batch(directory, [directory.select({ accountId: accountUsers.accountId }).from(accountUsers).where(eq(accountUsers.userId, userId))]);
  await copyIdentityToShards(scope, memberships.map((row) => row.accountId), { userIds: [userId] });
}

/** Copies the system bots (no account of their own; any account's inbox may use one) to every shard. */
export async function copySystemBotsToShards(scope: TransportScope) {
  if (sameDatabase(scope)) return;
  const { directory } = scope;
  const [bots] = await batch(directory, [rawRows(directory, sql`SELECT * FROM ${agentBots} WHERE account_id IS NULL`)]);
  if (bots.length === 0) return;
  await Promise.all(
    Array.from({ length: scope.shards.count }, (_, shard) => {
      const db = scope.shards.open(shard);
      return write(db, copyStatements(db, agentBots, bots));
    }),
  );
}

/** On libSQL the directory is the only shard: its rows are the copies. */
export const sameDatabase = (scope: TransportScope) => scope.shards.sharedWithDirectory;
