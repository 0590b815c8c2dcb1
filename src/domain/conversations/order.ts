/**
 * The order of every conversation list (list, search, labels, filter): latest activity first, ties by
 * id, newest first. Each list index ends in last_activity_at (and the row id), so a page walks an index
 * in this order; a cursor continues right after the last conversation of a page by its activity time and
 * id, so a page far down costs what the first one costs.
 */
import { type SQL, desc, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { type SortPosition, decodeCursor, encodeCursor, numericKey } from "../kernel/paging";
import type { ConversationRow } from "./rows";

const { conversations: c } = schema;

/** The order's name in its cursors. */
const ORDER = "-last_activity_at";

/** ORDER BY of a conversation list. */
export const listOrder = [desc(c.lastActivityAt), desc(c.id)] as const;
export const listOrderSql = sql`${c.lastActivityAt} DESC, ${c.id} DESC`;

export const positionOf = (row: Pick<ConversationRow, "lastActivityAt" | "id">): SortPosition => ({ key: row.lastActivityAt, id: row.id });

export const encodeConversationCursor = (position: SortPosition) => encodeCursor(ORDER, position);

/** A 422 on `cursor` for a token that is not a conversation list's. */
export const decodeConversationCursor = (token: string) => decodeCursor(token, ORDER, (key) => key !== null && numericKey(key));

/**
 * The conversations after `position` in the list order. The first term is a range on the index's
 * last_activity_at; the second settles ties of the same millisecond by id.
 */
export const beyond = (position: SortPosition): SQL =>
  sql`${c.lastActivityAt} <= ${position.key} AND (${c.lastActivityAt} < ${position.key} OR ${c.id} < ${position.id})`;
