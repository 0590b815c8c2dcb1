/**
 * The orders of the contact lists (list, search, filter) and the page query that serves them.
 *
 * Order rules, the same for every list:
 * - the sort key ascending, or descending with a leading "-";
 * - contacts without a value for the key come last, in both directions;
 * - ties, and the contacts without a value, are ordered by id in the direction of the sort;
 * - without `sort`, by id ascending (creation order).
 *
 * Each key has a partial index (account_id, key, id) WHERE resolved = 1 (drizzle/schema.ts). SQLite puts
 * NULLs first in an ascending scan and last in a descending one, so a descending page is one backward
 * index scan, and an ascending page is two forward range scans glued with UNION ALL: the keys with a
 * value, then the NULLs by id. Each part is limited to offset + limit, so a page reads about
 * offset + limit index entries and `limit` table rows, whatever the size of the account.
 */
import { type SQL, sql } from "drizzle-orm";

export const CONTACT_SORT_KEYS = {
  name: "name_sort",
  email: "email",
  phone_number: "phone_number",
  last_activity_at: "last_activity_at",
  created_at: "created_at",
  company: "company_sort",
  city: "city_sort",
  country: "country_sort",
} as const;

export type ContactSortKey = keyof typeof CONTACT_SORT_KEYS;
/** null key: the default order (id ascending). */
export type ContactSort = { key: ContactSortKey | null; descending: boolean };

/** Keys that every contact has: one scan in either direction. */
const ALWAYS_SET = new Set<ContactSortKey>(["created_at"]);

export type PageWindow = { limit: number; offset: number };

/** `SELECT id FROM contacts WHERE <where> <order> LIMIT/OFFSET`, the ids of one page in order. */
export function contactPageIds(where: SQL, sort: ContactSort, page: PageWindow): SQL {
  const { limit, offset } = page;
  if (sort.key === null) {
    return sql`SELECT id FROM contacts WHERE ${where} ORDER BY id LIMIT ${limit} OFFSET ${offset}`;
  }
  const column = sql.identifier(CONTACT_SORT_KEYS[sort.key]);
  if (sort.descending) {
    return sql`SELECT id FROM contacts WHERE ${where} ORDER BY ${column} DESC, id DESC LIMIT ${limit} OFFSET ${offset}`;
  }
  if (ALWAYS_SET.has(sort.key)) {
    return sql`SELECT id FROM contacts WHERE ${where} ORDER BY ${column}, id LIMIT ${limit} OFFSET ${offset}`;
  }
  // Each part keeps its ORDER BY because it has a LIMIT; UNION ALL yields the first part, then the second.
  const reach = limit + offset;
  return sql`SELECT id FROM (
      SELECT id FROM (SELECT id FROM contacts WHERE ${where} AND ${column} IS NOT NULL ORDER BY ${column}, id LIMIT ${reach})
      UNION ALL
      SELECT id FROM (SELECT id FROM contacts WHERE ${where} AND ${column} IS NULL ORDER BY id LIMIT ${reach})
    ) LIMIT ${limit} OFFSET ${offset}`;
}
