/**
 * The orders of the conversation lists (list, search, labels, filter). The default is latest activity
 * first, ties by id, newest first; the list's `sort_by` may also ask for activity oldest first, creation
 * time either way, and Chatwoot's priority and waiting-time orders (names below).
 *
 * Every order is one direction over a few values ending in the row id, and a page of a list index walk
 * (`walkIds`) reads in proportion to the page; a cursor continues right after the last conversation of a
 * page by those values, so a page far down costs what the first one costs.
 * - activity and creation: (time, id), walked along an index ending in the time;
 * - waiting time: (sort key, created_at, id), the key a generated column of drizzle/schema.ts that puts
 *   the conversations nobody waits on last in either direction (Chatwoot breaks its ties by creation,
 *   oldest first, whichever the direction); walked along an index ending in (key, created_at);
 * - priority: (rank, last_activity_at, id), the rank putting no priority last in either direction
 *   (Chatwoot breaks its ties by latest activity, whichever the direction). Within one priority the order
 *   is the activity order, so a page is one walk per priority value along an index ending in
 *   (priority, last_activity_at), at most five, merged: one index serves both directions, and a message,
 *   which moves last_activity_at, updates one index entry per variant rather than two.
 * We add the id to Chatwoot's orders to make them total.
 */
import { type SQL, asc, desc, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { PRIORITY } from "../kernel/enums";
import { type SortPosition, decodeCursor, encodeCursor, numericKey } from "../kernel/paging";
import type { ConversationRow } from "./rows";

const { conversations: c } = schema;

type TimeColumn = "last_activity_at" | "created_at";
type WaitingKey = "sort_waiting_asc" | "sort_waiting_desc";

/**
 * An order: `column` and the id, `descending` or not; before them, for the priority orders, the
 * `priority` rank (read descending), for the waiting-time orders the generated `key` (read ascending).
 */
export type ConversationSort = { column: TimeColumn; descending: boolean; key?: WaitingKey; priority?: "desc" | "asc" };

export const DEFAULT_SORT: ConversationSort = { column: "last_activity_at", descending: true };

const PRIORITY_DESC: ConversationSort = { priority: "desc", column: "last_activity_at", descending: true };
const WAITING_ASC: ConversationSort = { key: "sort_waiting_asc", column: "created_at", descending: false };

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
  sort_on_priority: PRIORITY_DESC,
  priority_desc: PRIORITY_DESC,
  // low, medium, high, urgent, none; ties: latest activity first
  priority_asc: { priority: "asc", column: "last_activity_at", descending: true },
  // waiting longest first, then those nobody waits on; ties: created first
  sort_on_waiting_since: WAITING_ASC,
  waiting_since_asc: WAITING_ASC,
  // waiting shortest first, then those nobody waits on; ties: created first
  waiting_since_desc: { key: "sort_waiting_desc", column: "created_at", descending: false },
};

const WAITING_KEYS = { sort_waiting_asc: c.sortWaitingAsc, sort_waiting_desc: c.sortWaitingDesc } as const;
const WAITING_FIELDS = { sort_waiting_asc: "sortWaitingAsc", sort_waiting_desc: "sortWaitingDesc" } as const;

/** A priority's rank in a priority order, read descending: the highest first or the lowest first, no priority last. */
const rankOf = (order: "desc" | "asc", priority: number | null) => (priority === null ? (order === "desc" ? -1 : -4) : order === "desc" ? priority : -priority);
const rankSql = (order: "desc" | "asc") => (order === "desc" ? sql`coalesce(${c.priority}, -1)` : sql`coalesce(-${c.priority}, -4)`);
/** The priority values in the order's sequence, no priority last. */
const PRIORITY_VALUES = Object.values(PRIORITY).sort((a, b) => b - a);
const prioritiesInOrder = (order: "desc" | "asc") => [...(order === "desc" ? PRIORITY_VALUES : PRIORITY_VALUES.slice().reverse()), null];

const columnOf = (sort: ConversationSort) => (sort.column === "created_at" ? c.createdAt : c.lastActivityAt);

/** What precedes the time column in the order, if anything. */
const leadOf = (sort: ConversationSort): SQL | (typeof WAITING_KEYS)[WaitingKey] | null =>
  sort.priority ? rankSql(sort.priority) : sort.key ? WAITING_KEYS[sort.key] : null;

/** The order's terms, most significant first, the row id last. */
const orderTerms = (sort: ConversationSort) => {
  const lead = leadOf(sort);
  return [...(lead ? [lead] : []), columnOf(sort), c.id];
};

/** The order's name in its cursors: a cursor of one order is refused by another. */
const orderName = (sort: ConversationSort) =>
  `${sort.descending ? "-" : ""}${sort.priority ? `priority_${sort.priority},` : sort.key ? `${sort.key},` : ""}${sort.column}`;

/** ORDER BY of a conversation list. */
export const listOrder = (sort: ConversationSort) => orderTerms(sort).map((term) => (sort.descending ? desc(term) : asc(term)));
export const listOrderSql = (sort: ConversationSort) =>
  sql.join(
    orderTerms(sort).map((term) => (sort.descending ? sql`${term} DESC` : sql`${term} ASC`)),
    sql`, `,
  );

/** What a cursor needs of a row: its id, its times, its priority and its waiting keys. */
export type PositionedRow = Pick<ConversationRow, "id" | "lastActivityAt" | "createdAt" | "priority" | "sortWaitingAsc" | "sortWaitingDesc">;

export const positionOf = (sort: ConversationSort, row: PositionedRow): SortPosition => {
  const time = sort.column === "created_at" ? row.createdAt : row.lastActivityAt;
  if (sort.priority) return { key: [rankOf(sort.priority, row.priority), time], id: row.id };
  if (sort.key) return { key: [Number(row[WAITING_FIELDS[sort.key]]), time], id: row.id };
  return { key: time, id: row.id };
};

export const encodeConversationCursor = (sort: ConversationSort, position: SortPosition) => encodeCursor(orderName(sort), position);

const isTime = (key: unknown) => key !== null && numericKey(key);

/** A 422 on `cursor` for a token that is not a cursor of this conversation list order. */
export const decodeConversationCursor = (sort: ConversationSort, token: string) =>
  decodeCursor(token, orderName(sort), (key) => (leadOf(sort) ? Array.isArray(key) && key.length === 2 && key.every(isTime) : isTime(key)));

/** A row-value comparison: the rows after `values` in the order of `terms`. */
const rowsAfter = (terms: unknown[], values: unknown[], descending: boolean) =>
  sql`(${sql.join(terms.map((t) => sql`${t}`), sql`, `)}) ${descending ? sql`<` : sql`>`} (${sql.join(values.map((v) => sql`${v}`), sql`, `)})`;

/**
 * The conversations after `position` in the order. Time orders: a range on the index's time column, then
 * ties of the same millisecond settled by id. Other orders: a row-value range over their terms, which
 * SQLite turns into a range on the index's (key, time) columns, so a page after many conversations of the
 * same priority (or none waiting) does not read them again.
 */
export const beyond = (sort: ConversationSort, position: SortPosition): SQL => {
  const column = columnOf(sort);
  if (Array.isArray(position.key)) return rowsAfter(orderTerms(sort), [...position.key, position.id], sort.descending);
  return sort.descending
    ? sql`${column} <= ${position.key} AND (${column} < ${position.key} OR ${c.id} < ${position.id})`
    : sql`${column} >= ${position.key} AND (${column} > ${position.key} OR ${c.id} > ${position.id})`;
};

/**
 * The ids of `limit` conversations that meet `where`, after `after` (or `offset` rows in), in the order,
 * walked along a list index. A priority order walks each priority value at or after the cursor's, its own
 * activity order (a cursor's range applies in its own priority), and merges what the walks found.
 */
export function walkIds(where: SQL | undefined, after: SortPosition | null, sort: ConversationSort, limit: number, offset = 0): SQL {
  const order = sort.priority;
  if (!order) {
    const conditions = [where, after ? beyond(sort, after) : undefined].filter((s): s is SQL => s !== undefined);
    return sql`SELECT ${c.id} AS id FROM ${c} WHERE ${conditions.length ? sql.join(conditions, sql` AND `) : sql`1`} ORDER BY ${listOrderSql(sort)} LIMIT ${limit} OFFSET ${offset}`;
  }
  const [rank, time] = (after?.key as [number, number] | undefined) ?? [Number.POSITIVE_INFINITY, 0];
  const walks = prioritiesInOrder(order)
    .filter((priority) => rankOf(order, priority) <= rank)
    .map((priority) => {
      const conditions = [
        where ?? sql`1`,
        priority === null ? sql`${c.priority} IS NULL` : sql`${c.priority} = ${priority}`,
        ...(after && rankOf(order, priority) === rank ? [rowsAfter([c.lastActivityAt, c.id], [time, after.id], true)] : []),
      ];
      return sql`SELECT * FROM (SELECT ${c.id} AS id, ${rankOf(order, priority)} AS rank, ${c.lastActivityAt} AS at FROM ${c}
        WHERE ${sql.join(conditions, sql` AND `)} ORDER BY ${c.lastActivityAt} DESC, ${c.id} DESC LIMIT ${limit + offset})`;
    });
  if (walks.length === 0) return sql`SELECT NULL AS id WHERE 0`;
  return sql`SELECT id FROM (${sql.join(walks, sql` UNION ALL `)}) ORDER BY rank DESC, at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`;
}
