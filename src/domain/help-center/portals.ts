/**
 * Help-center portals, addressed by slug. A slug and a custom domain are unique across the installation
 * (public routes and custom domains reach a portal without naming its account).
 *
 * Article and category totals are counted, not kept as counters: they are grouped within one portal (or
 * the account's few portals) through the indexes that lead with portal_id, so the cost grows with the
 * portal, not with the installation, and no counter has to follow every status change.
 */
import { type SQLWrapper, and, eq, inArray, ne, sql } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { batch, writeThenRead } from "../kernel/batch";
import { actorUserId } from "../people/agents";
import { type PublicRouteClaim, claimPublicRoutes, releasePublicRoutes } from "../identity/public-routes";
import { unindexArticles } from "./article-search";
import { type AccountScope } from "../kernel/scope";
import { type ErrorEntry, invalid, invalidField, notFound } from "../kernel/errors";
import type { PortalRow } from "./rows";

const { portals, categories, articles, inboxes } = schema;

/** A portal's fields as the API sends them, checked and normalised by src/schemas/help-center.ts. */
export type PortalCreateInput = {
  name: string;
  slug: string;
  custom_domain?: string | null;
  color?: string | null;
  header_text?: string | null;
  homepage_link?: string | null;
  page_title?: string | null;
  archived?: boolean;
  config?: { default_locale?: string; allowed_locales?: string[] };
  inbox_id?: number | null;
};
export type PortalInput = Partial<PortalCreateInput>;
export type PortalLocales = { default_locale: string; allowed_locales: string[] };

/** Articles of one portal, locale and status; `mine` of them written by the caller. */
export type ArticleTally = { portalId: number; locale: string; status: number; count: number; mine: number };
export type CategoryTally = { portalId: number; locale: string; count: number };
export type PortalRecord = { portal: PortalRow; articleTallies: ArticleTally[]; categoryTallies: CategoryTally[] };

/** The portal's locales; a portal created without a config has Chatwoot's default, English only. */
export function portalLocales(portal: Pick<PortalRow, "config">): PortalLocales {
  const { default_locale, allowed_locales } = portal.config as Partial<PortalLocales>;
  const allowed = Array.isArray(allowed_locales) && allowed_locales.length > 0 ? allowed_locales : ["en"];
  return { default_locale: typeof default_locale === "string" ? default_locale : allowed[0], allowed_locales: allowed };
}

/** The portal `slug` of the scope's account. */
export const portalQuery = (scope: AccountScope, slug: string) =>
  scope.db.select().from(portals).where(and(eq(portals.slug, slug), eq(portals.accountId, scope.accountId)));

/** Its id as a subquery, so that lookups below the portal go in the same read batch as the portal. */
export const portalIdQuery = (scope: AccountScope, slug: string) =>
  scope.db.select({ id: portals.id }).from(portals).where(and(eq(portals.slug, slug), eq(portals.accountId, scope.accountId)));

/** A portal's id, as a number or as a subquery that finds it in the same batch. */
export type PortalRef = number | SQLWrapper;
/** The ids `inArray` takes for a PortalRef. */
export const portalIds = (portal: PortalRef) => (typeof portal === "number" ? [portal] : portal);

export function requirePortal(rows: PortalRow[], slug: string): PortalRow {
  if (!rows[0]) throw notFound("Portal", slug, "portal_slug");
  return rows[0];
}

/** Articles of the portals `ids` picks, per portal, locale and status (grouped through portal_id's index). */
function articleTallies(scope: AccountScope, ids: SQLWrapper | number[], locale?: string) {
  return scope.db
    .select({
      portalId: articles.portalId,
      locale: articles.locale,
      status: articles.status,
      count: sql<number>`count(*)`,
      mine: sql<number>`coalesce(sum(${articles.authorId} = ${actorUserId(scope)}), 0)`,
    })
    .from(articles)
    .where(and(eq(articles.accountId, scope.accountId), inArray(articles.portalId, ids), locale ? eq(articles.locale, locale) : undefined))
    .groupBy(articles.portalId, articles.locale, articles.status);
}

function categoryTallies(scope: AccountScope, ids: SQLWrapper | number[]) {
  return scope.db
    .select({ portalId: categories.portalId, locale: categories.locale, count: sql<number>`count(*)` })
    .from(categories)
    .where(and(eq(categories.accountId, scope.accountId), inArray(categories.portalId, ids)))
    .groupBy(categories.portalId, categories.locale);
}

const accountPortalIds = (scope: AccountScope) =>
  scope.db.select({ id: portals.id }).from(portals).where(eq(portals.accountId, scope.accountId));

export async function listPortals(scope: AccountScope): Promise<PortalRecord[]> {
  const ids = accountPortalIds(scope);
  const [rows, articleRows, categoryRows] = await batch(scope.db, [
    scope.db.select().from(portals).where(eq(portals.accountId, scope.accountId)).orderBy(portals.id),
    articleTallies(scope, ids),
    categoryTallies(scope, ids),
  ]);
  return rows.map((portal) => ({
    portal,
    articleTallies: articleRows.filter((t) => t.portalId === portal.id),
    categoryTallies: categoryRows.filter((t) => t.portalId === portal.id),
  }));
}

/** One portal with its totals; `locale` narrows the article totals to one locale (as Chatwoot's show). */
export async function showPortal(scope: AccountScope, slug: string, locale?: string): Promise<PortalRecord> {
  const [rows, articleRows, categoryRows] = await batch(scope.db, [
    portalQuery(scope, slug),
    articleTallies(scope, portalIdQuery(scope, slug), locale),
    categoryTallies(scope, portalIdQuery(scope, slug)),
  ]);
  return { portal: requirePortal(rows, slug), articleTallies: articleRows, categoryTallies: categoryRows };
}

/**
 * The locales after a change: `allowed_locales` replaces the list, `default_locale` must be one of them
 * (without one, the current default stays when still allowed, else the first allowed locale).
 */
function resolveLocales(current: PortalLocales, change: PortalInput["config"]): PortalLocales {
  const allowed = [...new Set(change?.allowed_locales ?? current.allowed_locales)];
  const fallback = allowed.includes(current.default_locale) ? current.default_locale : allowed[0];
  const defaultLocale = change?.default_locale ?? fallback;
  if (!allowed.includes(defaultLocale)) {
    throw invalidField("config.default_locale", `must be one of the allowed locales (${allowed.join(", ")})`, "not_allowed");
  }
  return { default_locale: defaultLocale, allowed_locales: allowed };
}

/** Reads what the uniqueness and ownership rules need; `self` is the portal being changed, if any. */
async function checkPortalInput(scope: AccountScope, input: PortalInput, self?: { slug: string }) {
  const db = scope.db;
  const others = self ? ne(portals.slug, self.slug) : undefined;
  const [current, slugRows, domainRows, inboxRows] = await batch(db, [
    portalQuery(scope, self?.slug ?? ""), // no portal has an empty slug
    db.select({ id: portals.id }).from(portals).where(and(eq(portals.slug, input.slug ?? ""), others)),
    db.select({ id: portals.id }).from(portals).where(and(eq(portals.customDomain, input.custom_domain ?? ""), others)),
    db
      .select({ id: inboxes.id })
      .from(inboxes)
      .where(and(eq(inboxes.id, input.inbox_id ?? 0), eq(inboxes.accountId, scope.accountId))),
  ]);
  const portal = self ? requirePortal(current, self.slug) : null;
  const errors: ErrorEntry[] = [];
  if (slugRows.length > 0) errors.push({ field: "slug", message: "has already been taken", code: "taken" });
  if (domainRows.length > 0) errors.push({ field: "custom_domain", message: "has already been taken", code: "taken" });
  if (input.inbox_id && inboxRows.length === 0) {
    errors.push({ field: "inbox_id", message: `inbox ${input.inbox_id} is not an inbox of this account`, code: "not_found" });
  }
  if (errors.length > 0) throw invalid(errors);
  return portal;
}

/** Columns set from the input; `undefined` leaves a column as it is. */
const portalColumns = (input: PortalInput) => ({
  name: input.name,
  slug: input.slug,
  customDomain: input.custom_domain,
  color: input.color,
  headerText: input.header_text,
  homepageLink: input.homepage_link,
  pageTitle: input.page_title,
  archived: input.archived,
  inboxId: input.inbox_id,
});

/** The public keys of a portal: its slug, and its custom domain when it has one. */
function portalRoutes(portal: { slug?: string; custom_domain?: string | null }): PublicRouteClaim[] {
  return [
    ...(portal.slug ? [{ kind: "portal" as const, key: portal.slug, field: "slug" }] : []),
    ...(portal.custom_domain ? [{ kind: "portal_domain" as const, key: portal.custom_domain, field: "custom_domain" }] : []),
  ];
}

export async function createPortal(scope: AccountScope, input: PortalCreateInput): Promise<PortalRecord> {
  await checkPortalInput(scope, input);
  // unique across every account, whatever its shard: the directory holds the keys
  await claimPublicRoutes(scope, scope.accountId, portalRoutes(input));
  const config = resolveLocales(portalLocales({ config: {} }), input.config);
  const at = now();
  const [rows] = await batch(scope.db, [
    scope.db
      .insert(portals)
      .values({ ...portalColumns(input), name: input.name, slug: input.slug, accountId: scope.accountId, config, createdAt: at, updatedAt: at })
      .returning(),
  ]);
  return { portal: rows[0], articleTallies: [], categoryTallies: [] };
}

export async function updatePortal(scope: AccountScope, slug: string, input: PortalInput): Promise<PortalRecord> {
  const portal = (await checkPortalInput(scope, input, { slug })) as PortalRow;
  const before = portalRoutes({ slug: portal.slug, custom_domain: portal.customDomain });
  const after = portalRoutes({ slug: input.slug ?? portal.slug, custom_domain: input.custom_domain === undefined ? portal.customDomain : input.custom_domain });
  const sameRoute = (a: PublicRouteClaim) => (b: PublicRouteClaim) => a.kind === b.kind && a.key === b.key;
  await claimPublicRoutes(scope, scope.accountId, after.filter((route) => !before.some(sameRoute(route))));
  const config = input.config ? resolveLocales(portalLocales(portal), input.config) : undefined;
  const [rows, articleRows, categoryRows] = await batch(scope.db, [
    scope.db
      .update(portals)
      .set({ ...portalColumns(input), config, updatedAt: now() })
      .where(and(eq(portals.accountId, scope.accountId), eq(portals.id, portal.id)))
      .returning(),
    articleTallies(scope, [portal.id]),
    categoryTallies(scope, [portal.id]),
  ]);
  await releasePublicRoutes(scope, scope.accountId, before.filter((route) => !after.some(sameRoute(route))));
  return { portal: rows[0], articleTallies: articleRows, categoryTallies: categoryRows };
}

/**
 * Deletes the portal with its categories and articles (and their search rows); an inbox that offered
 * the portal no longer does. One batch: every statement finds the portal through the account and slug,
 * and the last one, the portal's own delete, tells whether there was a portal at all.
 */
export async function deletePortal(scope: AccountScope, slug: string) {
  const db = scope.db;
  const portalId = portalIdQuery(scope, slug);
  const [deleted] = await writeThenRead(
    db,
    [
      unindexArticles(db, and(eq(articles.accountId, scope.accountId), inArray(articles.portalId, portalId))),
      db.delete(articles).where(and(eq(articles.accountId, scope.accountId), inArray(articles.portalId, portalId))),
      db.delete(categories).where(and(eq(categories.accountId, scope.accountId), inArray(categories.portalId, portalId))),
      db.update(inboxes).set({ portalId: null }).where(and(eq(inboxes.accountId, scope.accountId), inArray(inboxes.portalId, portalId))),
    ],
    [db.delete(portals).where(and(eq(portals.slug, slug), eq(portals.accountId, scope.accountId))).returning({ id: portals.id, customDomain: portals.customDomain })],
  );
  if (deleted.length === 0) throw notFound("Portal", slug, "portal_slug");
  await releasePublicRoutes(scope, scope.accountId, portalRoutes({ slug, custom_domain: deleted[0].customDomain }));
}
