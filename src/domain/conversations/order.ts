/**
 * The orders of the conversation lists (list, search, labels, filter). The default is latest activity
 * first, ties by id, newest first; the list's `sort_by` may also ask for activity oldest first, creation
 * time either way, and Chatwoot's priority and waiting-time orders (names below).
 *
 * Every order is one direction over a few columns ending in the row id, and a list index ends in the same
 * columns (the id implicitly), so a page walks an index forwards or backwards; a cursor continues right
 * after the last conversation of a page by those columns, so a page far down costs what the first one
 * costs.
 * - activity and creation: (time, id);
 * - priority and waiting time: (sort key, tie column, id), where the sort key is a generated column of
 *   drizzle/schema.ts that puts Chatwoot's missing values (no priority, nobody waiting) last in either
 *   direction. Chatwoot breaks priority ties by latest activity and waiting ties by creation, oldest
 *   first, whichever the direction; we add the id to make the order total.
 */
import { type SQL, asc, desc, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { type SortPosition, decodeCursor, encodeCursor, numericKey } from "../kernel/paging";
import type { ConversationRow } from "./rows";

const { conversations: c } = schema;

type TimeColumn = "last_activity_at" | "created_at";
type SortKey = "sort_priority_desc" | "sort_priority_asc" | "sort_waiting_asc" | "sort_waiting_desc";

/** `key`: the generated sort key read before `column`; absent for the time orders. */
export type ConversationSort = { key?: SortKey; column: TimeColumn; descending: boolean };

export const DEFAULT_SORT: ConversationSort = { column: "last_activity_at", descending: true };

/**
 * Chatwoot's `sort_by` values (its conversation finder's). Its legacy names keep their own default
 * direction: `latest` newest activity first, `sort_on_created_at` oldest first, `sort_on_priority`
 * highest first, `sort_on_waiting_since` longest wait first.
 */
export const SORTS: Record<string, ConversationSort> = {
  latest: DEFAULT_SORT,
  last_activity_at_desc: DEFAULT_SORT,
  last_activity_at_asc: { column: "last_activity_at", descending: false },
  sort_on_created_at: { column: "created_at", descending: false },
  created_at_asc: { column: "created_at", descending: false },
  created_at_desc: { column: "created_at", descending: true },
  // urgent, high, medium, low, none; ties: latest activity first
  sort_on_priority: { key: "sort_priority_desc", column: "last_activity_at", descending: true },
  priority_desc: { key: "sort_priority_desc", column: "last_activity_at", descending: true },
  // low, medium, high, urgent, none; ties: latest activity first
  priority_asc: { key: "sort_priority_asc", column: "last_activity_at", descending: true },
  // waiting longest first, then those nobody waits on; ties: created first
  sort_on_waiting_since: { key: "sort_waiting_asc", column: "created_at", descending: false },
  waiting_since_asc: { key: "sort_waiting_asc", column: "created_at", descending: false },
  // waiting shortest first, then those nobody waits on; ties: created first
  waiting_since_desc: { key: "sort_waiting_desc", column: "created_at", descending: false },
};

const KEY_COLUMNS = {
  sort_priority_desc: c.sortPriorityDesc,
  sort_priority_asc: c.sortPriorityAsc,
  sort_waiting_asc: c.sortWaitingAsc,
  sort_waiting_desc: c.sortWaitingDesc,
} as const;
const KEY_FIELDS = {
  sort_priority_desc: "sortPriorityDesc",
  sort_priority_asc: "sortPriorityAsc",
  sort_waiting_asc: "sortWaitingAsc",
  sort_waiting_desc: "sortWaitingDesc",
} as const;

const columnOf = (sort: ConversationSort) => (sort.column === "created_at" ? c.createdAt : c.lastActivityAt);

/** The order's columns, most significant first, the row id last. */
const orderColumns = (sort: ConversationSort) => [...(sort.key ? [KEY_COLUMNS[sort.key]] : []), columnOf(sort), c.id];

/** The order's name in its cursors: a cursor of one order is refused by another. */
const orderName = (sort: ConversationSort) => `${sort.descending ? "-" : ""}${sort.key ? `${sort.key},` : ""}${sort.column}`;

/** ORDER BY of a conversation list. */
export const listOrder = (sort: ConversationSort) => orderColumns(sort).map((column) => (sort.descending ? desc(column) : asc(column)));
export const listOrderSql = (sort: ConversationSort) =>
  sql.join(
    orderColumns(sort).map((column) => (sort.descending ? sql`${column} DESC` : sql`${column} ASC`)),
    sql`, `,
  );

/** What a cursor needs of a row: its id, its times and its sort keys. */
export type PositionedRow = Pick<ConversationRow, "id" | "lastActivityAt" | "createdAt" | (typeof KEY_FIELDS)[SortKey]>;

export const positionOf = (sort: ConversationSort, row: PositionedRow): SortPosition => {
  const time = sort.column === "created_at" ? row.createdAt : row.lastActivityAt;
  return { key: sort.key ? [Number(row[KEY_FIELDS[sort.key]]), time] : time, id: row.id };
};

export const encodeConversationCursor = (sort: ConversationSort, position: SortPosition) => encodeCursor(orderName(sort), position);

const isTime = (key: unknown) => key !== null && numericKey(key);

/** A 422 on `cursor` for a token that is not a cursor of this conversation list order. */
export const decodeConversationCursor = (sort: ConversationSort, token: string) =>
  decodeCursor(token, orderName(sort), (key) => (sort.key ? Array.isArray(key) && key.length === 2 && key.every(isTime) : isTime(key)));

/**
 * The conversations after `position` in the order. Time orders: a range on the index's time column, then
 * ties of the same millisecond settled by id. Sort-key orders: a row-value range over (key, time, id),
 * which SQLite turns into a range on the index's (key, time) columns, so a page after many conversations
 * of the same priority (or none waiting) does not read them again.
 */
export const beyond = (sort: ConversationSort, position: SortPosition): SQL => {
  const column = columnOf(sort);
  if (sort.key) {
    const [key, time] = position.key as [number, number];
    const columns = sql`(${KEY_COLUMNS[sort.key]}, ${column}, ${c.id})`;
    return sort.descending ? sql`${columns} < (${key}, ${time}, ${position.id})` : sql`${columns} > (${key}, ${time}, ${position.id})`;
  }
  return sort.descending
    ? sql`${column} <= ${position.key} AND (${column} < ${position.key} OR ${c.id} < ${position.id})`
    : sql`${column} >= ${position.key} AND (${column} > ${position.key} OR ${c.id} > ${position.id})`;
};
