/**
 * Who sees what a request cost the database (docs/api.md "Errors": which figures are shown to whom).
 *
 * The figures (time, round trips, rows read and written, the shard) describe the data a request
 * touched: on a route that takes no credential they would tell an unknown e-mail from a wrong password
 * (a user's row read or not), a customer's e-mail from a free one (rows written), or which shard holds
 * an account the caller may not reach. So they go only to a caller whose credential the request
 * proved: a user, an agent bot or a platform app that passed its surface's checks, or, on any route, a
 * request that carries a platform key (the operator measuring a keyless route). Everyone else gets no
 * Server-Timing.
 */
import { createMiddleware } from "hono/factory";
import { resolveCredential } from "../domain/identity/access";
import type { AppContext, AppEnv } from "./app-env";
import { presentedCredential } from "./auth";
import { publicScope } from "./scopes";

const PROVEN = new Set(["user", "agent_bot", "platform_app"]);

/**
 * A platform key sent where no surface checked it. Looked up after the request's figures are taken, so
 * its own round trip is not in them; a missing key costs nothing, and a 401 (the key already failed) is
 * not looked up again.
 */
async function carriesPlatformKey(c: AppContext): Promise<boolean> {
  if (c.res.status === 401) return false;
  let credential;
  try {
    credential = presentedCredential(c.req.raw.headers);
  } catch {
    return false;
  }
  if (credential.kind !== "key") return false;
  return (await resolveCredential(publicScope(c), credential))?.type === "platform_app";
}

export const serverTiming = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const shard = c.var.shard;
    const figures = c.var.meter.serverTiming() + (shard === null ? "" : `, db-shard;desc="${shard}"`);
    const actor = c.get("actor") as AppEnv["Variables"]["actor"] | undefined;
    if ((actor && PROVEN.has(actor.type)) || (await carriesPlatformKey(c))) c.header("Server-Timing", figures);
  });
