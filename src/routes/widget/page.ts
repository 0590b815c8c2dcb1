/**
 * GET /widget?website_token=&cw_conversation=&locale=: the website widget's page, which the loader
 * (/packs/js/sdk.js) frames on the customer's site, a pop-out window opens and React Native's WebView
 * loads. As Chatwoot's page: an unknown token is a 404 and a suspended account a 401; a visitor token
 * (`cw_conversation`) that names a visitor of this inbox reuses it and is handed back unchanged;
 * otherwise a new anonymous contact, its contact inbox and a new token are made. Loads that make a
 * contact count against `widget_page` per address (Chatwoot's 5 an hour). Who may frame the page comes
 * from the inbox's `allowed_domains` (anyone when empty). The page itself is a shell: the widget app
 * (widget/, built into /packs/) reads the globals from the JSON script element.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/app-env";
import { undocumented } from "../../http/openapi";
import { shardOfPublicKey } from "../../http/public-route";
import { enforce, rateLimited } from "../../http/rate-limit";
import { publicScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { issueWidgetToken, readWidgetToken } from "../../http/widget-token";
import { openWebsiteVisitor } from "../../domain/widget/website";
import { parseAllowedDomains } from "../../domain/widget/origins";
import { globalConfigView, pageLocale, webChannelView, widgetPageHtml } from "../../views/widget-page";

export const WidgetPageQuery = z.object({
  website_token: z.string().trim().min(1, { error: "is required" }).max(255),
  cw_conversation: z.string().max(4096).optional(),
  locale: z.string().max(20).optional(),
});

/** A domain as a CSP source may name it; anything else of `allowed_domains` is left out of the header. */
const CSP_SOURCE = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/;

/** A domain's host in the ASCII form a CSP source needs (a non-ASCII name in punycode, through the URL parser); null if it has none. */
function asciiDomain(domain: string): string | null {
  const parts = /^(\*\.)?([^:]+)(:\d{1,5})?$/.exec(domain);
  if (!parts) return null;
  try {
    return `${parts[1] ?? ""}${new URL(`http://${parts[2]}`).hostname}${parts[3] ?? ""}`;
  } catch {
    return null;
  }
}

/**
 * Who may frame the page: the inbox's allowed domains (a domain without a scheme allows http and https),
 * or anyone when it lists none. Domains were listed but none can be named in a CSP: no one, never anyone.
 */
export function frameAncestors(allowedDomains: string): string {
  const listed = parseAllowedDomains(allowedDomains);
  if (listed.length === 0) return "*";
  const sources = listed.map(asciiDomain).filter((d): d is string => d !== null && CSP_SOURCE.test(d));
  return sources.length > 0 ? sources.join(" ") : "'none'";
}

/** The page's policy: the widget app and its style from this origin only, its API and /cable on this origin. */
export function widgetPagePolicy(origin: string, ancestors: string) {
  const socket = origin.replace(/^http/, "ws");
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob: https:",
    "media-src 'self'",
    `connect-src 'self' ${socket}`,
    "font-src 'self'",
    `frame-ancestors ${ancestors}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

export const widgetPage = new Hono<AppEnv>().get(
  "/",
  undocumented("an HTML page, the website widget's frame (docs/widget.md)"),
  // the public surface's own allowance per address and inbox, then the inbox's shard
  rateLimited("public_api"),
  shardOfPublicKey("inbox", "website_token", "query"),
  validate("query", WidgetPageQuery),
  async (c) => {
    const query = c.req.valid("query");
    const claim = await readWidgetToken(c.env, query.cw_conversation);
    // a load that makes a contact (no token, or one that names no visitor of this inbox) is counted before the contact is made
    const { website, chain, created } = await openWebsiteVisitor(publicScope(c), query.website_token, claim, () => enforce(c, "widget_page"));
    const authToken = created ? await issueWidgetToken(c.env, { sourceId: chain.contactInbox.sourceId, inboxId: website.inbox.id }) : query.cw_conversation!;
    const html = widgetPageHtml({
      locale: pageLocale(query.locale, website.account.locale),
      webChannel: webChannelView(website),
      pubsubToken: chain.contactInbox.pubsubToken,
      authToken,
      globalConfig: globalConfigView(c.env.MAXIMUM_FILE_UPLOAD_SIZE),
    });
    c.header("Content-Security-Policy", widgetPagePolicy(new URL(c.req.url).origin, frameAncestors(website.widget.allowedDomains)));
    c.header("Cache-Control", "no-store");
    return c.html(html);
  },
);
