/**
 * GET /docs: Scalar's reference page over /openapi.json. Scalar's script comes from this Worker
 * (/vendor/scalar-api-reference.js, a static asset filled from the installed package) and its default
 * fonts are off, so the page loads nothing from another host and works offline; the content security
 * policy holds it to that. The page's one inline script (Scalar's start-up call) carries a nonce fresh
 * for each answer.
 */
import { Scalar } from "@scalar/hono-api-reference";
import type { Context } from "hono";
import type { AppEnv } from "../http/app-env";

const policy = (nonce: string) =>
  [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");

export const referencePage = Scalar((c: Context<AppEnv>) => {
  const nonce = crypto.randomUUID().replaceAll("-", "");
  c.header("Content-Security-Policy", policy(nonce));
  return {
    url: "/openapi.json",
    pageTitle: "edgedesk API reference",
    cdn: "/vendor/scalar-api-reference.js",
    withDefaultFonts: false,
    nonce,
  };
});
