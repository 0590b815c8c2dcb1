/**
 * /hc/{portal_slug}: the public help-center site as HTML pages, at Chatwoot's paths (config/routes.rb
 * `hc/:slug`): the portal home per locale, a category, an article, the search results and the sitemap.
 * Only published articles of portals that are not archived exist here (src/domain/help-center/public.ts);
 * anything else is the 404 page. Pages carry no script (SITE_POLICY) and may be cached for five minutes.
 */
import { type Context, Hono } from "hono";
import {
  type PublicArticleLink,
  checkPublicLocale,
  listPublicArticles,
  listPublicSitemap,
  readPublicArticle,
  readPublicCategory,
  readPublicPortal,
  readPublicPortalHome,
} from "../../domain/help-center/public";
import { ARTICLES_PER_PAGE } from "../../domain/help-center/articles";
import { portalLocales } from "../../domain/help-center/portals";
import { DomainError } from "../../domain/kernel/errors";
import type { AppEnv } from "../../http/app-env";
import { undocumented } from "../../http/openapi";
import { rateLimited } from "../../http/rate-limit";
import { shardOfPublicKey } from "../../http/public-route";
import { publicScope } from "../../http/scopes";
import { escapeHtml, snippetHtml } from "../../views/help-center";
import { NOT_FOUND_PAGE, SITE_POLICY, renderPage, sitePaths } from "./layout";
import { renderArticleMarkdown } from "./markdown";

type SiteContext = Context<AppEnv>;

export const SITE_CACHE = "public, max-age=300";
/** A search is as long as a person types; longer input is cut, not refused. */
const MAX_QUERY = 200;
/** Slugs and locales are short; a longer path segment names nothing. */
const MAX_SEGMENT = 255;

/** A path parameter of the page's route (every route here names the ones it reads). */
const param = (c: SiteContext, name: string) => c.req.param(name) ?? "";

/**
 * An absolute link of the site, at the service's configured address (FILES_BASE_URL), never the
 * request's Host: the pages and the sitemap are cached publicly, so a link built from a forged Host
 * would be served to every reader after it.
 */
const absolute = (c: SiteContext, path: string) => new URL(path, c.env.FILES_BASE_URL).href;

/**
 * Runs a page: an unknown portal, locale, category or article (the domain's not_found) is the 404 page,
 * as is a path segment too long to name anything. Other errors go to the app's error handler.
 */
const notFoundPage = (c: SiteContext) => c.html(NOT_FOUND_PAGE, 404, { "Content-Security-Policy": SITE_POLICY, "Cache-Control": "no-cache" });

const sitePage = (render: (c: SiteContext) => Promise<Response>) => async (c: SiteContext) => {
  const notFound = () => notFoundPage(c);
  if (Object.values(c.req.param()).some((segment) => segment.length > MAX_SEGMENT)) return notFound();
  try {
    return await render(c);
  } catch (error) {
    if (error instanceof DomainError && error.code === "not_found") return notFound();
    throw error;
  }
};

const htmlPage = (c: SiteContext, body: string) => c.html(body, 200, { "Content-Security-Policy": SITE_POLICY, "Cache-Control": SITE_CACHE });

const articleList = (slug: string, links: PublicArticleLink[]) =>
  `<ul class="articles">${links.map((a) => `<li><a href="${escapeHtml(sitePaths.article(slug, a.slug))}">${escapeHtml(a.title)}</a></li>`).join("")}</ul>`;

const xmlEscape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

export const helpCenterSite = new Hono<AppEnv>()
  // readers count against the public API's limit, per client address and portal, as the JSON API's do
  .use("/:portal_slug", rateLimited("public_api"), shardOfPublicKey("portal", "portal_slug"))
  .use("/:portal_slug/*", rateLimited("public_api"), shardOfPublicKey("portal", "portal_slug"))
  .get("/:portal_slug", undocumented("the help-center site's address: sends a reader to the portal's default locale"), sitePage(async (c) => {
    const portal = await readPublicPortal(publicScope(c), param(c, "portal_slug"));
    return c.redirect(sitePaths.home(portal.slug, portalLocales(portal).default_locale), 302);
  }))
  .get("/:portal_slug/sitemap.xml", undocumented("the help-center site's sitemap, for search engines"), sitePage(async (c) => {
    const { portal, articles } = await listPublicSitemap(publicScope(c), param(c, "portal_slug"));
    const entry = (path: string, updatedAt?: number) =>
      `<url><loc>${xmlEscape(absolute(c, path))}</loc>${updatedAt ? `<lastmod>${new Date(updatedAt).toISOString()}</lastmod>` : ""}</url>`;
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${[...portalLocales(portal).allowed_locales.map((l) => entry(sitePaths.home(portal.slug, l))), ...articles.map((a) => entry(sitePaths.article(portal.slug, a.slug), a.updatedAt))].join("\n")}
</urlset>
`;
    return c.body(xml, 200, { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": SITE_CACHE });
  }))
  .get("/:portal_slug/articles/:article_slug", undocumented("a help-center article page for readers; the JSON is /public/api/v1/portals"), sitePage(async (c) => {
    const { portal, article, category } = await readPublicArticle(publicScope(c), param(c, "portal_slug"), param(c, "article_slug"));
    const locale = article.locale;
    const crumbs = [`<a href="${escapeHtml(sitePaths.home(portal.slug, locale))}">Home</a>`];
    if (category) crumbs.push(`<a href="${escapeHtml(sitePaths.category(portal.slug, category.locale, category.slug))}">${escapeHtml(category.name)}</a>`);
    const body = `<nav class="crumbs">${crumbs.join(" › ")}</nav>
<section class="card"><article>
<h1>${escapeHtml(article.title)}</h1>
${article.description ? `<p class="muted">${escapeHtml(article.description)}</p>` : ""}
<div class="content">${renderArticleMarkdown(article.content)}</div>
</article></section>`;
    return htmlPage(c, renderPage({ portal, locale, title: article.title, description: article.description, url: absolute(c, sitePaths.article(portal.slug, article.slug)), type: "article", body }));
  }))
  .get("/:portal_slug/:locale", undocumented("a help-center portal's home page for readers"), sitePage(async (c) => {
    const { portal, categories, articles, popular } = await readPublicPortalHome(publicScope(c), param(c, "portal_slug"), param(c, "locale"));
    const locale = param(c, "locale");
    const sections = categories
      .map((category) => {
        const links = articles.filter((a) => a.categoryId === category.id);
        return `<section class="card category">
<h2><a href="${escapeHtml(sitePaths.category(portal.slug, locale, category.slug))}">${escapeHtml(category.name)}</a></h2>
${category.description ? `<p class="muted">${escapeHtml(category.description)}</p>` : ""}
${links.length > 0 ? articleList(portal.slug, links) : `<p class="muted">No articles yet.</p>`}
</section>`;
      })
      .join("\n");
    const popularSection = popular.length > 0 ? `<section class="card popular"><h2>Popular articles</h2>${articleList(portal.slug, popular)}</section>` : "";
    const empty = categories.length === 0 && popular.length === 0 ? `<p class="muted">Nothing is published here yet.</p>` : "";
    const body = `${popularSection}\n${sections}${empty}`;
    return htmlPage(c, renderPage({ portal, locale, title: null, description: portal.headerText, url: absolute(c, sitePaths.home(portal.slug, locale)), body }));
  }))
  .get("/:portal_slug/:locale/articles", undocumented("the help-center site's search results for readers"), sitePage(async (c) => {
    const locale = param(c, "locale");
    const query = (c.req.query("query") ?? "").slice(0, MAX_QUERY);
    const wantedPage = Number.parseInt(c.req.query("page") ?? "1", 10);
    const page = Number.isSafeInteger(wantedPage) && wantedPage >= 1 && wantedPage <= 1000 ? wantedPage : 1;
    const result = await listPublicArticles(publicScope(c), param(c, "portal_slug"), { page, locale, query: query || undefined });
    const { portal } = result;
    checkPublicLocale(portal, locale);
    const searchPath = sitePaths.search(portal.slug, locale);
    const items = result.articles
      .map(({ article, snippet }) => `<li><a href="${escapeHtml(sitePaths.article(portal.slug, article.slug))}">${escapeHtml(article.title)}</a>${snippet ? `<div class="muted snippet">${snippetHtml(snippet)}</div>` : article.description ? `<div class="muted">${escapeHtml(article.description)}</div>` : ""}</li>`)
      .join("");
    const next = page * ARTICLES_PER_PAGE < result.total ? `<p><a rel="next" href="${escapeHtml(`${searchPath}?${new URLSearchParams({ query, page: String(page + 1) })}`)}">More results</a></p>` : "";
    const heading = query ? `Results for “${escapeHtml(query)}”` : "All articles";
    const body = `<section class="card results">
<h2>${heading}</h2>
<p class="muted">${result.total} ${result.total === 1 ? "article" : "articles"}</p>
${items ? `<ul class="articles">${items}</ul>` : `<p>No article matches your search.</p>`}
${next}
</section>`;
    const url = absolute(c, query ? `${searchPath}?${new URLSearchParams({ query })}` : searchPath);
    return htmlPage(c, renderPage({ portal, locale, title: query ? `Search: ${query}` : "All articles", description: null, url, query, body }));
  }))
  .get("/:portal_slug/:locale/categories/:category_slug", undocumented("a help-center category page for readers"), sitePage(async (c) => {
    const locale = param(c, "locale");
    const { portal, category, articles } = await readPublicCategory(publicScope(c), param(c, "portal_slug"), locale, param(c, "category_slug"));
    const body = `<nav class="crumbs"><a href="${escapeHtml(sitePaths.home(portal.slug, locale))}">Home</a> › ${escapeHtml(category.name)}</nav>
<section class="card category">
<h2>${escapeHtml(category.name)}</h2>
${category.description ? `<p class="muted">${escapeHtml(category.description)}</p>` : ""}
${articles.length > 0 ? articleList(portal.slug, articles) : `<p class="muted">No articles yet.</p>`}
</section>`;
    return htmlPage(c, renderPage({ portal, locale, title: category.name, description: category.description, url: absolute(c, sitePaths.category(portal.slug, locale, category.slug)), body }));
  }))
  // any other path under /hc is a page nobody can find, answered as one (not the API's JSON 404)
  .all("/*", (c) => notFoundPage(c));
