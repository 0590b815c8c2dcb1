import { Hono } from "hono";
import { confirmEmail } from "../domain/identity/profile";
import type { AppEnv } from "../http/app-env";
import { publicScope } from "../http/scopes";
import { doc } from "../http/openapi";
import { rateLimited } from "../http/rate-limit";
import { validate } from "../http/validate";
import { EmailConfirmationQuery, EmailConfirmed } from "../schemas/users";

const CONFIRMATION_PATH = "/auth/confirmation";

/**
 * The link mailed to a new address. It points at the service's configured address (FILES_BASE_URL), not
 * at the Host of the request that asked for the change, so a forged Host cannot send the token elsewhere.
 */
export function confirmationLink(env: Env, token: string): string {
  const url = new URL(CONFIRMATION_PATH, env.FILES_BASE_URL);
  url.searchParams.set("confirmation_token", token);
  return url.toString();
}

/**
 * /auth: what a mailed link opens (devise's paths, as Chatwoot serves them). No key: the token is the
 * credential. Counted per client address like the public API.
 */
export const authApi = new Hono<AppEnv>().get(
  "/confirmation",
  rateLimited("public_api"),
  doc({ summary: "Confirm a new email address with the token of the mailed link", response: EmailConfirmed }),
  validate("query", EmailConfirmationQuery),
  async (c) => {
    const { email } = await confirmEmail(publicScope(c), c.req.valid("query").confirmation_token);
    return c.json({ email, confirmed: true as const });
  },
);
