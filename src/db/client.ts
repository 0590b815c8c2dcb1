import { sql, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../drizzle/schema";

export { schema };

export function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Database = ReturnType<typeof createDb>;

/** One statement of a `db.batch` list. */
export type Statement = Parameters<Database["batch"]>[0][number];

/**
 * The id of the row that the batch inserted last into `table`.
 *
 * D1 has no interactive transactions, so a change is one `db.batch`, which runs atomically and alone.
 * Ids are AUTOINCREMENT, so right after an insert the new row holds the table's highest id, and later
 * statements of the same batch can refer to it with this subquery (a one-row read of the primary key).
 */
export function lastInsertedId(table: SQLiteTable): SQL<number> {
  return sql<number>`(SELECT max(id) FROM ${table})`;
}

export const now = () => Date.now();

/**
 * A raw SQL read for `db.batch`, answering its rows as objects keyed by column name.
 *
 * drizzle's own `db.all(sql)` cannot go into a D1 batch when it has bound parameters (drizzle 0.45's
 * D1 batch binds through `stmt`, which raw queries lack), so this supplies the prepared statement.
 * Use it for what the query builder cannot express (compound selects, correlated JSON columns).
 */
export function rawRows<T = Record<string, unknown>>(db: Database, query: SQL) {
  const raw = db.all<T>(query);
  const built = raw.getQuery();
  const prepared = {
    getQuery: () => built,
    stmt: db.$client.prepare(built.sql),
    mapResult: (result: D1Result<T>) => result.results,
  };
  return Object.assign(raw, { _prepare: () => prepared });
}
