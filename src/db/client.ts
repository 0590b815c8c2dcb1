import { sql, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { getTableColumns } from "drizzle-orm";
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
 * A raw SQL statement for `db.batch`, answering its rows (if any) as objects keyed by column name.
 *
 * drizzle's own `db.all(sql)` / `db.run(sql)` cannot go into a D1 batch when they have bound parameters
 * (drizzle 0.45's D1 batch binds through `stmt`, which raw queries lack), so this supplies the prepared
 * statement. Use it for what the query builder cannot express (compound selects, correlated JSON
 * columns, INSERT OR IGNORE ... SELECT).
 */
export function rawSql<T = Record<string, unknown>>(db: Database, query: SQL) {
  const raw = db.all<T>(query);
  const built = raw.getQuery();
  const prepared = {
    getQuery: () => built,
    stmt: db.$client.prepare(built.sql),
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
