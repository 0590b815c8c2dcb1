/**
 * The page kit: the one skeleton of every HTML page the Worker renders itself (the home page, the demos,
 * the CSAT survey, the help-center site). It links the shared stylesheet, public/kit/page.css (colours,
 * type, light and dark), served from this origin as a static asset; a page brings only what is its own:
 * its title, extra head tags, its own styles, its body and its scripts. What a page may load is said by
 * its content security policy (`pagePolicy` in src/http/secure.ts), which lets every page load the
 * stylesheet from this origin and nothing from another.
 */
import { escapeHtml } from "../views/help-center";

/** Where the shared stylesheet is served (public/kit/page.css). */
export const KIT_STYLESHEET = "/kit/page.css";

export type Page = {
  /** the document's title, as plain text */
  title: string;
  /** the document's language; English unless the page says otherwise */
  lang?: string;
  /** further tags of the head, already HTML (a description, a canonical link, Open Graph) */
  head?: string;
  /** the page's own CSS, after the kit's */
  style?: string;
  /** a class for the body, to scope the page's own styles */
  bodyClass?: string;
  /** the page's content, already HTML */
  body: string;
  /** scripts of this origin, loaded in order at the end of the body */
  scripts?: string[];
};

export function layout(page: Page): string {
  const lines = [
    "<!doctype html>",
    `<html lang="${escapeHtml(page.lang ?? "en")}">`,
    "<head>",
    '<meta charset="utf-8">',
    `<title>${escapeHtml(page.title)}</title>`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    ...(page.head ? [page.head.trim()] : []),
    `<link rel="stylesheet" href="${KIT_STYLESHEET}">`,
    ...(page.style ? [`<style>\n${page.style.trim()}\n</style>`] : []),
    "</head>",
    page.bodyClass ? `<body class="${escapeHtml(page.bodyClass)}">` : "<body>",
    page.body.trim(),
    ...(page.scripts ?? []).map((src) => `<script src="${escapeHtml(src)}"></script>`),
    "</body>",
    "</html>",
  ];
  return lines.join("\n");
}
