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

/** A pass-through middleware that marks its route with `flag` (and, optionally, its own body limit in bytes). */
export function routeFlag(flag: RouteFlag, bodyLimit?: number): MiddlewareHandler<AppEnv> {
  const marker: MiddlewareHandler<AppEnv> = async (_c, next) => next();
  return Object.assign(marker, { [FLAG]: flag, [BODY_LIMIT]: bodyLimit });
}

/** The body limit the matched route declared, if any. */
export function routeBodyLimit(c: Context): number | undefined {
  const limits = routeMarks<number>(c, BODY_LIMIT);
  return limits.length > 0 ? Math.max(...limits) : undefined;
}

/**
 * The values the handlers of the matched route carry under `mark` (a symbol the declaring module owns),
 * in the order they were registered.
 */
export function routeMarks<T>(c: Context, mark: symbol): T[] {
  return matchedRoutes(c)
    .map((route) => (route.handler as unknown as Record<symbol, T | undefined>)[mark])
    .filter((value): value is T => value !== undefined);
}

/**
 * Whether the request reached a route of its method, not only middleware registered with `use`
 * (a request to no route ends in the 404 of src/http/errors.ts).
 */
export const routeMatched = (c: Context): boolean => matchedRoutes(c).some((route) => route.method === c.req.method);

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
