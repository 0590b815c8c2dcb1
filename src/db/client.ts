/**
 * The database behind one interface: D1 (with a session, so reads may come from a nearby replica) or a
 * libSQL server (Turso, sqld, or an embedded file under Node) through drizzle's libSQL driver. The
 * domain sees only `Database`; what differs between the two (raw statements in batches, metering,
 * sessions) is decided here and in metering.ts.
 */
import { sql, type SQL } from "drizzle-orm";
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import { drizzle as libsqlDrizzle } from "drizzle-orm/libsql/web";
import { getTableColumns } from "drizzle-orm";
import { SQLiteAsyncDialect, type BaseSQLiteDatabase, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Client as LibsqlClient } from "@libsql/client";
import * as schema from "../../drizzle/schema";

export { schema };
export type { LibsqlClient };

/**
 * What the domain uses: drizzle's SQLite query builders and an atomic `batch`, whichever the driver.
 * Without drizzle's relational queries (`db.query.*`): handing drizzle the schema makes it walk every
 * table's relations each time a connection is made, which was an eighth of a request's CPU time; the
 * domain writes its joins with the query builders instead.
 */
export type Database = BaseSQLiteDatabase<"async", unknown> & {
  batch<U extends BatchItem<"sqlite">, T extends Readonly<[U, ...U[]]>>(batch: T): Promise<BatchResponse<T>>;
};

/** One statement of a `db.batch` list. */
export type Statement = BatchItem<"sqlite">;

/** Which driver a Database runs on; kept off drizzle's own fields. */
const DRIVER = Symbol("edgedesk.driver");
type Driver = "d1" | "libsql";
const driverOf = (db: Database): Driver => (db as unknown as { [DRIVER]: Driver })[DRIVER];

/** A Database over D1, or over one D1 session (`withSession`): drizzle uses only `prepare` and `batch`. */
export function createDb(d1: D1Database | D1DatabaseSession): Database {
  const db = drizzle(d1 as D1Database);
  return Object.assign(db, { [DRIVER]: "d1" as const }) as unknown as Database;
}

/** A Database over a libSQL client (`@libsql/client/web` in a Worker, `@libsql/client` under Node). */
export function createLibsqlDb(client: LibsqlClient): Database {
  const db = libsqlDrizzle(client);
  return Object.assign(db, { [DRIVER]: "libsql" as const }) as unknown as Database;
}

/**
 * The id of the row that the batch inserted last into `table`.
 *
 * D1 has no interactive transactions, so a change is one `db.batch`, which runs atomically and alone.
 * Ids are AUTOINCREMENT, so right after an insert the new row holds the table's highest id, and later
 * statements of the same batch can refer to it with this subquery (a one-row read of the primary key).
 * Each shard gives out ids from its own range (src/db/id-ranges.ts), above those of every lower shard;
 * that is why an account moves only to a shard with a higher number: its rows keep their ids, all below
 * the new shard's own, so the highest id stays the one the shard gave out last.
 */
export function lastInsertedId(table: SQLiteTable): SQL<number> {
  return sql<number>`(SELECT max(id) FROM ${table})`;
}

export const now = () => Date.now();

/** `column IN (the list)`, bound as one JSON parameter (D1 binds at most 100 a statement). */
export const inJsonList = (column: SQLiteColumn, values: Iterable<number | string>): SQL => sql`${column} IN (SELECT value FROM json_each(${JSON.stringify([...values])}))`;

/**
 * The account term of a read that another term already narrows (ids looked up by primary key or an
 * index of their own): `column = accountId`, checked on the rows found. The unary `+` keeps SQLite from
 * walking the account's index for it instead of the ids. The term stays because ids are unique per
 * shard, not per account: a row of another account with the same id is never read.
 */
export const sameAccount = (column: SQLiteColumn | SQL, accountId: number | SQL) => sql`+${column} = ${accountId}`;

/**
 * A raw SQL statement for `db.batch`, answering its rows (if any) as objects keyed by column name. Use it
 * for what the query builder cannot express (compound selects, correlated JSON columns, INSERT OR
 * IGNORE ... SELECT).
 *
 * On libSQL drizzle's own `db.all(sql)` batches as it is. On D1 it cannot go into a batch when it has
 * bound parameters (drizzle 0.45's D1 batch binds through `stmt`, which raw queries lack), so this
 * supplies the prepared statement.
 */
export function rawSql<T = Record<string, unknown>>(db: Database, query: SQL) {
  const raw = db.all<T>(query);
  if (driverOf(db) !== "d1") return raw;
  const built = raw.getQuery();
  const client = (db as unknown as { $client: D1Database }).$client;
  const prepared = {
    getQuery: () => built,
    stmt: client.prepare(built.sql),
    mapResult: (result: D1Result<T>) => result.results,
  };
  return Object.assign(raw, { _prepare: () => prepared });
}

/** A raw row (keys are SQL column names) decoded into `table`'s row type through its own column decoders. */
export function decodeRow<T extends SQLiteTable>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => {
      const value = raw[column.name];
      return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)];
    }),
  ) as T["$inferSelect"];
}

const dialect = new SQLiteAsyncDialect();

/**
 * The text of a statement part that has no parameters, built once: for the statements every request
 * runs (src/domain/identity/access.ts), where building the same query anew each time would cost more
 * CPU than running it. Splice it back with `sql.raw`.
 */
export function builtOnce(query: SQL): string {
  const built = dialect.sqlToQuery(query);
  if (built.params.length > 0) throw new Error("builtOnce takes a statement part without parameters");
  return built.sql;
}

/**
 * Every column of `table`, named `"<prefix>.<column>"`: D1 answers a row as an object keyed by column
 * name, so two joined tables that share column names (id, name, ...) must be told apart. Read them back
 * with `decodePrefixed`.
 */
export const prefixedColumns = (table: SQLiteTable, prefix: string): SQL =>
  sql.join(
    Object.values(getTableColumns(table)).map((column) => sql`${column} AS ${sql.identifier(`${prefix}.${column.name}`)}`),
    sql`, `,
  );

/** The `table` row that `prefixedColumns(table, prefix)` selected into `raw`; undefined when a left join found none (its id is null). */
export function decodePrefixed<T extends SQLiteTable>(table: T, prefix: string, raw: Record<string, unknown>): T["$inferSelect"] | undefined {
  if (raw[`${prefix}.id`] === null || raw[`${prefix}.id`] === undefined) return undefined;
  const columns = Object.values(getTableColumns(table));
  return decodeRow(table, Object.fromEntries(columns.map((column) => [column.name, raw[`${prefix}.${column.name}`]])));
}
