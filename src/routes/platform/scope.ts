import type { AppContext } from "../../http/app-env";
import type { PlatformScope } from "../../domain/platform/ownership";

/** The domain scope of a platform route: the platform app comes from the key platformAuth resolved. */
export function platformScope(c: AppContext): PlatformScope {
  const actor = c.var.actor;
  if (actor.type !== "platform_app") throw new Error("platform routes run behind platformAuth");
  return { db: c.var.db, platformAppId: actor.platformAppId, env: c.env };
}
