/**
 * Paging shared by every list that offers a cursor beside Chatwoot's `page` (contacts, conversations,
 * messages): the opaque cursor token, and the budget of a paged scan.
 *
 * A cursor stands for "the page after this row": the row's sort key and id in the list's order, named by
 * the order, so a token made for one order is refused by another. It is base64url JSON, opaque to clients
 * and checked on the way in (a 422 on `cursor`, never a 500).
 *
 * A paged scan (what no index can answer) examines at most SCAN_BUDGET rows a request; when it stops
 * before its page is full it says `has_more` and gives a cursor that resumes right after the last row it
 * examined, so an answer is never cut short silently.
 */
import { invalidField } from "./errors";

/** The most rows one request of a paged scan examines. */
export const SCAN_BUDGET = 1_000;

/**
 * Where a page ended: the sort key value and id of its last row (a list whose order has several columns
 * before the id gives their values in order). A cursor continues after it.
 */
export type SortPosition = { key: string | number | null | number[]; id: number };

const toBase64Url = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text))).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
const fromBase64Url = (token: string) =>
  new TextDecoder().decode(Uint8Array.from(atob(token.replaceAll("-", "+").replaceAll("_", "/")), (ch) => ch.charCodeAt(0)));

/** An opaque token for "the page after `position` in the order named `order`". */
export function encodeCursor(order: string, position: SortPosition): string {
  return toBase64Url(JSON.stringify({ s: order, k: position.key, i: position.id }));
}

/**
 * The position a cursor stands for; a 422 on `cursor` when it is not one made for the order named `order`
 * or when its key is not one `keyFits` accepts for that order.
 */
export function decodeCursor(token: string, order: string, keyFits: (key: unknown) => boolean): SortPosition {
  const refuse = (message: string) => invalidField("cursor", message, "invalid_cursor");
  let value: unknown;
  try {
    value = JSON.parse(fromBase64Url(token));
  } catch {
    throw refuse("is not a cursor this list gave out");
  }
  const { s, k, i } = (value ?? {}) as { s?: unknown; k?: unknown; i?: unknown };
  if (typeof i !== "number" || !Number.isSafeInteger(i) || i < 1) throw refuse("is not a cursor this list gave out");
  if (s !== order) throw refuse(`belongs to another order (${String(s)}); send the same sort as the page that gave it`);
  if (!keyFits(k)) throw refuse("is not a cursor this list gave out");
  return { key: k as SortPosition["key"], id: i };
}

/** A sort key that is a whole number (a time in ms), or null. */
export const numericKey = (key: unknown) => key === null || (typeof key === "number" && Number.isSafeInteger(key));
