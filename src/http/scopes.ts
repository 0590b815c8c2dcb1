/**
 * The one place a request's domain scope is built. Every route hands the domain a scope from here, never
 * the database or the environment: the database, the configuration and the ports (live rooms) come from
 * the request, and the actor from the key its auth middleware resolved.
 */
import type { AccountScope, PlatformScope, TransportScope, UserScope } from "../domain/kernel/scope";
import { livePorts } from "../ports";
import type { AppContext } from "./app-env";

/** The request's part of every scope; alone, the scope of the public API before the domain finds the account. */
export function publicScope(c: AppContext): TransportScope {
  return { db: c.var.db, directory: c.var.directory, shards: c.var.shards, env: c.env, ports: livePorts(c.env, c.var.shards) };
}

/** The domain scope of an account route: the account and actor come from the auth context. */
export function accountScope(c: AppContext): AccountScope {
  return { ...publicScope(c), accountId: c.var.account.id, actor: c.var.actor, role: c.var.role };
}

/** The domain scope of a platform route: the platform app comes from the key platformAuth resolved. */
export function platformScope(c: AppContext): PlatformScope {
  const actor = c.var.actor;
  if (actor.type !== "platform_app") throw new Error("platform routes run behind platformAuth");
  return { ...publicScope(c), actor };
}

/** The domain scope of a user acting on itself (the profile), behind userAuth. */
export function userScope(c: AppContext): UserScope {
  const actor = c.var.actor;
  if (actor.type !== "user") throw new Error("profile routes run behind userAuth");
  return { ...publicScope(c), actor };
}
