import { type SQL, sql } from "drizzle-orm";

/** D1 binds at most 100 parameters per statement: long IN lists and multi-row inserts are cut into pieces. */
export const IN_LIST_CHUNK = 90;

export function chunks<T>(items: readonly T[], size = IN_LIST_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * `parts` joined with UNION ALL without ever putting more than two terms in one compound SELECT: D1 caps
 * the terms of a compound well below SQLite's default, so a long chain is nested as a balanced tree of
 * pairs (each pair a subquery), which reads the same rows.
 */
export function unionAll(parts: SQL[]): SQL {
  if (parts.length === 1) return parts[0];
  const middle = Math.ceil(parts.length / 2);
  return sql`SELECT * FROM (${unionAll(parts.slice(0, middle))}) UNION ALL SELECT * FROM (${unionAll(parts.slice(middle))})`;
}
