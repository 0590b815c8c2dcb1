/**
 * Secure defaults for every answer.
 * - Hono's secure headers: nosniff, no framing by other sites, no referrer, HSTS, same-origin opener and
 *   resource policies. Cross-Origin-Resource-Policy does not affect CORS reads, so the widget API still
 *   answers browsers on customer sites (src/routes/public/cors.ts).
 * - JSON answers also carry `Content-Security-Policy: default-src 'none'`: with nosniff a browser never
 *   renders them as HTML, and if a JSON answer is ever opened as a document (a stored `<script>` in a
 *   contact name, say) it may run nothing and load nothing. HTML pages set their own (`pagePolicy`
 *   below; /docs' in its file).
 * - A caller's `X-Request-Id` is kept when it is well formed (letters, digits, `_`, `-`, `=`, at most
 *   128 characters), so a client can correlate its logs with ours; otherwise a UUID is made. The id is
 *   echoed in the `X-Request-Id` answer header and in the body of a 500.
 */
import { createMiddleware } from "hono/factory";
import { requestId as honoRequestId } from "hono/request-id";
import { secureHeaders as honoSecureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./app-env";

export const REQUEST_ID_MAX_LENGTH = 128;

export const requestId = () => honoRequestId({ headerName: "X-Request-Id", limitLength: REQUEST_ID_MAX_LENGTH });

/**
 * The content security policy of an HTML page the Worker renders (src/pages/kit.ts): the kit's stylesheet
 * and the page's own inline styles, nothing from another origin, no framing. `scripts`: scripts and
 * fetches (WebSockets included) on this origin, never inline; `images`: pictures on this origin;
 * `forms`: forms that submit to this origin. Whatever is not allowed is refused.
 */
export function pagePolicy({ scripts = false, images = false, forms = false } = {}): string {
  return [
    "default-src 'none'",
    ...(scripts ? ["script-src 'self'"] : []),
    "style-src 'self' 'unsafe-inline'",
    ...(images ? ["img-src 'self'"] : []),
    ...(scripts ? ["connect-src 'self'"] : []),
    `form-action ${forms ? "'self'" : "'none'"}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The policy of a page whose script is this Worker's own file (the CSAT survey, the demos). */
export const SCRIPTED_PAGE_POLICY = pagePolicy({ scripts: true });

const FRAMED_BY_OTHERS = /frame-ancestors (?!'none'|'self'\s*(;|$))/;
const JSON_TYPE = /^application\/([\w.-]+\+)?json\b/i;
const JSON_POLICY = "default-src 'none'; frame-ancestors 'none'";

export const secureHeaders = () => {
  const common = honoSecureHeaders();
  return createMiddleware<AppEnv>(async (c, next) => {
    await common(c, async () => {
      await next();
      if (c.res.status === 101) return; // a WebSocket upgrade has no document to protect
      if (JSON_TYPE.test(c.res.headers.get("content-type") ?? "") && !c.res.headers.has("content-security-policy")) {
        c.res.headers.set("Content-Security-Policy", JSON_POLICY);
      }
    });
    // A page that names in its own policy who may frame it (the website widget's page) drops
    // X-Frame-Options, which can only say "this origin" and would contradict it in older browsers.
    if (FRAMED_BY_OTHERS.test(c.res.headers.get("content-security-policy") ?? "")) c.res.headers.delete("X-Frame-Options");
  });
};
