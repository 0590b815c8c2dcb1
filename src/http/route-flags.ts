/**
 * Behaviour a route declares where it is registered (`allowBots()`, `acceptFiles()`), read by middleware
 * that runs before the route's own handlers: Hono matches every route of a request first, so a global
 * middleware can see the flags among the matched handlers.
 */
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "./app-env";

const FLAG = Symbol("routeFlag");

export type RouteFlag = "bots" | "files";

/** A pass-through middleware that marks its route with `flag`. */
export function routeFlag(flag: RouteFlag): MiddlewareHandler<AppEnv> {
  const marker: MiddlewareHandler<AppEnv> = async (_c, next) => next();
  return Object.assign(marker, { [FLAG]: flag });
}

/** Whether the route this request matched declared `flag`. */
export function routeHasFlag(c: Context, flag: RouteFlag): boolean {
  return matchedRoutes(c).some((route) => (route.handler as { [FLAG]?: RouteFlag })[FLAG] === flag);
}
