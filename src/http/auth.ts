/**
 * Authentication and the first layer of authorisation, by surface:
 * - /platform/api/v1: platform keys only;
 * - /api/v1/profile: user keys only;
 * - /api/v1/accounts/:account_id: members of the account, and agent bots on the routes that declare `allowBots()`;
 * - /public/api/v1: no key.
 * Wherever a user key works, so do the headers of a sign-in (`access-token`, `client`, `uid`, as
 * Chatwoot's apps send them after POST /auth/sign_in): the signed-in client acts as its user.
 * A missing or unknown key is a 401; a valid key without permission is a 403.
 */
import { createMiddleware } from "hono/factory";
import { type Credential, resolveAccountAccess, resolveCredential, systemBotConnected } from "../domain/identity/access";
import { SHARD_STATUS } from "../db/shard-status";
import { useShard } from "./database";
import { ACCOUNT_STATUS, ROLES, enumName } from "../domain/kernel/enums";
import type { Actor } from "../domain/kernel/scope";
import { Id } from "../schemas/common";
import type { AppContext, AppEnv } from "./app-env";
import { publicScope } from "./scopes";
import { routeFlag, routeHasFlag } from "./route-flags";
import { forbidden, invalidField, notFound, unauthorized, unavailable } from "../domain/kernel/errors";

/**
 * Chatwoot's `api_access_token` header, its hyphenated spelling `Api-Access-Token` (n8n and other
 * clients send it; Rails reads both because Rack folds `-` and `_` together), or
 * `Authorization: Bearer <key>`; otherwise the sign-in headers `access-token`, `client` and `uid`, all three.
 */
export function presentedCredential(headers: Headers): Credential {
  const key = (headers.get("api_access_token") ?? headers.get("api-access-token"))?.trim();
  if (key) return { kind: "key", key };
  const match = /^Bearer\s+(.+)$/i.exec(headers.get("authorization") ?? "");
  const bearer = match?.[1].trim();
  if (bearer) return { kind: "key", key: bearer };
  const [accessToken, client, uid] = ["access-token", "client", "uid"].map((name) => headers.get(name)?.trim() ?? "");
  if (accessToken || client || uid) {
    if (!accessToken || !client || !uid) throw unauthorized("A signed-in client sends access-token, client and uid together", "incomplete_session_headers");
    return { kind: "session", accessToken, client, uid };
  }
  throw unauthorized("An API key is required: send it in the api_access_token header", "missing_key");
}

export const unknownKey = () => unauthorized("The API key is not valid", "invalid_key");
export const unknownSession = () => unauthorized("The sign-in is not valid or has expired: sign in again", "invalid_session");

export const SURFACE_REFUSALS: Record<Actor["type"], string> = {
  user: "User keys cannot use this API",
  agent_bot: "Agent bot keys cannot use this API",
  platform_app: "Platform keys reach only /platform/api/v1",
  contact: "Not an API key",
  automation_rule: "Not an API key",
  macro: "Not an API key",
  auto_assignment: "Not an API key",
  system: "Not an API key",
};

function requireActorType<T extends Actor["type"]>(types: T[], sessionOnly = false) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const credential = presentedCredential(c.req.raw.headers);
    if (sessionOnly && credential.kind !== "session") {
      throw forbidden("Only a signed-in client (access-token, client and uid) can sign out; an API key has no session", "wrong_key_type");
    }
    const actor = await resolveCredential(publicScope(c), credential);
    if (!actor) throw credential.kind === "key" ? unknownKey() : unknownSession();
    if (!types.includes(actor.type as T)) throw forbidden(SURFACE_REFUSALS[actor.type], "wrong_key_type");
    c.set("actor", actor);
    await next();
  });
}

export const platformAuth = requireActorType(["platform_app"]);
export const userAuth = requireActorType(["user"]);
/** A signed-in client's headers only (DELETE /auth/sign_out ends that client). */
export const sessionAuth = requireActorType(["user"], true);

/**
 * Declares, on the route itself, that agent bot keys may call it (Chatwoot opens a few conversation and
 * message routes to bots). Every other account route refuses them with a 403.
 */
export const allowBots = () => routeFlag("bots");

export const accountAuth = createMiddleware<AppEnv>(async (c, next) => {
  const parsedId = Id.safeParse(c.req.param("account_id"));
  const credential = presentedCredential(c.req.raw.headers);
  if (!parsedId.success) throw invalidField("account_id", "must be a positive integer", "invalid_type");
  await enterAccount(c, credential, parsedId.data, { botsAllowed: routeHasFlag(c, "bots") });
  if (!["GET", "HEAD", "OPTIONS"].includes(c.req.method)) refuseWhileMoving(c);
  await next();
});

/**
 * Proves `credential` a member of account `accountId` (a user's membership, or a bot of the account or
 * one serving its inboxes) and moves the request onto the account's shard: the actor, the account and
 * the role are then on the context, for accountScope. `botsAllowed: false` refuses agent bot keys (the
 * account routes without `allowBots()`); /mcp lets them in and refuses them tool by tool.
 */
export async function enterAccount(c: AppContext, credential: Credential, accountId: number, options: { botsAllowed: boolean }) {
  const access = await resolveAccountAccess(publicScope(c), credential, accountId);
  const { actor, account } = access;
  if (!actor) throw credential.kind === "key" ? unknownKey() : unknownSession();
  if (actor.type !== "user" && actor.type !== "agent_bot") throw forbidden(SURFACE_REFUSALS[actor.type], "wrong_key_type");
  // an account whose shard rows are still being written, or already going, is not there
  if (!account || account.shardStatus === SHARD_STATUS.provisioning || account.shardStatus === SHARD_STATUS.deleting) throw notFound("Account", accountId, "account_id");
  // the account's rows are on this shard: the rest of the request runs there
  useShard(c, account.shard);

  if (actor.type === "user") {
    if (!access.membership) throw forbidden(`You are not a member of account ${accountId}`, "not_a_member");
    c.set("membership", access.membership);
    c.set("role", enumName(ROLES, access.membership.role));
  } else {
    const ownBot = actor.bot.accountId === accountId || (actor.bot.accountId === null && (await systemBotConnected(publicScope(c), accountId, actor.bot.id)));
    if (!ownBot) throw forbidden(`This agent bot does not belong to account ${accountId}`, "not_a_member");
    if (!options.botsAllowed) refuseBot();
    c.set("membership", null);
    c.set("role", null);
  }
  if (account.status === ACCOUNT_STATUS.suspended) throw forbidden(`Account ${accountId} is suspended`, "account_suspended");
  c.set("actor", actor);
  c.set("account", account);
}

/** The refusal of an agent bot key where bots may not act (a route without `allowBots()`, an MCP tool). */
export function refuseBot(): never {
  throw forbidden("Agent bot keys cannot call this endpoint", "bot_not_allowed");
}

/** A change waits while the request's account moves to another shard (reads go on). */
export function refuseWhileMoving(c: AppContext) {
  const account = c.var.account;
  if (account.shardStatus === SHARD_STATUS.moving) {
    throw unavailable(`Account ${account.id} is moving to another database; its changes wait until the move ends`, "account_moving");
  }
}

/** Administrators only (agents and bots get a 403). */
export const requireAdministrator = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.role !== "administrator") throw forbidden("Only administrators of this account may do this", "administrator_required");
  await next();
});
