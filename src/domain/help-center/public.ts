/**
 * The help center as its readers see it, without a key: the published articles and the categories of
 * portals that are not archived and whose account is active. Drafts and archived articles never leave
 * these functions. Reading one article counts a view, in the batch that reads it.
 */
import { type SQL, and, eq, inArray, sql } from "drizzle-orm";
import { type Database, schema } from "../../db/client";
import type { TransportScope } from "../kernel/scope";
import { type ArticleFilters, type ArticleRecord, articlePageQueries, loadArticleRecords, relationQueries, toArticleRecords } from "./articles";
import { type CategoryPage, categoryPageQueries, toCategoryRecords } from "./categories";
import { requirePortal } from "./portals";
import type { PortalRow } from "./rows";
import { batch } from "../kernel/batch";
import { ACCOUNT_STATUS, ARTICLE_STATUS } from "../kernel/enums";
import { notFound } from "../kernel/errors";

const { portals, accounts, articles } = schema;

function publicPortalWhere(db: Database, slug: string) {
  const activeAccounts = db.select({ id: accounts.id }).from(accounts).where(eq(accounts.status, ACCOUNT_STATUS.active));
  return and(eq(portals.slug, slug), eq(portals.archived, false), inArray(portals.accountId, activeAccounts));
}

const publicPortalQuery = (db: Database, slug: string) => db.select().from(portals).where(publicPortalWhere(db, slug));
const publicPortalId = (db: Database, slug: string) => db.select({ id: portals.id }).from(portals).where(publicPortalWhere(db, slug));

export async function readPublicPortal(scope: TransportScope, slug: string): Promise<PortalRow> {
  const { db } = scope;
  const [rows] = await batch(db, [publicPortalQuery(db, slug)]);
  return requirePortal(rows, slug);
}

/** Categories of one locale (or all), each with the number of its published articles. */
export async function listPublicCategories(scope: TransportScope, slug: string, locale: string | undefined, page: number): Promise<CategoryPage> {
  const { db } = scope;
  const [portalRows, rows, totals, related, counts] = await batch(db, [
    publicPortalQuery(db, slug),
    ...categoryPageQueries(db, publicPortalId(db, slug), locale, page, true),
  ]);
  requirePortal(portalRows, slug);
  return { categories: toCategoryRecords(rows, related, counts), total: totals[0]?.count ?? 0 };
}

export type PublicArticlePage = { articles: ArticleRecord[]; total: number };

/** Published articles, filtered and searched as the account's list is. */
export async function listPublicArticles(scope: TransportScope, slug: string, filters: Omit<ArticleFilters, "status" | "authorId">): Promise<PublicArticlePage> {
  const { db } = scope;
  const [portalRows, rows, tallies] = await batch(db, [
    publicPortalQuery(db, slug),
    ...articlePageQueries(db, publicPortalId(db, slug), { ...filters, status: ARTICLE_STATUS.published }, null),
  ]);
  const portal = requirePortal(portalRows, slug);
  const total = tallies.reduce((sum, t) => sum + t.matching, 0);
  return { articles: await loadArticleRecords(db, portal.accountId, rows), total };
}

/** One published article by slug; the read counts a view (views = views + 1 in the batch that reads it). */
export async function readPublicArticle(scope: TransportScope, slug: string, articleSlug: string): Promise<ArticleRecord> {
  const { db } = scope;
  const portal = await readPublicPortal(scope, slug);
  const selected = and(eq(articles.portalId, portal.id), eq(articles.slug, articleSlug), eq(articles.status, ARTICLE_STATUS.published)) as SQL;
  const [rows, categoryRows, authorRows, groupRows] = await batch(db, [
    db.update(articles).set({ views: sql`${articles.views} + 1` }).where(selected).returning(),
    ...relationQueries(db, portal.accountId, selected),
  ]);
  if (!rows[0]) throw notFound("Article", articleSlug, "article_slug");
  return toArticleRecords(rows, categoryRows, authorRows, groupRows)[0];
}
