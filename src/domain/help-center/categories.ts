/**
 * Categories of a portal, one set per locale: the locale is one of the portal's allowed locales and a
 * slug is unique per (portal, locale). A parent or associated category (the same category in another
 * locale) must belong to the same portal.
 */
import { type SQL, and, asc, eq, inArray, isNotNull, ne, or, sql } from "drizzle-orm";
import { type Database, lastInsertedId, now, schema } from "../../db/client";
import { batch, write, writeThenRead } from "../kernel/batch";
import { ARTICLE_STATUS } from "../kernel/enums";
import { type PortalRef, portalIdQuery, portalIds, portalLocales, portalQuery, requirePortal } from "./portals";
import type { CategoryRow } from "./rows";
import { type AccountScope } from "../kernel/scope";
import { type ErrorEntry, invalid, notFound } from "../kernel/errors";

const { categories, articles } = schema;

/** A category's fields as the API sends them, checked and normalised by src/schemas/help-center.ts. */
export type CategoryCreateInput = {
  name: string;
  slug: string;
  locale?: string;
  description?: string | null;
  position?: number;
  icon?: string | null;
  parent_category_id?: number | null;
  associated_category_id?: number | null;
};
export type CategoryInput = Partial<CategoryCreateInput>;
/** A category with the categories it points to and the number of its articles. */
export type CategoryRecord = { category: CategoryRow; parent: CategoryRow | null; associated: CategoryRow | null; articlesCount: number };

/** Chatwoot's page size for categories: in practice every category of a locale on one page. */
export const CATEGORIES_PER_PAGE = 1000;

/** Articles per category of one portal; `publishedOnly` for the public help center. */
export function categoryArticleCounts(db: Database, portalId: PortalRef, publishedOnly = false) {
  return db
    .select({ categoryId: articles.categoryId, count: sql<number>`count(*)` })
    .from(articles)
    .where(and(inArray(articles.portalId, portalIds(portalId)), publishedOnly ? eq(articles.status, ARTICLE_STATUS.published) : undefined))
    .groupBy(articles.categoryId);
}

/** The parent and associated categories of the categories `where` selects. */
function referencedCategories(db: Database, where: SQL | undefined) {
  const ids = (column: typeof categories.parentCategoryId | typeof categories.associatedCategoryId) =>
    inArray(categories.id, db.select({ id: column }).from(categories).where(and(where, isNotNull(column))));
  return db.select().from(categories).where(or(ids(categories.parentCategoryId), ids(categories.associatedCategoryId)));
}

/** The page of categories of a portal (one locale, or all), its total, and what each record needs. */
export function categoryPageQueries(db: Database, portalId: PortalRef, locale: string | undefined, page: number, publishedOnly = false) {
  const inPortal = and(inArray(categories.portalId, portalIds(portalId)), locale ? eq(categories.locale, locale) : undefined);
  return [
    db
      .select()
      .from(categories)
      .where(inPortal)
      .orderBy(asc(categories.position), asc(categories.id))
      .limit(CATEGORIES_PER_PAGE)
      .offset((page - 1) * CATEGORIES_PER_PAGE),
    db.select({ count: sql<number>`count(*)` }).from(categories).where(inPortal),
    referencedCategories(db, inPortal),
    categoryArticleCounts(db, portalId, publishedOnly),
  ] as const;
}

/** Joins the rows of `categoryPageQueries` into records. */
export function toCategoryRecords(
  page: CategoryRow[],
  related: CategoryRow[],
  counts: Array<{ categoryId: number | null; count: number }>,
): CategoryRecord[] {
  const byId = new Map([...related, ...page].map((c) => [c.id, c]));
  const countOf = new Map(counts.map((c) => [c.categoryId, c.count]));
  return page.map((category) => ({
    category,
    parent: byId.get(category.parentCategoryId ?? 0) ?? null,
    associated: byId.get(category.associatedCategoryId ?? 0) ?? null,
    articlesCount: countOf.get(category.id) ?? 0,
  }));
}

export type CategoryPage = { categories: CategoryRecord[]; total: number };

export async function listCategories(scope: AccountScope, slug: string, locale: string | undefined, page: number): Promise<CategoryPage> {
  const [portalRows, rows, totals, related, counts] = await batch(scope.db, [
    portalQuery(scope, slug),
    ...categoryPageQueries(scope.db, portalIdQuery(scope, slug), locale, page),
  ]);
  requirePortal(portalRows, slug);
  return { categories: toCategoryRecords(rows, related, counts), total: totals[0]?.count ?? 0 };
}

/** Category `id` of portal `slug` in the scope's account. */
const categoryWhere = (scope: AccountScope, slug: string, id: number) =>
  and(eq(categories.id, id), eq(categories.accountId, scope.accountId), inArray(categories.portalId, portalIdQuery(scope, slug)));

function requireCategory(rows: CategoryRow[], id: number) {
  if (!rows[0]) throw notFound("Category", id);
  return rows[0];
}

/** The category as it is now, read in one batch with what its record needs. */
function categoryRecordQueries(scope: AccountScope, slug: string, id: number) {
  const db = scope.db;
  return [
    db.select().from(categories).where(categoryWhere(scope, slug, id)),
    referencedCategories(db, categoryWhere(scope, slug, id)),
    categoryArticleCounts(db, portalIdQuery(scope, slug)),
  ] as const;
}

export async function showCategory(scope: AccountScope, slug: string, id: number): Promise<CategoryRecord> {
  const [portalRows, rows, related, counts] = await batch(scope.db, [portalQuery(scope, slug), ...categoryRecordQueries(scope, slug, id)]);
  requirePortal(portalRows, slug);
  return toCategoryRecords([requireCategory(rows, id)], related, counts)[0];
}

/**
 * Checks a create or a change against the portal: locale allowed, (portal, locale, slug) free, parent
 * and associated categories in the same portal. Returns the portal and the final locale.
 */
async function checkCategoryInput(scope: AccountScope, slug: string, input: CategoryInput, selfId?: number) {
  const db = scope.db;
  const portalId = portalIdQuery(scope, slug);
  const inPortal = (id: number | null | undefined) =>
    db.select({ id: categories.id }).from(categories).where(categoryWhere(scope, slug, id ?? 0));
  // the slug after the change: a change of locale alone can clash too
  const finalSlug = input.slug ?? sql`(SELECT ${categories.slug} FROM ${categories} WHERE ${categories.id} = ${selfId ?? 0} AND ${categories.accountId} = ${scope.accountId})`;
  const [portalRows, selfRows, parentRows, associatedRows, clashRows] = await batch(db, [
    portalQuery(scope, slug),
    db.select().from(categories).where(categoryWhere(scope, slug, selfId ?? 0)),
    inPortal(input.parent_category_id),
    inPortal(input.associated_category_id),
    db
      .select({ locale: categories.locale })
      .from(categories)
      .where(and(inArray(categories.portalId, portalId), eq(categories.slug, finalSlug), ne(categories.id, selfId ?? 0))),
  ]);
  const portal = requirePortal(portalRows, slug);
  const self = selfId ? requireCategory(selfRows, selfId) : null;
  const { default_locale, allowed_locales } = portalLocales(portal);
  const locale = input.locale ?? self?.locale ?? default_locale;

  const errors: ErrorEntry[] = [];
  if (!allowed_locales.includes(locale)) {
    errors.push({ field: "locale", message: `must be one of the portal's locales (${allowed_locales.join(", ")})`, code: "not_allowed" });
  }
  if (clashRows.some((c) => c.locale === locale)) {
    errors.push({ field: "slug", message: `has already been taken in locale ${locale}`, code: "taken" });
  }
  for (const [field, id, rows] of [
    ["parent_category_id", input.parent_category_id, parentRows],
    ["associated_category_id", input.associated_category_id, associatedRows],
  ] as const) {
    if (!id) continue;
    if (id === selfId) errors.push({ field, message: "cannot be the category itself", code: "invalid" });
    else if (rows.length === 0) errors.push({ field, message: `category ${id} is not a category of this portal`, code: "not_found" });
  }
  if (errors.length > 0) throw invalid(errors);
  return { portal, locale };
}

const categoryColumns = (input: CategoryInput) => ({
  name: input.name,
  slug: input.slug,
  description: input.description,
  position: input.position,
  icon: input.icon,
  parentCategoryId: input.parent_category_id,
  associatedCategoryId: input.associated_category_id,
});

export async function createCategory(scope: AccountScope, slug: string, input: CategoryCreateInput): Promise<CategoryRecord> {
  const { portal, locale } = await checkCategoryInput(scope, slug, input);
  const at = now();
  const db = scope.db;
  const created = eq(categories.id, lastInsertedId(categories));
  const insert = db.insert(categories).values({
    ...categoryColumns(input),
    name: input.name,
    slug: input.slug,
    locale,
    accountId: scope.accountId,
    portalId: portal.id,
    createdAt: at,
    updatedAt: at,
  });
  const [rows, related] = await writeThenRead(db, [insert], [db.select().from(categories).where(created), referencedCategories(db, created)]);
  return toCategoryRecords(rows, related, [])[0];
}

export async function updateCategory(scope: AccountScope, slug: string, id: number, input: CategoryInput): Promise<CategoryRecord> {
  const { locale } = await checkCategoryInput(scope, slug, input, id);
  const db = scope.db;
  const update = db
    .update(categories)
    .set({ ...categoryColumns(input), locale, updatedAt: now() })
    .where(and(eq(categories.accountId, scope.accountId), eq(categories.id, id)));
  const [rows, related, counts] = await writeThenRead(db, [update], categoryRecordQueries(scope, slug, id));
  return toCategoryRecords(rows, related, counts)[0];
}

/**
 * Deletes the category. Its articles stay in the portal without a category, and categories that
 * pointed to it (as parent or as the same category in another locale) no longer do.
 */
export async function deleteCategory(scope: AccountScope, slug: string, id: number) {
  const db = scope.db;
  const target = db.select({ id: categories.id }).from(categories).where(categoryWhere(scope, slug, id));
  const at = now();
  const [deleted] = await writeThenRead(
    db,
    [
      db.update(articles).set({ categoryId: null, updatedAt: at }).where(and(eq(articles.accountId, scope.accountId), inArray(articles.categoryId, target))),
      db.update(categories).set({ parentCategoryId: null }).where(and(eq(categories.accountId, scope.accountId), inArray(categories.parentCategoryId, target))),
      db.update(categories).set({ associatedCategoryId: null }).where(and(eq(categories.accountId, scope.accountId), inArray(categories.associatedCategoryId, target))),
    ],
    [db.delete(categories).where(categoryWhere(scope, slug, id)).returning({ id: categories.id })],
  );
  if (deleted.length === 0) throw notFound("Category", id);
}

/**
 * Sets the positions of categories of this portal (Chatwoot's categories#reorder, as articles#reorder
 * does it): `positions` maps category ids to positions. Ids of other portals or accounts are refused (422
 * naming them) and nothing moves. Positions are not an edit of the category, so `updated_at` stays.
 */
export async function reorderCategories(scope: AccountScope, slug: string, positions: Record<string, number>) {
  const db = scope.db;
  const ids = Object.keys(positions).map(Number);
  const inList = sql`${categories.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
  const [portalRows, found] = await batch(db, [
    portalQuery(scope, slug),
    db.select({ id: categories.id }).from(categories).where(and(inList, eq(categories.accountId, scope.accountId), inArray(categories.portalId, portalIdQuery(scope, slug)))),
  ]);
  const portal = requirePortal(portalRows, slug);
  const known = new Set(found.map((r) => r.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw invalid(unknown.map((id) => ({ field: `positions_hash.${id}`, message: `category ${id} is not a category of this portal`, code: "not_found" })));
  }
  await write(db, [
    db
      .update(categories)
      .set({ position: sql`(SELECT value FROM json_each(${JSON.stringify(positions)}) WHERE key = CAST(${categories.id} AS TEXT))` })
      .where(and(eq(categories.accountId, scope.accountId), inList, eq(categories.portalId, portal.id))),
  ]);
}
