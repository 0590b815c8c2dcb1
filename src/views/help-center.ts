/**
 * Help-center records as JSON: portals, categories and articles (Chatwoot's shapes, §6.17, plus the
 * specification's Article fields), and the smaller public shapes readers see without a key.
 *
 * Text is returned exactly as stored. The service renders nothing as HTML except the search snippet,
 * which is built here by escaping the article text and adding only <mark> around the matches.
 */
import { MATCH_END, MATCH_START } from "../domain/help-center/article-search";
import type { ArticleRecord, ArticleTally, CategorySummary } from "../domain/help-center/articles";
import type { CategoryRecord } from "../domain/help-center/categories";
import type { ArticleRow, CategoryRow, PortalRow } from "../domain/help-center/rows";
import { ARTICLE_STATUSES, enumName, enumValue } from "../domain/kernel/enums";
import { type PortalRecord, portalLocales } from "../domain/help-center/portals";
import { agentView } from "./agents";
import { unixSeconds } from "./time";

// ---------------------------------------------------------------- portals

const sum = <T>(rows: T[], value: (row: T) => number) => rows.reduce((total, row) => total + value(row), 0);

/** Articles of one status in a list of tallies. */
const statusCount = (tallies: Array<{ status: number; count: number }>, name: (typeof ARTICLE_STATUSES)[number]) =>
  sum(tallies.filter((t) => t.status === enumValue(ARTICLE_STATUSES, name)), (t) => t.count);

/** What everyone may see of a portal, the public help center included. */
const portalPublicFields = (portal: PortalRow) => ({
  id: portal.id,
  name: portal.name,
  slug: portal.slug,
  color: portal.color,
  custom_domain: portal.customDomain,
  header_text: portal.headerText,
  homepage_link: portal.homepageLink,
  page_title: portal.pageTitle,
});

export function portalView({ portal, articleTallies, categoryTallies }: PortalRecord) {
  const locales = portalLocales(portal);
  return {
    ...portalPublicFields(portal),
    account_id: portal.accountId,
    archived: portal.archived,
    inbox_id: portal.inboxId,
    config: {
      default_locale: locales.default_locale,
      allowed_locales: locales.allowed_locales.map((code) => ({
        code,
        articles_count: sum(articleTallies.filter((t) => t.locale === code), (t) => t.count),
        categories_count: sum(categoryTallies.filter((t) => t.locale === code), (t) => t.count),
      })),
    },
    meta: {
      all_articles_count: sum(articleTallies, (t) => t.count),
      archived_articles_count: statusCount(articleTallies, "archived"),
      published_count: statusCount(articleTallies, "published"),
      draft_articles_count: statusCount(articleTallies, "draft"),
      mine_articles_count: sum(articleTallies, (t) => t.mine),
      categories_count: sum(categoryTallies, (t) => t.count),
      default_locale: locales.default_locale,
    },
    created_at: unixSeconds(portal.createdAt),
    updated_at: unixSeconds(portal.updatedAt),
  };
}

export function publicPortalView(portal: PortalRow) {
  const locales = portalLocales(portal);
  return {
    ...portalPublicFields(portal),
    config: { default_locale: locales.default_locale, allowed_locales: locales.allowed_locales },
  };
}

// ---------------------------------------------------------------- categories

const categorySummary = (c: CategoryRow) => ({
  id: c.id,
  name: c.name,
  slug: c.slug,
  locale: c.locale,
  description: c.description,
  position: c.position,
  account_id: c.accountId,
});

export function categoryView({ category, parent, associated, articlesCount }: CategoryRecord) {
  return {
    ...categorySummary(category),
    icon: category.icon,
    portal_id: category.portalId,
    parent_category_id: category.parentCategoryId,
    associated_category_id: category.associatedCategoryId,
    // Chatwoot's related categories have no storage here yet: always empty
    related_categories: [],
    ...(parent && { parent_category: categorySummary(parent) }),
    ...(associated && { root_category: categorySummary(associated) }),
    meta: { articles_count: articlesCount },
  };
}

/** A category on the public help center; `articles_count` counts published articles only. */
export function publicCategoryView({ category, articlesCount }: CategoryRecord) {
  return {
    id: category.id,
    name: category.name,
    slug: category.slug,
    locale: category.locale,
    description: category.description,
    position: category.position,
    icon: category.icon,
    parent_category_id: category.parentCategoryId,
    meta: { articles_count: articlesCount },
  };
}

// ---------------------------------------------------------------- articles

const metaView = (meta: Record<string, unknown>) => ({
  title: meta.title ?? null,
  description: meta.description ?? null,
  tags: Array.isArray(meta.tags) ? meta.tags : [],
});

const categoryRef = (c: CategorySummary | null) => ({ id: c?.id ?? null, name: c?.name ?? null, slug: c?.slug ?? null, locale: c?.locale ?? null });

export const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** The search excerpt as safe HTML: the text escaped, the matched terms in <mark>. */
export const snippetHtml = (raw: string) =>
  escapeHtml(raw).replaceAll(MATCH_START, "<mark>").replaceAll(MATCH_END, "</mark>");

/** The fields every article shape shares, associated articles included. */
const articleFields = (a: ArticleRow) => ({
  id: a.id,
  slug: a.slug,
  title: a.title,
  description: a.description,
  content: a.content,
  status: enumName(ARTICLE_STATUSES, a.status),
  position: a.position,
  locale: a.locale,
  views: a.views,
  account_id: a.accountId,
  portal_id: a.portalId,
  folder_id: a.folderId,
  category_id: a.categoryId,
  author_id: a.authorId,
  associated_article_id: a.associatedArticleId,
  created_at: unixSeconds(a.createdAt),
  updated_at: unixSeconds(a.updatedAt),
});

export function articleView(record: ArticleRecord) {
  const { article, category, author, associated, snippet } = record;
  return {
    ...articleFields(article),
    meta: metaView(article.meta),
    category: categoryRef(category),
    author: author ? agentView(author, article.accountId) : null,
    associated_articles: associated.map(articleFields),
    ...(snippet !== null && { snippet: snippetHtml(snippet) }),
  };
}

/** The list's meta: totals under the filters other than status and author, and the page's total. */
export function articleListMeta(tallies: ArticleTally[], page: number) {
  return {
    all_articles_count: sum(tallies, (t) => t.count),
    archived_articles_count: statusCount(tallies, "archived"),
    articles_count: sum(tallies, (t) => t.matching),
    current_page: page,
    draft_articles_count: statusCount(tallies, "draft"),
    mine_articles_count: sum(tallies, (t) => t.mine),
    published_count: statusCount(tallies, "published"),
  };
}

/** A published article for readers: no status, no account or author details beyond a name. */
export function publicArticleView({ article, category, author, snippet }: ArticleRecord) {
  return {
    id: article.id,
    slug: article.slug,
    title: article.title,
    description: article.description,
    content: article.content,
    locale: article.locale,
    position: article.position,
    views: article.views,
    meta: metaView(article.meta),
    category: category ? { id: category.id, name: category.name, slug: category.slug, locale: category.locale } : null,
    author: author ? { name: author.name, available_name: author.displayName || author.name, thumbnail: author.avatarUrl ?? "" } : null,
    created_at: unixSeconds(article.createdAt),
    updated_at: unixSeconds(article.updatedAt),
    ...(snippet !== null && { snippet: snippetHtml(snippet) }),
  };
}
