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
import { type SortPosition, decodeCursor as decodeOrderCursor, encodeCursor as encodeOrderCursor, numericKey } from "../kernel/paging";
import type { ContactRow } from "./rows";

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

export type { SortPosition };

/** `after`, when given, replaces `offset`: the page starts right after that position. */
export type PageWindow = { limit: number; offset: number; after?: SortPosition | null };

const column = (key: ContactSortKey) => sql`contacts.${sql.identifier(CONTACT_SORT_KEYS[key])}`;

/**
 * `SELECT id FROM contacts WHERE <where> <order> LIMIT/OFFSET`, the ids of one page in order, walking
 * the sort key's list index (for listed contacts). With `after`, the walk starts at the position by a
 * row-value range on that index, so a page far down costs what the first one costs.
 */
export function contactPageIds(where: SQL, sort: ContactSort, page: PageWindow): SQL {
  const { limit, after } = page;
  const offset = after ? 0 : page.offset;
  if (sort.key === null) {
    const from = after ? sql` AND id > ${after.id}` : sql``;
    return sql`SELECT id FROM contacts WHERE ${where}${from} ORDER BY id LIMIT ${limit} OFFSET ${offset}`;
  }
  const col = column(sort.key);
  const dir = sort.descending ? sql`DESC` : sql`ASC`;
  const beyond = (position: SortPosition) =>
    sort.descending ? sql`(${col}, contacts.id) < (${position.key}, ${position.id})` : sql`(${col}, contacts.id) > (${position.key}, ${position.id})`;
  const idBeyond = (position: SortPosition) => (sort.descending ? sql`contacts.id < ${position.id}` : sql`contacts.id > ${position.id}`);
  if (ALWAYS_SET.has(sort.key)) {
    const from = after ? sql` AND ${beyond(after)}` : sql``;
    return sql`SELECT id FROM contacts WHERE ${where}${from} ORDER BY ${col} ${dir}, id ${dir} LIMIT ${limit} OFFSET ${offset}`;
  }
  if (sort.descending && !after) {
    return sql`SELECT id FROM contacts WHERE ${where} ORDER BY ${col} DESC, id DESC LIMIT ${limit} OFFSET ${offset}`;
  }
  // Contacts with a value, then those without (by id). After a position without a value only the second part is left.
  const reach = limit + offset;
  const nulls = (extra: SQL) =>
    sql`SELECT id FROM (SELECT id FROM contacts WHERE ${where} AND ${col} IS NULL${extra} ORDER BY id ${dir} LIMIT ${reach})`;
  if (after && after.key === null) {
    return sql`SELECT id FROM (${nulls(sql` AND ${idBeyond(after)}`)}) LIMIT ${limit} OFFSET ${offset}`;
  }
  const from = after ? sql` AND ${beyond(after)}` : sql``;
  // Each part keeps its ORDER BY because it has a LIMIT; UNION ALL yields the first part, then the second.
  return sql`SELECT id FROM (
      SELECT id FROM (SELECT id FROM contacts WHERE ${where} AND ${col} IS NOT NULL${from} ORDER BY ${col} ${dir}, id ${dir} LIMIT ${reach})
      UNION ALL
      ${nulls(sql``)}
    ) LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * The ids of one page among `candidates` (a query with one id column, e.g. index matches), in the list's
 * order: each candidate is read once by primary key, checked against `where` and sorted. For answers
 * that an index narrows first (search, filter): the cost follows the candidates, not the account.
 */
export function candidatePageIds(candidates: SQL, where: SQL, sort: ContactSort, page: PageWindow): SQL {
  const { limit, after } = page;
  const offset = after ? 0 : page.offset;
  // DISTINCT keeps SQLite from flattening the subquery, so CROSS JOIN makes the candidates the outer loop.
  const from = sql`FROM (SELECT DISTINCT id FROM (${candidates})) AS candidates CROSS JOIN contacts ON contacts.id = candidates.id`;
  if (sort.key === null) {
    const start = after ? sql` AND contacts.id > ${after.id}` : sql``;
    return sql`SELECT contacts.id AS id ${from} WHERE ${where}${start} ORDER BY contacts.id LIMIT ${limit} OFFSET ${offset}`;
  }
  const col = column(sort.key);
  const dir = sort.descending ? sql`DESC` : sql`ASC`;
  let start = sql``;
  if (after) {
    const idBeyond = sort.descending ? sql`contacts.id < ${after.id}` : sql`contacts.id > ${after.id}`;
    const beyond = sort.descending ? sql`(${col}, contacts.id) < (${after.key}, ${after.id})` : sql`(${col}, contacts.id) > (${after.key}, ${after.id})`;
    start = after.key === null ? sql` AND ${col} IS NULL AND ${idBeyond}` : sql` AND (${col} IS NULL OR ${beyond})`;
  }
  return sql`SELECT contacts.id AS id ${from} WHERE ${where}${start}
    ORDER BY ${col} IS NULL, ${col} ${dir}, contacts.id ${dir} LIMIT ${limit} OFFSET ${offset}`;
}

// ---------------------------------------------------------------- cursors

/** The row field holding each sort key's stored value. */
const SORT_FIELDS = {
  name: "nameSort",
  email: "email",
  phone_number: "phoneNumber",
  last_activity_at: "lastActivityAt",
  created_at: "createdAt",
  company: "companySort",
  city: "citySort",
  country: "countrySort",
} as const satisfies Record<ContactSortKey, string>;

const NUMERIC_KEYS = new Set<ContactSortKey>(["last_activity_at", "created_at"]);

const sortName = (sort: ContactSort) => (sort.key === null ? "id" : `${sort.descending ? "-" : ""}${sort.key}`);

/** The position of `contact` in `sort`. */
export function positionOf(sort: ContactSort, contact: ContactRow): SortPosition {
  return { key: sort.key === null ? null : contact[SORT_FIELDS[sort.key]], id: contact.id };
}

/** An opaque token for "the page after `position` in `sort`". */
export const encodeCursor = (sort: ContactSort, position: SortPosition): string => encodeOrderCursor(sortName(sort), position);

/** The position a cursor stands for; a 422 on `cursor` when it is not one this list made for `sort`. */
export function decodeCursor(token: string, sort: ContactSort): SortPosition {
  return decodeOrderCursor(token, sortName(sort), (k) =>
    sort.key === null ? k === null : NUMERIC_KEYS.has(sort.key) ? numericKey(k) : k === null || (typeof k === "string" && k.length <= 1024),
  );
}
