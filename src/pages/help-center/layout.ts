/**
 * The frame of every help-center page, on the page kit (../kit.ts): the portal's colour, header text
 * and locales, a search box, and the head a search engine and a link preview read (title, description,
 * canonical, Open Graph). Every text from the database goes in through `escapeHtml`; the only markup
 * from an author is an article's body, sanitized by ./markdown.ts before it gets here.
 */
import { portalLocales } from "../../domain/help-center/portals";
import type { PortalRow } from "../../domain/help-center/rows";
import { pagePolicy } from "../../http/secure";
import { escapeHtml } from "../../views/help-center";
import { layout } from "../kit";

/** No script at all, pictures and the search form on this origin only. */
export const SITE_POLICY = pagePolicy({ images: true, forms: true });

const DEFAULT_COLOR = "#1f93ff";

/** The portal's colour goes into CSS: only a hex colour does, anything else is the default. */
export const portalColor = (portal: PortalRow) => (portal.color && /^#[0-9a-f]{3,8}$/i.test(portal.color) ? portal.color : DEFAULT_COLOR);

/** Paths of the site, each part percent-encoded. */
export const sitePaths = {
  home: (slug: string, locale: string) => `/hc/${encodeURIComponent(slug)}/${encodeURIComponent(locale)}`,
  category: (slug: string, locale: string, category: string) => `${sitePaths.home(slug, locale)}/categories/${encodeURIComponent(category)}`,
  search: (slug: string, locale: string) => `${sitePaths.home(slug, locale)}/articles`,
  article: (slug: string, article: string) => `/hc/${encodeURIComponent(slug)}/articles/${encodeURIComponent(article)}`,
};

export type PageFrame = {
  portal: PortalRow;
  locale: string;
  /** the page's own title; the portal's page title follows it */
  title: string | null;
  description: string | null;
  /** absolute URL of the page */
  url: string;
  type?: "website" | "article";
  query?: string;
  /** the page's main content, already HTML */
  body: string;
};

export function renderPage(frame: PageFrame): string {
  const { portal, locale } = frame;
  const siteTitle = portal.pageTitle || portal.name;
  const title = frame.title ? `${frame.title} | ${siteTitle}` : siteTitle;
  const description = frame.description || portal.headerText || siteTitle;
  const color = portalColor(portal);
  const locales = portalLocales(portal).allowed_locales;
  const localeLinks =
    locales.length > 1
      ? `<nav class="locales" aria-label="Languages">${locales
          .map((l) => (l === locale ? `<strong>${escapeHtml(l)}</strong>` : `<a href="${escapeHtml(sitePaths.home(portal.slug, l))}" hreflang="${escapeHtml(l)}">${escapeHtml(l)}</a>`))
          .join(" ")}</nav>`
      : "";
  return layout({
    title,
    lang: locale,
    head: `<meta name="description" content="${escapeHtml(description)}">
<link rel="canonical" href="${escapeHtml(frame.url)}">
<meta property="og:type" content="${frame.type ?? "website"}">
<meta property="og:site_name" content="${escapeHtml(siteTitle)}">
<meta property="og:title" content="${escapeHtml(frame.title ?? siteTitle)}">
<meta property="og:description" content="${escapeHtml(description)}">
<meta property="og:url" content="${escapeHtml(frame.url)}">`,
    style: /* css */ `
  :root { --portal: ${color}; }
  body { line-height: 1.6; }
  header { background: var(--portal); color: #fff; padding: 1.5rem 1rem 2rem; }
  header a { color: #fff; }
  .wrap { max-width: 48rem; margin: 0 auto; }
  header .name { font-weight: 600; text-decoration: none; }
  header h1 { margin: .75rem 0 1rem; }
  .locales { float: right; }
  form.search { display: flex; gap: .5rem; }
  form.search input { flex: 1; padding: .5rem .75rem; border: 0; }
  form.search button { padding: .5rem 1rem; background: #fff; color: var(--portal); }
  main { padding: 1.5rem 1rem 3rem; }
  main a { color: var(--portal); }
  section.card { margin-bottom: 1rem; }
  ul.articles { padding-left: 1.1rem; }
  article img { max-width: 100%; }
  nav.crumbs { font-size: .9rem; margin-bottom: 1rem; }`,
    body: `<header>
  <div class="wrap">
    ${localeLinks}
    <a class="name" href="${escapeHtml(sitePaths.home(portal.slug, locale))}">${escapeHtml(portal.name)}</a>
    <h1>${escapeHtml(portal.headerText || siteTitle)}</h1>
    <form class="search" role="search" method="get" action="${escapeHtml(sitePaths.search(portal.slug, locale))}">
      <input type="search" name="query" value="${escapeHtml(frame.query ?? "")}" placeholder="Search for articles" aria-label="Search for articles" maxlength="200">
      <button type="submit">Search</button>
    </form>
  </div>
</header>
<main class="wrap">
${frame.body}
</main>`,
  });
}

/** The answer for an unknown portal, locale, category or article (or one that is not published). */
export const NOT_FOUND_PAGE = layout({
  title: "Page not found",
  head: '<meta name="robots" content="noindex">',
  bodyClass: "narrow",
  body: `<h1>Page not found</h1>
<p>This help-center page does not exist, or it is not published.</p>`,
});
