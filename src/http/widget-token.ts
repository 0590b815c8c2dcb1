/**
 * The website widget's visitor token, as Chatwoot issues it: an HS256 JWT `{source_id, inbox_id, iat,
 * exp}` valid 180 days, signed with WIDGET_TOKEN_SECRET (a deployment secret; `npm start` generates one
 * and keeps it beside the local data, the tests configure one). The page hands it to the widget, which
 * sends it back as `X-Auth-Token`; the host page keeps it in the `cw_conversation` cookie. A token that
 * does not verify (another secret, expired, altered, not a JWT) counts as no token, as in Chatwoot.
 * Visitors of a Chatwoot installation keep their conversations when it moves here only with the same
 * secret (its `secret_key_base`) and the same source ids.
 */
import { sign, verify } from "hono/jwt";
import { unavailable } from "../domain/kernel/errors";
import type { WidgetClaim } from "../domain/widget/website";

/** Chatwoot's WIDGET_TOKEN_EXPIRY default, in days. */
export const WIDGET_TOKEN_DAYS = 180;
const DAY_S = 86_400;
/** Longer than any JWT of this shape; a longer header is not one of ours and is not parsed. */
const MAX_TOKEN_LENGTH = 2048;

function secretOf(env: Env): string {
  const secret = env.WIDGET_TOKEN_SECRET?.trim();
  if (!secret) throw unavailable("The website widget is not configured on this server (WIDGET_TOKEN_SECRET is not set)", "widget_not_configured");
  return secret;
}

/** A new token for the visitor's contact inbox. */
export async function issueWidgetToken(env: Env, claim: WidgetClaim, nowS = Math.floor(Date.now() / 1000)): Promise<string> {
  return sign({ source_id: claim.sourceId, inbox_id: claim.inboxId, iat: nowS, exp: nowS + WIDGET_TOKEN_DAYS * DAY_S }, secretOf(env), "HS256");
}

/** What a token proves, or null when it proves nothing. */
export async function readWidgetToken(env: Env, token: string | undefined | null): Promise<WidgetClaim | null> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  const secret = secretOf(env);
  try {
    const payload = await verify(token, secret, "HS256");
    const sourceId = payload.source_id;
    const inboxId = payload.inbox_id;
    if (typeof sourceId !== "string" || sourceId === "" || typeof inboxId !== "number" || !Number.isSafeInteger(inboxId)) return null;
    return { sourceId, inboxId };
  } catch {
    return null;
  }
}
