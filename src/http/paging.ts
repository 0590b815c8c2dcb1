/**
 * Cursor paging beside Chatwoot's `page`: a list that can continue answers the next page's cursor in its
 * meta and in a `Link: <...>; rel="next"` header (RFC 8288), the request's own URL with `cursor` set and
 * `page` removed, so a client can follow it without knowing the parameters.
 */
import type { AppContext } from "./app-env";

export function linkNext(c: AppContext, cursor: string | null): void {
  if (cursor === null) return;
  const next = new URL(c.req.url);
  next.searchParams.delete("page");
  next.searchParams.set("cursor", cursor);
  c.header("Link", `<${next.toString()}>; rel="next"`);
}

/** `next_cursor` for a meta object: present only when another page follows. */
export const nextCursorMeta = (cursor: string | null) => (cursor === null ? {} : { next_cursor: cursor });
