/**
 * Behaviour a route declares where it is registered (`allowBots()`, `acceptFiles()`), read by middleware
 * that runs before the route's own handlers: Hono matches every route of a request first, so a global
 * middleware can see the flags among the matched handlers.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "./app-env";

const FLAG = Symbol("routeFlag");
const BODY_LIMIT = Symbol("routeBodyLimit");

export type RouteFlag = "bots" | "files" | "idempotent" | "documented" | "undocumented";

/** A pass-through middleware that marks its route with `flag`. */
export function routeFlag(flag: RouteFlag): MiddlewareHandler<AppEnv> {
  return flagged(flag, async (_c, next) => next());
}

/** The body limit the matched route declared, if any. */
export function routeBodyLimit(c: Context): number | undefined {
  const limits = matchedRoutes(c)
    .map((route) => (route.handler as { [BODY_LIMIT]?: number })[BODY_LIMIT])
    .filter((limit): limit is number => limit !== undefined);
  return limits.length > 0 ? Math.max(...limits) : undefined;
}

/**
 * `middleware`, marked with `flag` so that the request and the API document can tell it is there (and,
 * optionally, with the route's own body limit in bytes).
 */
export function flagged<M extends MiddlewareHandler<AppEnv>>(flag: RouteFlag, middleware: M, bodyLimit?: number): M {
  return Object.assign(middleware, { [FLAG]: flag, [BODY_LIMIT]: bodyLimit });
}

/** The flag a handler carries, if any (for the API document, which walks app.routes). */
export const flagOf = (handler: unknown): RouteFlag | undefined => (handler as { [FLAG]?: RouteFlag })[FLAG];

/** Whether the route this request matched declared `flag`. */
export function routeHasFlag(c: Context, flag: RouteFlag): boolean {
  return matchedRoutes(c).some((route) => flagOf(route.handler) === flag);
}
