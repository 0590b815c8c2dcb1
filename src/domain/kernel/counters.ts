/**
 * Totals kept in the `counters` table, moved in the same batch as the change they count, so list
 * endpoints read one row instead of counting the account's rows (D1 bills every row a COUNT visits).
 */
import { type SQL, and, eq, sql } from "drizzle-orm";
import { type Database, type Statement, schema } from "../../db/client";

const { counters } = schema;

/** Adds `delta` (a number, or SQL evaluated inside the batch) to the counter, creating it at 0 first. */
export function counterStatement(db: Database, accountId: number, key: string, delta: number | SQL<number>) {
  const value = typeof delta === "number" ? sql<number>`${delta}` : delta;
  return db
    .insert(counters)
    .values({ accountId, key, value })
    .onConflictDoUpdate({ target: [counters.accountId, counters.key], set: { value: sql`${counters.value} + excluded.value` } });
}

/** Rows per multi-row upsert: 3 bound parameters each, under D1's 100. */
const ROWS_PER_STATEMENT = 30;

/** Upserts adding each delta to its counter (zero deltas write nothing), a few counters per statement. */
export function counterDeltaStatements(db: Database, accountId: number, deltas: Map<string, number>): Statement[] {
  const rows = [...deltas].filter(([, value]) => value !== 0).map(([key, value]) => ({ accountId, key, value }));
  const statements: Statement[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    statements.push(
      db
        .insert(counters)
        .values(rows.slice(i, i + ROWS_PER_STATEMENT))
        .onConflictDoUpdate({ target: [counters.accountId, counters.key], set: { value: sql`${counters.value} + excluded.value` } }),
    );
  }
  return statements;
}

/** The counter's row (absent until the first change). */
export function counterQuery(db: Database, accountId: number, key: string) {
  return db
    .select({ value: counters.value })
    .from(counters)
    .where(and(eq(counters.accountId, accountId), eq(counters.key, key)));
}
