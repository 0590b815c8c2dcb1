/**
 * An article's Markdown as HTML a reader's browser may show: `marked` renders it (GitHub-flavoured,
 * raw HTML passes through as Markdown allows), then `xss` keeps only an allowlist of tags and
 * attributes. What survives, whatever the author wrote: no <script>, <style>, <iframe>, <object>,
 * <svg> or form element; no `on*` or `style` attribute; href/src only with http(s), mailto/tel (links)
 * or a relative URL, after the entities and invisible characters an attacker hides a scheme behind
 * are decoded. The page's Content-Security-Policy (no script at all) is the second wall.
 */
import { marked } from "marked";
import xss from "xss";

// xss is a CommonJS module: its named exports are properties of the default one in the Workers bundle
const { FilterXSS, safeAttrValue } = xss as unknown as typeof import("xss");

const TEXT_TAGS = ["p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "b", "em", "i", "del", "s", "u", "sup", "sub", "kbd", "mark", "code", "pre", "blockquote", "ul", "ol", "li", "thead", "tbody", "tr", "div", "span"];

const allowList: Record<string, string[]> = {
  ...Object.fromEntries(TEXT_TAGS.map((tag) => [tag, []])),
  a: ["href", "title"],
  img: ["src", "alt", "title", "width", "height"],
  ol: ["start"],
  table: [],
  th: ["align"],
  td: ["align"],
};

/** Dropped with everything inside them, not just their tags. */
const DROPPED_WITH_BODY = ["script", "style", "iframe", "object", "embed", "noscript", "template", "svg", "math", "textarea", "select", "title", "xmp", "noembed", "noframes"];

const filter = new FilterXSS({
  whiteList: allowList,
  stripIgnoreTag: true,
  stripIgnoreTagBody: DROPPED_WITH_BODY,
  allowCommentTag: false,
  safeAttrValue(tag, name, value, cssFilter) {
    // xss decodes entities and drops invisible characters, then allows only known scheme prefixes
    const safe = safeAttrValue(tag, name, value, cssFilter);
    if (name !== "href" && name !== "src") return safe;
    // ... of which data:image/ (an SVG image carries script; and the page loads nothing inline)
    if (/^\s*data:/i.test(safe)) return "";
    // a picture from the author's own site is fine; a link to a phone or an address is not a picture
    if (name === "src" && /^\s*(mailto|tel|ftp):/i.test(safe)) return "";
    return safe;
  },
});

export function renderArticleMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true });
  return filter.process(html);
}
