/**
 * Articles of a portal. A slug is unique per portal; the category, the author (a member of the
 * account) and the associated article (the same article in another locale) are checked against the
 * account and the portal. Every write rewrites the article's search row in the same batch.
 *
 * Associated articles form a group around a root article (Chatwoot's model): an article associated
 * with X joins X's group, and every member lists the others, so the link reads both ways.
 *
 * Content is stored and returned exactly as given: the service renders no article as HTML, so it has
 * nothing to sanitize (a front end rendering the Markdown/HTML must sanitize it). The one piece of HTML
 * the service makes is the search snippet, which the view builds by escaping the text (views/help-center).
 */
import { type SQL, type SQLWrapper, and, asc, desc, eq, getTableColumns, inArray, ne, or, sql } from "drizzle-orm";
import { type Database, lastInsertedId, now, schema } from "../../db/client";
import { batch, batchNamed, write, writeThenRead } from "../kernel/batch";
import { articleSearch, matches, reindexArticles, searchRank, searchSnippet, searchTerms, unindexArticles } from "./article-search";
import { type AgentRow, actorUserId, agentsQuery } from "../people/agents";
import { type PortalRef, portalIdQuery, portalIds, portalLocales, portalQuery, requirePortal } from "./portals";
import { randomToken } from "../identity/keys";
import { type AccountScope } from "../kernel/scope";
import { type ErrorEntry, invalid, notFound } from "../kernel/errors";
import type { ArticleRow, CategoryRow } from "./rows";

const { articles, categories, users } = schema;

export const ARTICLES_PER_PAGE = 25;

export type CategorySummary = Pick<CategoryRow, "id" | "name" | "slug" | "locale">;
/** An article with its category, its author (null once they left the account) and its group. */
export type ArticleRecord = {
  article: ArticleRow;
  category: CategorySummary | null;
  author: AgentRow | null;
  associated: ArticleRow[];
  /** the matched part of the body, on search results only */
  snippet: string | null;
};

/** An article's fields as the API sends them, checked and normalised by src/schemas/help-center.ts. */
export type ArticleCreateInput = {
  title: string;
  slug?: string | null;
  position?: number | null;
  content: string;
  description?: string | null;
  category_id?: number | null;
  author_id?: number;
  associated_article_id?: number | null;
  /** ARTICLE_STATUS */
  status?: number;
  locale?: string;
  meta?: { title?: string | null; description?: string | null; tags?: string[] };
};
export type ArticleInput = Partial<ArticleCreateInput>;
export type ArticleFilters = {
  page: number;
  status?: number;
  locale?: string;
  categorySlug?: string;
  authorId?: number;
  query?: string;
};
/** Articles per status under the filters other than status and author; `matching` under all of them. */
export type ArticleTally = { status: number; count: number; mine: number; matching: number };
export type ArticlePage = { articles: ArticleRecord[]; tallies: ArticleTally[] };

const inPortal = (portal: PortalRef) => inArray(articles.portalId, portalIds(portal));

/** The article group an article belongs to is named by its root's id. */
const rootOf = (a: Pick<ArticleRow, "id" | "associatedArticleId">) => a.associatedArticleId ?? a.id;
const rootColumn = sql<number>`coalesce(${articles.associatedArticleId}, ${articles.id})`;

// ---------------------------------------------------------------- reading

/**
 * What the records of the articles `selected` picks need: their categories, authors and groups. Each
 * is found by a subquery on `selected`, so these go in the same batch as the article read or write.
 */
export function relationQueries(db: Database, accountId: number, selected: SQL) {
  const column = (c: SQLWrapper) => db.select({ id: sql<number>`${c}` }).from(articles).where(selected);
  return [
    db
      .select({ id: categories.id, name: categories.name, slug: categories.slug, locale: categories.locale })
      .from(categories)
      .where(and(eq(categories.accountId, accountId), inArray(categories.id, column(articles.categoryId)))),
    agentsQuery(db, accountId, inArray(users.id, column(articles.authorId))),
    // the groups: their roots, and the members pointing to them (by primary key and by index)
    db
      .select()
      .from(articles)
      .where(
        and(
          eq(articles.accountId, accountId),
          or(inArray(articles.id, column(rootColumn)), inArray(articles.associatedArticleId, column(rootColumn))),
        ),
      ),
  ] as const;
}

type SnippetRow = ArticleRow & { snippet?: string | null };

export function toArticleRecords(
  rows: SnippetRow[],
  categoryRows: CategorySummary[],
  authorRows: AgentRow[],
  groupRows: ArticleRow[],
): ArticleRecord[] {
  const categoryOf = new Map(categoryRows.map((c) => [c.id, c]));
  const authorOf = new Map(authorRows.map((a) => [a.userId, a]));
  return rows.map(({ snippet, ...article }) => ({
    article,
    category: categoryOf.get(article.categoryId ?? 0) ?? null,
    author: authorOf.get(article.authorId ?? 0) ?? null,
    associated: groupRows.filter((g) => g.id !== article.id && rootOf(g) === rootOf(article)),
    snippet: snippet ?? null,
  }));
}

/**
 * The page of a portal's articles under `filters`, and the tallies of the list's meta. With a query,
 * results come in bm25 order with a snippet; otherwise by position within a category, else most
 * recently updated first. The tallies count within the one portal (an index leads with portal_id).
 */
export function articlePageQueries(db: Database, portalId: PortalRef, filters: ArticleFilters, me: number | null) {
  const base = and(
    inPortal(portalId),
    filters.locale ? eq(articles.locale, filters.locale) : undefined,
    filters.categorySlug
      ? inArray(
          articles.categoryId,
          db
            .select({ id: categories.id })
            .from(categories)
            .where(and(inArray(categories.portalId, portalIds(portalId)), eq(categories.slug, filters.categorySlug))),
        )
      : undefined,
  );
  const narrowing = and(
    filters.status !== undefined ? eq(articles.status, filters.status) : undefined,
    filters.authorId ? eq(articles.authorId, filters.authorId) : undefined,
  );
  // a blank query lists; a query without a searchable word finds nothing
  const query = filters.query?.trim();
  const terms = query ? searchTerms(query) : null;
  const found = terms ? matches(typeof portalId === "number" ? sql`${portalId}` : sql`(${portalId})`, terms) : query ? sql`0` : undefined;

  const pageQuery = db
    .select({ ...getTableColumns(articles), snippet: terms ? searchSnippet : sql<null>`null` })
    .from(articles)
    .$dynamic();
  const tallyQuery = db
    .select({
      status: articles.status,
      count: sql<number>`count(*)`,
      mine: sql<number>`coalesce(sum(${articles.authorId} = ${me ?? 0}), 0)`,
      matching: sql<number>`coalesce(sum(${narrowing ?? sql`1`}), 0)`,
    })
    .from(articles)
    .$dynamic();
  if (terms) {
    pageQuery.innerJoin(articleSearch, eq(articleSearch.rowid, articles.id));
    tallyQuery.innerJoin(articleSearch, eq(articleSearch.rowid, articles.id));
  }
  const order = terms
    ? [asc(searchRank), desc(articles.updatedAt)]
    : filters.categorySlug
      ? [asc(articles.position), asc(articles.id)]
      : [desc(articles.updatedAt), desc(articles.id)];
  return [
    pageQuery
      .where(and(base, narrowing, found))
      .orderBy(...order)
      .limit(ARTICLES_PER_PAGE)
      .offset((filters.page - 1) * ARTICLES_PER_PAGE),
    tallyQuery.where(and(base, found)).groupBy(articles.status),
  ] as const;
}

/** Reads the records of a page of articles (the second round trip of a list). */
export async function loadArticleRecords(db: Database, accountId: number, rows: SnippetRow[]): Promise<ArticleRecord[]> {
  if (rows.length === 0) return [];
  const [categoryRows, authorRows, groupRows] = await batch(
    db,
    relationQueries(
      db,
      accountId,
      sql`${articles.id} IN (SELECT value FROM json_each(${JSON.stringify(rows.map((r) => r.id))}))`,
    ),
  );
  return toArticleRecords(rows, categoryRows, authorRows, groupRows);
}

export async function listArticles(scope: AccountScope, slug: string, filters: ArticleFilters): Promise<ArticlePage> {
  const [portalRows, rows, tallies] = await batch(scope.db, [
    portalQuery(scope, slug),
    ...articlePageQueries(scope.db, portalIdQuery(scope, slug), filters, actorUserId(scope)),
  ]);
  requirePortal(portalRows, slug);
  return { articles: await loadArticleRecords(scope.db, scope.accountId, rows), tallies };
}

/** Article `id` of portal `slug` in the scope's account. */
const articleWhere = (scope: AccountScope, slug: string, id: number | SQL) =>
  and(eq(articles.id, id), eq(articles.accountId, scope.accountId), inPortal(portalIdQuery(scope, slug))) as SQL;

function requireArticle<T>(rows: T[], id: number): T {
  if (!rows[0]) throw notFound("Article", id);
  return rows[0];
}

/** The article and what its record needs, read (or re-read after a write) in one batch. */
const articleRecordQueries = (scope: AccountScope, slug: string, id: number | SQL) =>
  [scope.db.select().from(articles).where(articleWhere(scope, slug, id)), ...relationQueries(scope.db, scope.accountId, articleWhere(scope, slug, id))] as const;

export async function showArticle(scope: AccountScope, slug: string, id: number): Promise<ArticleRecord> {
  const [portalRows, rows, categoryRows, authorRows, groupRows] = await batch(scope.db, [portalQuery(scope, slug), ...articleRecordQueries(scope, slug, id)]);
  requirePortal(portalRows, slug);
  return toArticleRecords([requireArticle(rows, id)], categoryRows, authorRows, groupRows)[0];
}

// ---------------------------------------------------------------- writing

/** "How to reset your password?" -> "how-to-reset-your-password" ("article" when nothing is left). */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 200)
    .replace(/-+$/, "");
  return slug || "article";
}

/** A short random suffix for a generated slug that is taken: 6 characters of [a-z0-9]. */
const slugSuffix = () => randomToken(6).toLowerCase();

/**
 * Reads what the rules need and settles the article's final slug, locale and group root. `self` is
 * the article being changed (update) or null (create).
 */
async function checkArticleInput(scope: AccountScope, slug: string, input: ArticleInput, selfId: number | null) {
  const db = scope.db;
  const portalId = portalIdQuery(scope, slug);
  const wantedSlug = input.slug ?? (selfId === null && input.title ? slugify(input.title) : null);
  const selfColumn = (column: typeof articles.categoryId) =>
    sql`(SELECT ${column} FROM ${articles} WHERE ${articles.id} = ${selfId ?? 0} AND ${articles.accountId} = ${scope.accountId})`;
  // the category after the change: the one named, or the article's current one
  const categoryId = input.category_id !== undefined ? (input.category_id ?? 0) : selfColumn(articles.categoryId);
  const authorId = input.author_id ?? (selfId === null ? actorUserId(scope) : null);
  const [portalRows, selfRows, slugRows, categoryRows, authorRows, associatedRows] = await batch(db, [
    portalQuery(scope, slug),
    db.select().from(articles).where(articleWhere(scope, slug, selfId ?? 0)),
    db
      .select({ id: articles.id })
      .from(articles)
      .where(and(inPortal(portalId), eq(articles.slug, wantedSlug ?? ""), ne(articles.id, selfId ?? 0))),
    db
      .select({ id: categories.id, locale: categories.locale })
      .from(categories)
      .where(and(eq(categories.id, categoryId), eq(categories.accountId, scope.accountId), inArray(categories.portalId, portalId))),
    agentsQuery(db, scope.accountId, eq(users.id, authorId ?? 0)),
    db.select().from(articles).where(and(eq(articles.id, input.associated_article_id ?? 0), eq(articles.accountId, scope.accountId), inPortal(portalId))),
  ]);
  const portal = requirePortal(portalRows, slug);
  const self = selfId === null ? null : requireArticle(selfRows, selfId);
  const errors: ErrorEntry[] = [];

  let finalSlug = wantedSlug ?? undefined;
  if (slugRows.length > 0) {
    if (input.slug) errors.push({ field: "slug", message: "has already been taken in this portal", code: "taken" });
    else finalSlug = `${wantedSlug}-${slugSuffix()}`;
  }

  if (input.category_id && categoryRows.length === 0) {
    errors.push({ field: "category_id", message: `category ${input.category_id} is not a category of this portal`, code: "not_found" });
  }
  const category = categoryRows[0];
  const { default_locale, allowed_locales } = portalLocales(portal);
  const locale = input.locale ?? (input.category_id ? category?.locale : undefined) ?? self?.locale ?? default_locale;
  if (!allowed_locales.includes(locale)) {
    errors.push({ field: "locale", message: `must be one of the portal's locales (${allowed_locales.join(", ")})`, code: "not_allowed" });
  } else if (category && category.locale !== locale) {
    errors.push({ field: "locale", message: `must be the locale of the article's category (${category.locale})`, code: "category_locale_mismatch" });
  }

  if (authorId !== null && authorRows.length === 0) {
    errors.push({ field: "author_id", message: `user ${authorId} is not a member of this account`, code: "not_a_member" });
  }

  let root: number | null | undefined;
  if (input.associated_article_id === null) root = null;
  else if (input.associated_article_id !== undefined) {
    const target = associatedRows[0];
    if (input.associated_article_id === selfId) {
      errors.push({ field: "associated_article_id", message: "cannot be the article itself", code: "invalid" });
    } else if (!target) {
      const message = `article ${input.associated_article_id} is not an article of this portal`;
      errors.push({ field: "associated_article_id", message, code: "not_found" });
    } else {
      // joining a member of its own group leaves the article where it is: the root of that group
      root = rootOf(target) === selfId ? null : rootOf(target);
    }
  }
  if (errors.length > 0) throw invalid(errors);
  return { portal, self, slug: finalSlug, locale, authorId, root };
}

const articleColumns = (input: ArticleInput) => ({
  title: input.title,
  content: input.content,
  description: input.description,
  categoryId: input.category_id,
  position: input.position ?? undefined,
  status: input.status,
  meta: input.meta,
});

export async function createArticle(scope: AccountScope, slug: string, input: ArticleCreateInput): Promise<ArticleRecord> {
  const checked = await checkArticleInput(scope, slug, input, null);
  const db = scope.db;
  const at = now();
  const created = eq(articles.id, lastInsertedId(articles));
  // after the last article of its category (or of the uncategorised ones) unless a position is given
  const nextPosition = sql<number>`(SELECT coalesce(max(${articles.position}), 0) + 1 FROM ${articles}
    WHERE ${articles.accountId} = ${scope.accountId} AND ${articles.portalId} = ${checked.portal.id} AND ${articles.categoryId} IS ${input.category_id ?? null})`;
  const insert = db.insert(articles).values({
    ...articleColumns(input),
    title: input.title,
    content: input.content,
    slug: checked.slug as string,
    position: input.position ?? nextPosition,
    accountId: scope.accountId,
    portalId: checked.portal.id,
    authorId: checked.authorId,
    associatedArticleId: checked.root ?? null,
    locale: checked.locale,
    meta: input.meta ?? {},
    createdAt: at,
    updatedAt: at,
  });
  const [rows, categoryRows, authorRows, groupRows] = await writeThenRead(
    db,
    [insert, ...reindexArticles(db, created)],
    [db.select().from(articles).where(created), ...relationQueries(db, scope.accountId, created)],
  );
  return toArticleRecords(rows, categoryRows, authorRows, groupRows)[0];
}

export async function updateArticle(scope: AccountScope, slug: string, id: number, input: ArticleInput): Promise<ArticleRecord> {
  const checked = await checkArticleInput(scope, slug, input, id);
  const db = scope.db;
  const self = checked.self as ArticleRow;
  const newRoot = checked.root;
  const writes = [
    db
      .update(articles)
      .set({
        ...articleColumns(input),
        slug: checked.slug,
        locale: checked.locale,
        authorId: input.author_id,
        associatedArticleId: newRoot,
        updatedAt: now(),
      })
      .where(and(eq(articles.accountId, scope.accountId), eq(articles.id, id))),
    // a root that joins another group brings its members along
    db
      .update(articles)
      .set({ associatedArticleId: newRoot ?? null })
      .where(and(eq(articles.accountId, scope.accountId), eq(articles.associatedArticleId, id), eq(articles.portalId, self.portalId), newRoot ? undefined : sql`0`)),
    ...reindexArticles(db, eq(articles.id, id)),
  ];
  const [rows, categoryRows, authorRows, groupRows] = await writeThenRead(db, writes, articleRecordQueries(scope, slug, id));
  return toArticleRecords(rows, categoryRows, authorRows, groupRows)[0];
}

/**
 * Deletes the article and its search row. If it was the root of a group, the remaining members stay
 * linked around the oldest of them. One batch; the article's own delete tells whether it existed.
 */
export async function deleteArticle(scope: AccountScope, slug: string, id: number) {
  const db = scope.db;
  const target = articleWhere(scope, slug, id);
  const successor = sql`(SELECT min(${articles.id}) FROM ${articles} WHERE ${articles.associatedArticleId} = ${id} AND ${articles.accountId} = ${scope.accountId})`;
  const members = and(eq(articles.associatedArticleId, id), eq(articles.accountId, scope.accountId), inPortal(portalIdQuery(scope, slug)));
  const { deleted } = await batchNamed(db, {
    unindexed: unindexArticles(db, target),
    deleted: db.delete(articles).where(target).returning({ id: articles.id }),
    // the oldest member becomes the root: the others point to it (it keeps pointing to the deleted
    // article until the next statement, so `successor` stays the same row throughout), then it is freed
    regrouped: db.update(articles).set({ associatedArticleId: successor }).where(and(members, ne(articles.id, successor))),
    rootFreed: db.update(articles).set({ associatedArticleId: null }).where(members),
  });
  if (deleted.length === 0) throw notFound("Article", id);
}

/**
 * Sets the positions of articles of this portal: `positions` maps article ids to positions. Ids of
 * other portals are refused (422 naming them) and nothing moves. Positions are not an edit of the
 * article, so `updated_at` stays.
 */
export async function reorderArticles(scope: AccountScope, slug: string, positions: Record<string, number>) {
  const db = scope.db;
  const ids = Object.keys(positions).map(Number);
  const idList = JSON.stringify(ids);
  const inList = sql`${articles.id} IN (SELECT value FROM json_each(${idList}))`;
  const [portalRows, found] = await batch(db, [
    portalQuery(scope, slug),
    db.select({ id: articles.id }).from(articles).where(and(inList, eq(articles.accountId, scope.accountId), inPortal(portalIdQuery(scope, slug)))),
  ]);
  const portal = requirePortal(portalRows, slug);
  const known = new Set(found.map((r) => r.id));
  const unknown = ids.filter((articleId) => !known.has(articleId));
  if (unknown.length > 0) {
    throw invalid(
      unknown.map((articleId) => ({
        field: `positions_hash.${articleId}`,
        message: `article ${articleId} is not an article of this portal`,
        code: "not_found",
      })),
    );
  }
  const map = JSON.stringify(positions);
  await write(db, [
    db
      .update(articles)
      .set({ position: sql`(SELECT value FROM json_each(${map}) WHERE key = CAST(${articles.id} AS TEXT))` })
      .where(and(eq(articles.accountId, scope.accountId), inList, eq(articles.portalId, portal.id))),
  ]);
}

