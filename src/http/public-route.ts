/**
 * Public requests name no account: they carry an inbox identifier, a portal slug or a survey's
 * conversation uuid. This finds the account those lead to, and its shard, before the route runs
 * (docs/shards.md): one indexed read of the directory's public routes (a survey's uuid is looked for
 * on every shard), kept in this isolate for a while, so a widget's stream of requests costs the directory
 * nothing after its first. A key that leads nowhere leaves the request on the directory, where the
 * route's own lookup finds nothing and answers its usual 404.
 */
import { createMiddleware } from "hono/factory";
import { SHARD_STATUS } from "../db/shard-status";
import { type PublicRouteKind, findPublicRoute } from "../domain/identity/public-routes";
import { unavailable } from "../domain/kernel/errors";
import { csatSurveyAccount } from "../domain/widget/csat-survey";
import type { AppContext, AppEnv } from "./app-env";
import { useShard } from "./database";
import { publicScope } from "./scopes";

type KeyKind = PublicRouteKind | "csat_survey";

/** How long a key's account is trusted; an inbox never changes account, a slug may (released, then claimed). */
const ROUTE_TTL_MS = 30_000;
const ROUTES_MAX = 10_000;
const KEY_MAX_LENGTH = 255;

const routes = new Map<string, { accountId: number; readAt: number }>();

/** A survey's key is a conversation uuid: anything else is not looked for on every shard (the route answers 422). */
const CONVERSATION_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function accountOfKey(c: AppContext, kind: KeyKind, key: string): Promise<number | null> {
  const cacheKey = `${kind}:${key}`;
  const hit = routes.get(cacheKey);
  if (hit && Date.now() - hit.readAt < ROUTE_TTL_MS) return hit.accountId;
  const scope = publicScope(c);
  const accountId = kind === "csat_survey" ? await csatSurveyAccount(scope, key) : await findPublicRoute(scope, kind, key);
  if (accountId === null) return null;
  if (routes.size >= ROUTES_MAX) routes.clear();
  routes.set(cacheKey, { accountId, readAt: Date.now() });
  return accountId;
}

/**
 * Middleware: the request runs on the shard of the account that the path parameter `param` leads to
 * (or, `from: "query"`, the query parameter: the website widget names its inbox by `?website_token=`).
 */
export const shardOfPublicKey = (kind: KeyKind, param: string, from: "param" | "query" = "param") =>
  createMiddleware<AppEnv>(async (c, next) => {
    const key = (from === "param" ? c.req.param(param) : c.req.query(param)) ?? "";
    const wellFormed = kind === "csat_survey" ? CONVERSATION_UUID.test(key) : key !== "" && key.length <= KEY_MAX_LENGTH;
    if (wellFormed && c.var.shard === null) {
      const accountId = await accountOfKey(c, kind, key);
      const writes = !["GET", "HEAD", "OPTIONS"].includes(c.req.method);
      const placement = accountId === null ? null : await c.var.shards.placementOf(accountId, { writes });
      if (placement?.status === SHARD_STATUS.moving && writes) {
        throw unavailable("This account is moving to another database; its changes wait until the move ends", "account_moving");
      }
      if (placement && (placement.status === SHARD_STATUS.active || placement.status === SHARD_STATUS.moving)) useShard(c, placement.shard);
    }
    await next();
  });

/**
 * The request runs on the shard of `accountId`, named in a public path that proves itself another way
 * (a signed file URL): an unknown or unplaced account leaves it on the directory, where nothing is found.
 */
export async function useShardOfAccount(c: AppContext, accountId: number) {
  const placement = await c.var.shards.placementOf(accountId);
  if (placement && (placement.status === SHARD_STATUS.active || placement.status === SHARD_STATUS.moving)) useShard(c, placement.shard);
}
