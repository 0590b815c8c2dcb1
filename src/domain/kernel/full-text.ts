/**
 * What the trigram full-text indexes (SQLite FTS5 with `tokenize = 'trigram'`: contact_search,
 * message_search) share: how an account is confined inside an index, and how a client's text becomes a
 * query that is never FTS syntax.
 *
 * D1 counts one row read per index row an FTS query yields (the shadow tables' pages are not counted),
 * so a match costs what it finds within the account, not the account.
 */

/** The trigram tokenizer matches substrings of at least this many characters; shorter ones match nothing. */
export const TRIGRAM = 3;

/** The account's own token in an index's `account_key` column: "<a12>" cannot occur inside "<a123>". */
export const accountKey = (accountId: number) => `<a${accountId}>`;

/** Characters the trigram index cannot see: a control character would cut FTS5's query text short. */
const UNSEARCHABLE = /\p{Cc}/gu;

/**
 * `text` as one FTS5 phrase (a quoted string, quotes doubled, so no input is FTS syntax), or null when it
 * has fewer than three characters the index can match.
 */
export function trigramPhrase(text: string): string | null {
  const clean = text.replace(UNSEARCHABLE, "");
  if ([...clean].length < TRIGRAM) return null;
  return `"${clean.replaceAll('"', '""')}"`;
}

/** The MATCH text for the rows of one account whose `columns` contain one of `phrases` (trigramPhrase output). */
export const accountMatch = (accountId: number, columns: readonly string[], phrases: readonly string[]) =>
  `account_key:"${accountKey(accountId)}" AND {${columns.join(" ")}}:(${phrases.join(" OR ")})`;
