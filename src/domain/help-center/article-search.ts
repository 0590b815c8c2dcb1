/**
 * Full-text search over help-center articles: the FTS5 table `article_search`
 * (migrations/0001_help_center_search.sql), one row per article with rowid = articles.id.
 *
 * The index is kept in step by the domain, not by triggers: every batch that writes an article also
 * runs `reindexArticles` (or `unindexArticles`) for it, so the change and its index row commit together
 * and a reader of the domain module sees every write the index gets. The row is always copied from the
 * stored article (INSERT ... SELECT), so it cannot drift from what the batch wrote.
 */
import { type SQL, inArray, sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { type Database, schema } from "../../db/client";

const { articles } = schema;

/**
 * The FTS table as drizzle sees it (drizzle-kit cannot express virtual tables, so it lives outside
 * drizzle/schema.ts and the migration creates it). Statements use drizzle's builders: a raw `db.run`
 * with parameters cannot go in a D1 batch (drizzle-orm 0.45 looks for a prepared statement it lacks).
 */
export const articleSearch = sqliteTable("article_search", {
  rowid: integer("rowid").notNull(),
  portalKey: text("portal_key").notNull(),
  title: text("title").notNull(),
  description: text("description").notNull(),
  content: text("content").notNull(),
  tags: text("tags").notNull(),
  meta: text("meta").notNull(),
});

/** Markers around matched terms in `snippet()`; views turn them into escaped HTML with <mark>. */
export const MATCH_START = "\uE000";
export const MATCH_END = "\uE001";

/** Removes the index rows of the articles `where` selects (put it before the statement deleting them). */
export const unindexArticles = (db: Database, where: SQL | undefined) =>
  db.delete(articleSearch).where(inArray(articleSearch.rowid, db.select({ id: articles.id }).from(articles).where(where)));

/**
 * Rewrites the index rows of the articles `where` selects from their stored values (put it after the
 * article write in the same batch). Tags and the meta title/description are searchable too.
 */
export function reindexArticles(db: Database, where: SQL) {
  return [
    unindexArticles(db, where),
    // columns in the order of `articleSearch`
    db.insert(articleSearch).select(sql`SELECT id, 'p' || portal_id, title, coalesce(description, ''), content,
        coalesce((SELECT group_concat(value, ' ') FROM json_each(meta, '$.tags')), ''),
        trim(coalesce(json_extract(meta, '$.title'), '') || ' ' || coalesce(json_extract(meta, '$.description'), ''))
      FROM ${articles} WHERE ${where}`),
  ] as const;
}

/**
 * The user's text as FTS5 terms, or null when it holds no searchable word. Each term is quoted (so no
 * input can be FTS syntax: operators, column filters and stray quotes become plain words) and matched
 * as a prefix, so "pass" finds "password" while the user types; all terms must match.
 */
export function searchTerms(text: string): string | null {
  const terms = text
    .split(/\s+/)
    // quotes would end the FTS string; a NUL or other control character cuts SQLite's query text short
    // ("unterminated string", a 500)
    .map((t) => t.replace(/["\p{Cc}]/gu, ""))
    .filter((t) => /[\p{L}\p{N}]/u.test(t))
    .slice(0, 16);
  return terms.length === 0 ? null : terms.map((t) => `"${t}"*`).join(" ");
}

/**
 * The articles of portal `portalId` (a value or a subquery) that match `terms`. A subquery that finds no
 * portal (an unknown slug, or a slug of another account over MCP) is NULL, which would make the whole MATCH
 * text NULL, an FTS syntax error; no portal has id 0, so it matches nothing and the caller's own
 * not-found check answers.
 */
export const matches = (portalId: SQL, terms: string) =>
  sql`article_search MATCH ('portal_key:"p' || coalesce(${portalId}, 0) || '" AND (' || ${terms} || ')')`;

/**
 * bm25 rank (lower is better) weighing a match in the title most, then tags, description and meta,
 * then the body; the portal key carries no weight.
 */
export const searchRank = sql<number>`bm25(article_search, 0.0, 10.0, 4.0, 1.0, 6.0, 3.0)`;

/** A short excerpt of the article body around the matches, with the matched terms marked. */
export const searchSnippet = sql<string>`snippet(article_search, 3, ${MATCH_START}, ${MATCH_END}, '…', 24)`;

