import { Hono } from "hono";
import { confirmEmail } from "../domain/identity/profile";
import { requestPasswordReset, resetPassword, signIn, signOut } from "../domain/identity/sessions";
import { loadUserRecord } from "../domain/identity/users";
import { sha256Hex } from "../domain/identity/keys";
import type { AppContext, AppEnv } from "../http/app-env";
import { sessionAuth, userAuth } from "../http/auth";
import { publicScope, userScope } from "../http/scopes";
import { doc } from "../http/openapi";
import { routeBody } from "../http/body";
import { clientAddress, failedWith, limitFailures, rateLimited } from "../http/rate-limit";
import { validate } from "../http/validate";
import {
  AuthSuccess,
  EmailConfirmationQuery,
  EmailConfirmed,
  PasswordResetBody,
  PasswordResetRequest,
  SignInBody,
  SignedInUser,
  ValidToken,
} from "../schemas/users";
import { userView } from "../views/users";
import { liveAccountsOf, userHmacIdentifier } from "./user-identity";

const CONFIRMATION_PATH = "/auth/confirmation";
/** Where Chatwoot's dashboard takes a reset link; edgedesk serves no page there (a frontend at the address does). */
const PASSWORD_RESET_PATH = "/app/auth/password/edit";

/**
 * The link mailed to a new address. It points at the service's configured address (FILES_BASE_URL), not
 * at the Host of the request that asked for the change, so a forged Host cannot send the token elsewhere.
 */
export function confirmationLink(env: Env, token: string): string {
  const url = new URL(CONFIRMATION_PATH, env.FILES_BASE_URL);
  url.searchParams.set("confirmation_token", token);
  return url.toString();
}

/** The link of a password reset mail, at the configured address for the same reason. */
function passwordResetLink(env: Env, token: string): string {
  const url = new URL(PASSWORD_RESET_PATH, env.FILES_BASE_URL);
  url.searchParams.set("reset_password_token", token);
  return url.toString();
}

async function signedInUser(c: AppContext) {
  const scope = userScope(c);
  const record = (await loadUserRecord(scope, scope.actor.user.id))!;
  return userView(record, await userHmacIdentifier(c.env, record.user.email), await liveAccountsOf(c.env, record));
}

/**
 * Failed sign-ins count per client address and per e-mail (its digest: no address in a limiter's name).
 * The e-mail is normalised as the domain finds users, so "A@x" and "a@x " share one allowance.
 */
async function signInSubjects(c: AppContext, email: string | undefined) {
  const subjects = [`address:${clientAddress(c)}`];
  if (email) subjects.push(`email:${await sha256Hex(email.trim().toLowerCase())}`);
  return subjects;
}

const isBadCredentials = failedWith("invalid_credentials");
/** A mailed token that matched nothing: counted per client address (`secret_failures`). */
const isBadToken = failedWith("invalid_token");
const tokenSubjects = (c: AppContext) => [`address:${clientAddress(c)}`];

/**
 * /auth: devise's paths, as Chatwoot serves them. Sign-in and the password reset take no key (the
 * password, the mailed token are the credential) and count per client address like the public API;
 * validate_token and sign_out take a signed-in client's headers.
 */
export const authApi = new Hono<AppEnv>()
  .get(
    "/confirmation",
    rateLimited("public_api"),
    doc({ summary: "Confirm a new email address with the token of the mailed link", response: EmailConfirmed }),
    validate("query", EmailConfirmationQuery),
    async (c) => {
      const token = c.req.valid("query").confirmation_token;
      const { email } = await limitFailures(c, "secret_failures", tokenSubjects(c), isBadToken, () => confirmEmail(publicScope(c), token));
      return c.json({ email, confirmed: true as const });
    },
  )
  .post(
    "/sign_in",
    rateLimited("public_api"),
    doc({
      summary: "Sign in with e-mail and password, as Chatwoot's apps do",
      description:
        "Answers the user and the headers `access-token`, `client`, `uid` (the e-mail), `token-type: Bearer` and `expiry` (Unix seconds). " +
        "Sending `access-token`, `client` and `uid` on a request authenticates it as the user's key does. A wrong e-mail or password is one and the same 401; " +
        "repeated failures for one e-mail or from one address answer 429 (`RATE_LIMIT_SIGN_IN_FAILURES`). Two-factor and single sign-on fields answer 422 `not_offered`.",
      response: SignedInUser,
    }),
    validate("json", SignInBody),
    async (c) => {
      const body = c.req.valid("json");
      const subjects = await signInSubjects(c, body.email);
      const signedIn = await limitFailures(c, "sign_in_failures", subjects, isBadCredentials, () =>
        signIn(publicScope(c), {
          email: body.email,
          password: body.password,
          mfaToken: body.mfa_token,
          otpCode: body.otp_code,
          backupCode: body.backup_code,
          ssoAuthToken: body.sso_auth_token,
        }),
      );
      const { record } = signedIn;
      c.header("access-token", signedIn.accessToken);
      c.header("client", signedIn.client);
      c.header("uid", record.user.email);
      c.header("token-type", "Bearer");
      c.header("expiry", String(Math.floor(signedIn.expiresAt / 1000)));
      c.header("Cache-Control", "no-store");
      return c.json({ data: userView(record, await userHmacIdentifier(c.env, record.user.email), await liveAccountsOf(c.env, record)) });
    },
  )
  .get(
    "/validate_token",
    userAuth,
    rateLimited("account_api"),
    doc({ summary: "Check a signed-in client's headers (or a user key) and answer its user", response: ValidToken }),
    async (c) => c.json({ success: true as const, data: await signedInUser(c) }),
  )
  .delete(
    "/sign_out",
    sessionAuth,
    rateLimited("account_api"),
    // it takes no body, but a malformed one is refused as on every other write
    routeBody,
    doc({ summary: "Sign out the calling client; the user's other clients stay signed in", response: AuthSuccess }),
    async (c) => {
      await signOut(userScope(c), c.req.header("client")!.trim());
      return c.json({ success: true as const, message: "Signed out" });
    },
  )
  .post(
    "/password",
    rateLimited("public_api"),
    doc({
      summary: "Ask for a password reset link by e-mail",
      description: "The same answer whether or not the e-mail is a user's; when it is, a single-use link valid for two hours is written to the outgoing mail.",
      response: AuthSuccess,
    }),
    validate("json", PasswordResetRequest),
    async (c) => {
      await requestPasswordReset(publicScope(c), c.req.valid("json"), (token) => passwordResetLink(c.env, token));
      return c.json({ success: true as const, message: "If this e-mail address is a user's, a link to reset the password is on its way." });
    },
  )
  .put(
    "/password",
    rateLimited("public_api"),
    doc({ summary: "Set a new password with the token of a reset link; ends every signed-in client of the user", response: AuthSuccess }),
    validate("json", PasswordResetBody),
    async (c) => {
      const body = c.req.valid("json");
      await limitFailures(c, "secret_failures", tokenSubjects(c), isBadToken, () =>
        resetPassword(publicScope(c), { token: body.reset_password_token, password: body.password }),
      );
      return c.json({ success: true as const, message: "Your password has been changed: sign in with it." });
    },
  );
