/**
 * CORS for the public client API: a widget runs on the customer's own site, so browsers on any origin
 * may call it, unless a website inbox restricts the origins with `allowed_domains`. No credentials
 * (cookies) are involved: the path identifies the visitor. A refused origin gets a 403 with the error
 * body, for preflights and for the requests themselves (a form post needs no preflight).
 */
import { createMiddleware } from "hono/factory";
import { originAllowed } from "../../domain/widget/origins";
import { forbidden } from "../../domain/kernel/errors";
import type { AppEnv } from "../../http/app-env";
import { publicScope } from "../../http/scopes";

const ALLOW_METHODS = "GET, POST, PATCH, OPTIONS";
const MAX_AGE_S = "600";

export const widgetCors = createMiddleware<AppEnv>(async (c, next) => {
  const origin = c.req.header("origin");
  if (!origin) return next(); // not a browser's cross-origin request
  const identifier = c.req.param("inbox_identifier") ?? "";
  if (!(await originAllowed(publicScope(c), identifier, origin))) {
    throw forbidden(`Origin ${origin.slice(0, 200)} is not among this inbox's allowed domains`, "origin_not_allowed");
  }
  const headers = {
    "Access-Control-Allow-Origin": origin,
    Vary: "Origin",
  };
  if (c.req.method === "OPTIONS") {
    return c.body(null, 204, {
      ...headers,
      "Access-Control-Allow-Methods": ALLOW_METHODS,
      "Access-Control-Allow-Headers": c.req.header("access-control-request-headers") ?? "content-type",
      "Access-Control-Max-Age": MAX_AGE_S,
    });
  }
  await next();
  if (c.res.status === 101) return; // a WebSocket: no CORS headers apply
  for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
});
