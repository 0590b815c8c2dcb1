/**
 * The help center as its readers see it, without a key: the published articles and the categories of
 * portals that are not archived and whose account is active. Drafts and archived articles never leave
 * these functions. Reading one article counts a view: the read hands it to the background, and the
 * queue consumer adds up a batch of views in one write (`addArticleViews`), so a popular article costs
 * no D1 write per reader. An article's `views` therefore trails its reads by a moment.
 */
import { type SQL, and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import type { TransportScope } from "../kernel/scope";
import { type ArticleFilters, type ArticleRecord, articlePageQueries, loadArticleRecords, relationQueries, toArticleRecords } from "./articles";
import { type CategoryPage, categoryPageQueries, toCategoryRecords } from "./categories";
import { portalLocales, requirePortal } from "./portals";
import type { CategoryRow, PortalRow } from "./rows";
import { batch } from "../kernel/batch";
import { ACCOUNT_STATUS, ARTICLE_STATUS } from "../kernel/enums";
import { notFound } from "../kernel/errors";

const { portals, accounts, articles, categories } = schema;

/**
 * The public side is read without a key, or (over MCP) in one account's scope: then only that account's
 * portals are found, so a tool never reads another tenant's help center however public it is.
 */
type ReaderScope = TransportScope & { accountId?: number };

function publicPortalWhere(scope: ReaderScope, slug: string) {
  const { db } = scope;
  const activeAccounts = db.select({ id: accounts.id }).from(accounts).where(eq(accounts.status, ACCOUNT_STATUS.active));
  const ownAccount = scope.accountId === undefined ? undefined : eq(portals.accountId, scope.accountId);
  return and(eq(portals.slug, slug), eq(portals.archived, false), inArray(portals.accountId, activeAccounts), ownAccount);
}

const publicPortalQuery = (scope: ReaderScope, slug: string) => scope.db.select().from(portals).where(publicPortalWhere(scope, slug));
const publicPortalId = (scope: ReaderScope, slug: string) => scope.db.select({ id: portals.id }).from(portals).where(publicPortalWhere(scope, slug));

export async function readPublicPortal(scope: ReaderScope, slug: string): Promise<PortalRow> {
  const { db } = scope;
  const [rows] = await batch(db, [publicPortalQuery(scope, slug)]);
  return requirePortal(rows, slug);
}

/** Categories of one locale (or all), each with the number of its published articles. */
export async function listPublicCategories(scope: TransportScope, slug: string, locale: string | undefined, page: number): Promise<CategoryPage> {
  const { db } = scope;
  const [portalRows, rows, totals, related, counts] = await batch(db, [
    publicPortalQuery(scope, slug),
    ...categoryPageQueries(db, publicPortalId(scope, slug), locale, page, true),
  ]);
  requirePortal(portalRows, slug);
  return { categories: toCategoryRecords(rows, related, counts), total: totals[0]?.count ?? 0 };
}

export type PublicArticlePage = { portal: PortalRow; articles: ArticleRecord[]; total: number };

/** Published articles, filtered and searched as the account's list is. */
export async function listPublicArticles(scope: ReaderScope, slug: string, filters: Omit<ArticleFilters, "status" | "authorId">): Promise<PublicArticlePage> {
  const { db } = scope;
  const [portalRows, rows, tallies] = await batch(db, [
    publicPortalQuery(scope, slug),
    ...articlePageQueries(db, publicPortalId(scope, slug), { ...filters, status: ARTICLE_STATUS.published }, null),
  ]);
  const portal = requirePortal(portalRows, slug);
  const total = tallies.reduce((sum, t) => sum + t.matching, 0);
  return { portal, articles: await loadArticleRecords(db, portal.accountId, rows), total };
}

/** One published article by slug; the read counts a view, through the background (see above). */
export async function readPublicArticle(scope: ReaderScope, slug: string, articleSlug: string): Promise<ArticleRecord & { portal: PortalRow }> {
  const { db } = scope;
  const portal = await readPublicPortal(scope, slug);
  const selected = and(eq(articles.portalId, portal.id), eq(articles.slug, articleSlug), eq(articles.status, ARTICLE_STATUS.published)) as SQL;
  const [rows, categoryRows, authorRows, groupRows] = await batch(db, [db.select().from(articles).where(selected), ...relationQueries(db, portal.accountId, selected)]);
  if (!rows[0]) throw notFound("Article", articleSlug, "article_slug");
  await scope.ports.work.articleViewed(portal.accountId, rows[0].id);
  return { ...toArticleRecords(rows, categoryRows, authorRows, groupRows)[0], portal };
}

/**
 * Adds up views the queue carried (one id per view) in one batch: one statement per article, however
 * many readers it had. A view of an article deleted meanwhile changes nothing.
 */
export async function addArticleViews(scope: TransportScope, views: Array<{ accountId: number; articleId: number }>) {
  const { db } = scope;
  const counts = new Map<string, { accountId: number; articleId: number; n: number }>();
  for (const { accountId, articleId } of views) {
    const key = `${accountId}:${articleId}`;
    counts.set(key, { accountId, articleId, n: (counts.get(key)?.n ?? 0) + 1 });
  }
  const updates = [...counts.values()].map(({ accountId, articleId, n }) =>
    db.update(articles).set({ views: sql`${articles.views} + ${n}` }).where(and(eq(articles.accountId, accountId), eq(articles.id, articleId))),
  );
  if (updates.length > 0) await batch(db, updates);
}

// ---------------------------------------------------------------- the help-center site's pages

/** What a list of links to articles shows: no body. */
const linkColumns = {
  id: articles.id,
  slug: articles.slug,
  title: articles.title,
  description: articles.description,
  categoryId: articles.categoryId,
  updatedAt: articles.updatedAt,
};
export type PublicArticleLink = { id: number; slug: string; title: string; description: string | null; categoryId: number | null; updatedAt: number };

/** Most articles one page links to: a portal home lists every category's articles. */
export const SITE_PAGE_ARTICLES = 1000;
/** How many of the most read articles a portal home shows. */
export const POPULAR_ARTICLES = 6;
/** A sitemap file holds at most 50,000 addresses. */
export const SITEMAP_ARTICLES = 50_000;

const publishedIn = (scope: ReaderScope, slug: string, locale?: string) =>
  and(inArray(articles.portalId, publicPortalId(scope, slug)), eq(articles.status, ARTICLE_STATUS.published), locale ? eq(articles.locale, locale) : undefined);

/** An unknown locale is as unknown as an unknown portal. */
function requireLocale(portal: PortalRow, locale: string) {
  if (!portalLocales(portal).allowed_locales.includes(locale)) throw notFound("Locale", locale, "locale");
}

export type PublicPortalHome = { portal: PortalRow; categories: CategoryRow[]; articles: PublicArticleLink[]; popular: PublicArticleLink[] };

/** A portal's home in one locale: its categories, their published articles in order, and the most read ones. */
export async function readPublicPortalHome(scope: TransportScope, slug: string, locale: string): Promise<PublicPortalHome> {
  const { db } = scope;
  const where = publishedIn(scope, slug, locale);
  const [portalRows, categoryRows, articleRows, popular] = await batch(db, [
    publicPortalQuery(scope, slug),
    db
      .select()
      .from(categories)
      .where(and(inArray(categories.portalId, publicPortalId(scope, slug)), eq(categories.locale, locale)))
      .orderBy(asc(categories.position), asc(categories.id)),
    db.select(linkColumns).from(articles).where(where).orderBy(asc(articles.position), asc(articles.id)).limit(SITE_PAGE_ARTICLES),
    db.select(linkColumns).from(articles).where(where).orderBy(desc(articles.views), desc(articles.updatedAt)).limit(POPULAR_ARTICLES),
  ]);
  const portal = requirePortal(portalRows, slug);
  requireLocale(portal, locale);
  return { portal, categories: categoryRows, articles: articleRows, popular };
}

export type PublicCategoryPage = { portal: PortalRow; category: CategoryRow; articles: PublicArticleLink[] };

/** One category of a locale with its published articles in order. */
export async function readPublicCategory(scope: TransportScope, slug: string, locale: string, categorySlug: string): Promise<PublicCategoryPage> {
  const { db } = scope;
  const category = and(inArray(categories.portalId, publicPortalId(scope, slug)), eq(categories.locale, locale), eq(categories.slug, categorySlug));
  const [portalRows, categoryRows, articleRows] = await batch(db, [
    publicPortalQuery(scope, slug),
    db.select().from(categories).where(category),
    db
      .select(linkColumns)
      .from(articles)
      .where(and(publishedIn(scope, slug, locale), inArray(articles.categoryId, db.select({ id: categories.id }).from(categories).where(category))))
      .orderBy(asc(articles.position), asc(articles.id))
      .limit(SITE_PAGE_ARTICLES),
  ]);
  const portal = requirePortal(portalRows, slug);
  requireLocale(portal, locale);
  if (!categoryRows[0]) throw notFound("Category", categorySlug, "category_slug");
  return { portal, category: categoryRows[0], articles: articleRows };
}

/** Every published article's address and date, for the portal's sitemap. */
export async function listPublicSitemap(scope: TransportScope, slug: string) {
  const { db } = scope;
  const [portalRows, rows] = await batch(db, [
    publicPortalQuery(scope, slug),
    db
      .select({ slug: articles.slug, updatedAt: articles.updatedAt })
      .from(articles)
      .where(publishedIn(scope, slug))
      .orderBy(asc(articles.id))
      .limit(SITEMAP_ARTICLES),
  ]);
  return { portal: requirePortal(portalRows, slug), articles: rows };
}

/** A portal's locale must be one of its own (the search page checks it as the others do). */
export function checkPublicLocale(portal: PortalRow, locale: string) {
  requireLocale(portal, locale);
}
