/**
 * Totals kept in the `counters` table, moved in the same batch as the change they count, so list
 * endpoints read one row instead of counting the account's rows (D1 bills every row a COUNT visits).
 */
import { type SQL, and, eq, sql } from "drizzle-orm";
import { type Database, schema } from "../db/client";

const { counters } = schema;

/** Adds `delta` (a number, or SQL evaluated inside the batch) to the counter, creating it at 0 first. */
export function counterStatement(db: Database, accountId: number, key: string, delta: number | SQL<number>) {
  const value = typeof delta === "number" ? sql<number>`${delta}` : delta;
  return db
    .insert(counters)
    .values({ accountId, key, value })
    .onConflictDoUpdate({ target: [counters.accountId, counters.key], set: { value: sql`${counters.value} + excluded.value` } });
}

/** The counter's row (absent until the first change). */
export function counterQuery(db: Database, accountId: number, key: string) {
  return db
    .select({ value: counters.value })
    .from(counters)
    .where(and(eq(counters.accountId, accountId), eq(counters.key, key)));
}
