/**
 * The orders of the conversation lists (list, search, labels, filter). The default is latest activity
 * first, ties by id, newest first; the list's `sort_by` may also ask for activity oldest first and for
 * creation time either way (Chatwoot's names below). Each order is one time column and the row id, the
 * same direction: every list index ends in that column (and, implicitly, the row id), so a page walks an
 * index forwards or backwards; a cursor continues right after the last conversation of a page by its time
 * and id, so a page far down costs what the first one costs.
 */
import { type SQL, asc, desc, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { type SortPosition, decodeCursor, encodeCursor, numericKey } from "../kernel/paging";
import type { ConversationRow } from "./rows";

const { conversations: c } = schema;

export type ConversationSort = { column: "last_activity_at" | "created_at"; descending: boolean };

export const DEFAULT_SORT: ConversationSort = { column: "last_activity_at", descending: true };

/**
 * Chatwoot's `sort_by` values this service orders by. Its legacy names keep their own default direction:
 * `latest` newest activity first, `sort_on_created_at` oldest first.
 */
export const SORTS: Record<string, ConversationSort> = {
  latest: DEFAULT_SORT,
  last_activity_at_desc: DEFAULT_SORT,
  last_activity_at_asc: { column: "last_activity_at", descending: false },
  sort_on_created_at: { column: "created_at", descending: false },
  created_at_asc: { column: "created_at", descending: false },
  created_at_desc: { column: "created_at", descending: true },
};

/**
 * Chatwoot's `sort_by` values for priority and waiting time: no list index serves them yet (their order
 * puts missing values last in both directions and breaks ties by another column), so they are refused
 * with a clear 422 rather than answered in another order.
 */
export const SORTS_NOT_BUILT = ["sort_on_priority", "priority_asc", "priority_desc", "sort_on_waiting_since", "waiting_since_asc", "waiting_since_desc"];

const columnOf = (sort: ConversationSort) => (sort.column === "created_at" ? c.createdAt : c.lastActivityAt);

/** The order's name in its cursors: a cursor of one order is refused by another. */
const orderName = (sort: ConversationSort) => `${sort.descending ? "-" : ""}${sort.column}`;

/** ORDER BY of a conversation list. */
export const listOrder = (sort: ConversationSort) => (sort.descending ? [desc(columnOf(sort)), desc(c.id)] : [asc(columnOf(sort)), asc(c.id)]);
export const listOrderSql = (sort: ConversationSort) =>
  sort.descending ? sql`${columnOf(sort)} DESC, ${c.id} DESC` : sql`${columnOf(sort)} ASC, ${c.id} ASC`;

export const positionOf = (sort: ConversationSort, row: Pick<ConversationRow, "lastActivityAt" | "createdAt" | "id">): SortPosition => ({
  key: sort.column === "created_at" ? row.createdAt : row.lastActivityAt,
  id: row.id,
});

export const encodeConversationCursor = (sort: ConversationSort, position: SortPosition) => encodeCursor(orderName(sort), position);

/** A 422 on `cursor` for a token that is not a cursor of this conversation list order. */
export const decodeConversationCursor = (sort: ConversationSort, token: string) =>
  decodeCursor(token, orderName(sort), (key) => key !== null && numericKey(key));

/**
 * The conversations after `position` in the order. The first term is a range on the index's time column;
 * the second settles ties of the same millisecond by id.
 */
export const beyond = (sort: ConversationSort, position: SortPosition): SQL => {
  const column = columnOf(sort);
  return sort.descending
    ? sql`${column} <= ${position.key} AND (${column} < ${position.key} OR ${c.id} < ${position.id})`
    : sql`${column} >= ${position.key} AND (${column} > ${position.key} OR ${c.id} > ${position.id})`;
};
