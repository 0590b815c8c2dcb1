-- Full-text search over help-center articles (SQLite FTS5). drizzle-kit cannot express virtual tables, so
-- this file is written by hand; src/domain/article-search.ts describes the table to drizzle and keeps it
-- in sync: every batch that creates, changes or deletes an article rewrites its row here.
--
-- rowid = articles.id. `portal_key` holds "p<portal id>" so a search is confined to one portal inside
-- the index itself (no cross-portal matches to discard). Tags and the SEO meta title/description are
-- searchable too (the specification: "meta ... used for search").
-- Note: `wrangler d1 export` cannot export databases holding virtual tables; drop and rebuild this table
-- around an export (it holds only data derived from `articles`).
CREATE VIRTUAL TABLE `article_search` USING fts5(
  portal_key,
  title,
  description,
  content,
  tags,
  meta,
  tokenize = 'unicode61 remove_diacritics 2'
);
