/**
 * The door of /mcp (docs/mcp.md): the same keys as the account API, sent as
 * `Authorization: Bearer <key>` (the other spellings of presentedCredential work too), and one account per
 * request. The transport keeps no session in the Worker, so every request names its account the same way:
 * the `X-Account-Id` header, or nothing when the key reaches exactly one account (an agent bot's own
 * account, a user's only membership). A client that names it in its configuration sends it with
 * every request, which makes "one account per session" hold without session state.
 *
 * Refusals come before any session: a missing or unknown key is a 401 with `WWW-Authenticate: Bearer`
 * (the MCP authorization rules, RFC 6750), a valid key without access to the account a 403, each with the
 * API's error body. Agent bot keys get in; each tool then refuses them unless bots may do the same on
 * the API (src/mcp/tools.ts).
 */
import { createMiddleware } from "hono/factory";
import { resolveCredential } from "../domain/identity/access";
import { memberAccountIds } from "../domain/identity/account-users";
import { DomainError, forbidden, invalidField } from "../domain/kernel/errors";
import { Id } from "../schemas/common";
import type { AppContext, AppEnv } from "./app-env";
import { SURFACE_REFUSALS, enterAccount, presentedCredential, unknownKey, unknownSession } from "./auth";
import { publicScope } from "./scopes";
import type { Credential } from "../domain/identity/access";

export const ACCOUNT_HEADER = "x-account-id";

export const mcpAuth = createMiddleware<AppEnv>(async (c, next) => {
  try {
    const credential = presentedCredential(c.req.raw.headers);
    await enterAccount(c, credential, await chosenAccount(c, credential), { botsAllowed: true });
  } catch (error) {
    if (error instanceof DomainError) challenge(c, error);
    throw error;
  }
  await next();
});

/** The account the request names, or the one its key reaches when it reaches only one. */
async function chosenAccount(c: AppContext, credential: Credential): Promise<number> {
  const named = c.req.header(ACCOUNT_HEADER);
  if (named !== undefined) {
    const parsed = Id.safeParse(named.trim());
    if (!parsed.success) throw invalidField("X-Account-Id", "must be a positive integer", "invalid_type");
    return parsed.data;
  }
  const actor = await resolveCredential(publicScope(c), credential);
  if (!actor) throw credential.kind === "key" ? unknownKey() : unknownSession();
  if (actor.type !== "user" && actor.type !== "agent_bot") throw forbidden(SURFACE_REFUSALS[actor.type], "wrong_key_type");
  // a system bot (no account of its own) names the account it serves
  const reachable = actor.type === "user" ? await memberAccountIds(publicScope(c), actor.user.id, 2) : actor.bot.accountId === null ? [] : [actor.bot.accountId];
  if (reachable.length !== 1) {
    throw invalidField("X-Account-Id", "is required: this key does not reach exactly one account, so name the account with the X-Account-Id header", "required");
  }
  return reachable[0];
}

/** The challenge the MCP specification asks for with a 401 and a 403 (RFC 6750, section 3). */
function challenge(c: AppContext, error: DomainError) {
  if (error.code === "unauthenticated") {
    const reason = error.errors[0]?.code === "missing_key" ? "" : ', error="invalid_token"';
    c.header("WWW-Authenticate", `Bearer realm="edgedesk"${reason}`);
  } else if (error.code === "forbidden") {
    c.header("WWW-Authenticate", 'Bearer realm="edgedesk", error="insufficient_scope"');
  }
}
