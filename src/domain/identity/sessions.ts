/**
 * Signing in with e-mail and password, as Chatwoot's apps do (devise_token_auth's sessions): each sign-in
 * is a client of its own (a device) with a random access token; the client sends `access-token`, `client`
 * and `uid` on every request, and the token works until it expires, the client signs out, or the user's
 * password changes. Only the token's SHA-256 digest is stored.
 *
 * Also the password reset by mail: a single-use link, then a new password, which ends every session.
 */
import { and, desc, eq, lte, notInArray, or } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { batch, write, writeThenRead } from "../kernel/batch";
import { DomainError, invalidField } from "../kernel/errors";
import { outgoingEmailStatement } from "../kernel/outgoing-email";
import { hashPassword, linkToken, randomKey, randomToken, sha256Hex, verifyPassword } from "./keys";
import type { TransportScope, UserScope } from "../kernel/scope";
import { type UserRecord, closeLiveSockets, endSessionsStatement, toUserRecord, userRecordQueries } from "./users";

const { users, authSessions } = schema;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Chatwoot keeps a sign-in for two months; SIGN_IN_LIFESPAN_DAYS may shorten or lengthen it. */
const DEFAULT_LIFESPAN_DAYS = 60;
/** As devise_token_auth's max_number_of_devices: the eleventh sign-in ends the one closest to expiring. */
const MAX_CLIENTS_PER_USER = 10;
const RESET_TTL_MS = 2 * 60 * 60 * 1000;

function lifespanMs(env: Env): number {
  const days = Number(env.SIGN_IN_LIFESPAN_DAYS ?? DEFAULT_LIFESPAN_DAYS);
  return (Number.isFinite(days) && days > 0 ? days : DEFAULT_LIFESPAN_DAYS) * DAY_MS;
}

/** The one answer to a wrong e-mail or a wrong password, so that it tells nobody which addresses exist. */
export const invalidCredentials = () =>
  new DomainError("unauthenticated", "Invalid login credentials. Please try again.", [
    { field: "", message: "Invalid login credentials. Please try again.", code: "invalid_credentials" },
  ]);

/**
 * Verified against when the e-mail has no password to check, so a sign-in for an unknown address costs
 * the same key derivation as one for a known address.
 */
let standIn: Promise<string> | undefined;
const standInHash = () => (standIn ??= hashPassword(randomKey()));

export type SignInInput = {
  email?: string;
  password?: string;
  /** second factors and single sign-on, which Chatwoot's apps may send; edgedesk offers neither */
  mfaToken?: string;
  otpCode?: string;
  backupCode?: string;
  ssoAuthToken?: string;
};

export type SignedIn = { record: UserRecord; accessToken: string; client: string; expiresAt: number };

function refuseUnoffered(input: SignInInput) {
  const unoffered = (
    [
      ["mfa_token", input.mfaToken, "Two-factor sign-in"],
      ["otp_code", input.otpCode, "Two-factor sign-in"],
      ["backup_code", input.backupCode, "Two-factor sign-in"],
      ["sso_auth_token", input.ssoAuthToken, "Single sign-on"],
    ] as const
  ).find(([, value]) => value !== undefined);
  if (unoffered) {
    const [field, , what] = unoffered;
    throw invalidField(field, `is not offered: ${what.toLowerCase()} is not available on this server; sign in with e-mail and password`, "not_offered");
  }
}

/**
 * Checks the e-mail and password and opens a new client session for the user. Every refusal of a
 * credential is the same 401 after the same work. The session insert, the end of the user's expired and
 * surplus sessions and the read of the user's record are one batch.
 */
export async function signIn(scope: TransportScope, input: SignInInput): Promise<SignedIn> {
  const { directory: db, env } = scope;
  refuseUnoffered(input);
  if (!input.email) throw invalidField("email", "can't be blank", "required");
  if (!input.password) throw invalidField("password", "can't be blank", "required");
  const email = input.email.trim().toLowerCase();
  const [rows] = await batch(db, [db.select().from(users).where(eq(users.email, email))]);
  const user = rows[0];
  const passwordOk = await verifyPassword(input.password, user?.passwordHash ?? (await standInHash()));
  if (!user || !user.passwordHash || !passwordOk) throw invalidCredentials();

  const accessToken = randomKey();
  const client = randomToken();
  const at = now();
  const expiresAt = at + lifespanMs(env);
  const recordRows = await writeThenRead(
    db,
    [
      db.insert(authSessions).values({ userId: user.id, clientId: client, tokenDigest: await sha256Hex(accessToken), expiresAt, createdAt: at }),
      db.delete(authSessions).where(
        and(
          eq(authSessions.userId, user.id),
          or(
            lte(authSessions.expiresAt, at),
            notInArray(
              authSessions.id,
              db
                .select({ id: authSessions.id })
                .from(authSessions)
                .where(eq(authSessions.userId, user.id))
                .orderBy(desc(authSessions.expiresAt), desc(authSessions.id))
                .limit(MAX_CLIENTS_PER_USER),
            ),
          ),
        ),
      ),
    ],
    userRecordQueries(db, user.id),
  );
  return { record: toUserRecord(...recordRows)!, accessToken, client, expiresAt };
}

/**
 * Ends the calling client's session; the user's other clients keep theirs. A live socket does not say
 * which sign-in opened it, so every live socket of the user closes: the other clients open theirs again.
 */
export async function signOut(scope: UserScope, client: string): Promise<void> {
  const { directory: db, actor: { user } } = scope;
  await write(db, [db.delete(authSessions).where(and(eq(authSessions.userId, user.id), eq(authSessions.clientId, client)))]);
  await closeLiveSockets(scope, user.id);
}

/**
 * A password reset request: when the e-mail is a user's, a single-use link (valid two hours, replacing
 * any earlier one) is written to the outgoing mail. The caller learns nothing either way.
 */
export async function requestPasswordReset(scope: TransportScope, input: { email: string }, resetLink: (token: string) => string): Promise<void> {
  const { directory: db } = scope;
  const email = input.email.trim().toLowerCase();
  const { token, digest } = await linkToken();
  const [rows] = await batch(db, [db.select({ id: users.id, name: users.name }).from(users).where(eq(users.email, email))]);
  const user = rows[0];
  const setToken = db.update(users).set({ resetPasswordTokenDigest: digest, resetPasswordExpiresAt: now() + RESET_TTL_MS }).where(eq(users.email, email));
  // an unknown e-mail costs the same write round trip (one that changes no row), so the time taken
  // does not tell who has a user
  if (!user) return void (await write(db, [setToken]));
  await write(db, [
    setToken,
    outgoingEmailStatement(db, {
      kind: "password_reset",
      recipients: [email],
      subject: "Reset your password",
      body: [
        `Hello ${user.name},`,
        "",
        "someone asked to reset the password of your edgedesk user.",
        `Choose a new password by opening this link within 2 hours (it works once): ${resetLink(token)}`,
        "",
        "If you did not ask for this, ignore this message: your password stays as it is.",
      ].join("\n"),
    }),
  ]);
}

const invalidResetToken = () => invalidField("reset_password_token", "is invalid or has expired", "invalid_token");

/**
 * Sets a new password with the token of a reset link, once. Every session of the user ends with it (as
 * Chatwoot's remove_tokens_after_password_reset); an unknown, used, replaced or expired token is one 422.
 */
export async function resetPassword(scope: TransportScope, input: { token: string; password: string }): Promise<void> {
  const { directory: db } = scope;
  const digest = await sha256Hex(input.token);
  const [rows] = await batch(db, [db.select({ id: users.id, expiresAt: users.resetPasswordExpiresAt }).from(users).where(eq(users.resetPasswordTokenDigest, digest))]);
  const user = rows[0];
  if (!user || (user.expiresAt ?? 0) <= now()) throw invalidResetToken();
  const passwordHash = await hashPassword(input.password);
  const at = now();
  // Guarded by the digest, so two requests racing with one link set the password once.
  const [updated] = await batch(db, [
    db
      .update(users)
      // as any new password: every sign-in ends, and the live feed's token is renewed
      .set({ passwordHash, pubsubToken: randomToken(), resetPasswordTokenDigest: null, resetPasswordExpiresAt: null, updatedAt: at })
      .where(and(eq(users.id, user.id), eq(users.resetPasswordTokenDigest, digest)))
      .returning({ id: users.id }),
    endSessionsStatement(db, user.id),
  ]);
  if (updated.length === 0) throw invalidResetToken();
  await closeLiveSockets(scope, user.id);
}
