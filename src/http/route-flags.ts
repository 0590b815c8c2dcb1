/**
 * Behaviour a route declares where it is registered (`allowBots()`, `acceptFiles()`), read by middleware
 * that runs before the route's own handlers: Hono matches every route of a request first, so a global
 * middleware can see the flags among the matched handlers.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "./app-env";

const FLAG = Symbol("routeFlag");

export type RouteFlag = "bots" | "files" | "idempotent" | "documented" | "undocumented";

/** A pass-through middleware that marks its route with `flag`. */
export function routeFlag(flag: RouteFlag): MiddlewareHandler<AppEnv> {
  const marker: MiddlewareHandler<AppEnv> = async (_c, next) => next();
  return Object.assign(marker, { [FLAG]: flag });
}

/** `middleware`, marked with `flag` so that the request and the API document can tell it is there. */
export function flagged<M extends MiddlewareHandler<AppEnv>>(flag: RouteFlag, middleware: M): M {
  return Object.assign(middleware, { [FLAG]: flag });
}

/** The flag a handler carries, if any (for the API document, which walks app.routes). */
export const flagOf = (handler: unknown): RouteFlag | undefined => (handler as { [FLAG]?: RouteFlag })[FLAG];

/** Whether the route this request matched declared `flag`. */
export function routeHasFlag(c: Context, flag: RouteFlag): boolean {
  return matchedRoutes(c).some((route) => flagOf(route.handler) === flag);
}
