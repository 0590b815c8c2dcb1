/**
 * A user's changes to their own record (PUT /api/v1/profile), and the confirmation of a new e-mail.
 *
 * An e-mail change does not take effect when asked, as with Chatwoot's reconfirmable sign-in: the address
 * waits as `unconfirmed_email` and a single-use link goes to it. Until it is followed the user keeps the
 * old address and nobody finds the user by the new one, so a user cannot claim an address they do not
 * receive mail at (a platform app provisioning that address later gets a new user, never this one).
 */
import { and, eq, sql } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { batch, write } from "../kernel/batch";
import { invalidField, notFound } from "../kernel/errors";
import { outgoingEmailStatement } from "../kernel/outgoing-email";
import { AVAILABILITIES, AVAILABILITY } from "../kernel/enums";
import { linkToken, randomToken, sha256Hex } from "./keys";
import { replaceKeyStatements } from "./key-rows";
import type { TransportScope, UserScope } from "../kernel/scope";
import { NO_PENDING_EMAIL, type UserInput, assertCurrentPassword, assertEmailFree, closeLiveSockets, endSessionsStatement, userChanges } from "./users";
import { copyIdentityToShards, copyUserToShards } from "./mirror";

const { users, accountUsers } = schema;

const CONFIRMATION_TTL_MS = 24 * 60 * 60 * 1000;

export type ProfileInput = Omit<UserInput, "email" | "password"> & {
  email?: string;
  password?: string;
  currentPassword?: string;
};

/**
 * Applies the user's own changes in one write, or none of them: a password or e-mail change needs the
 * current password; a new e-mail another user has or waits for is refused. `confirmationLink` turns the
 * token into the link the mail carries (the route knows the service's address).
 */
export async function updateOwnProfile(scope: UserScope, input: ProfileInput, confirmationLink: (token: string) => string): Promise<void> {
  const { directory: db, actor: { user } } = scope;
  const { email, currentPassword, ...rest } = input;
  const newEmail = email !== undefined && email !== user.email ? email : undefined;
  if (rest.password !== undefined) await assertCurrentPassword(user, currentPassword, "password");
  else if (newEmail !== undefined) await assertCurrentPassword(user, currentPassword, "email");
  if (newEmail !== undefined) await assertEmailFree(db, newEmail, user.id);

  const changes = await userChanges(user, rest);
  // A new password ends every signed-in client of the user (the key stays: it is not a sign-in).
  const endSessions = rest.password !== undefined ? [endSessionsStatement(db, user.id)] : [];
  if (newEmail === undefined) {
    await write(db, [db.update(users).set(changes).where(eq(users.id, user.id)), ...endSessions]);
    await copyUserToShards(scope, user.id);
    if (rest.password !== undefined) await closeLiveSockets(scope, user.id);
    return;
  }
  // A new request replaces any earlier one: only the latest link works.
  const { token, digest } = await linkToken();
  await write(db, [
    ...endSessions,
    db
      .update(users)
      .set({
        ...changes,
        unconfirmedEmail: newEmail,
        confirmationTokenDigest: digest,
        confirmationExpiresAt: now() + CONFIRMATION_TTL_MS,
      })
      .where(eq(users.id, user.id)),
    outgoingEmailStatement(db, {
      kind: "email_confirmation",
      recipients: [newEmail],
      subject: "Confirm your new e-mail address",
      body: [
        `Hello ${user.name},`,
        "",
        `you asked to change the e-mail address of your edgedesk user to ${newEmail}.`,
        `Confirm it by opening this link within 24 hours (it works once): ${confirmationLink(token)}`,
        "",
        "If you did not ask for this, ignore this message: nothing changes.",
      ].join("\n"),
    }),
  ]);
  await copyUserToShards(scope, user.id);
  if (rest.password !== undefined) await closeLiveSockets(scope, user.id);
}

/**
 * A new API key for the calling user (POST /api/v1/profile/reset_access_token); the old one is refused
 * from the commit on. The feed's token, which the old key could read in the profile, is renewed with it,
 * and the user's live sockets close in every account: what they open again is checked with the new
 * credentials. Sign-ins are not the key and stay.
 */
export async function resetOwnKey(scope: UserScope): Promise<void> {
  const { directory: db, actor: { user } } = scope;
  const { statements } = await replaceKeyStatements(db, "User", user.id);
  await write(db, [...statements, db.update(users).set({ pubsubToken: randomToken(), updatedAt: now() }).where(eq(users.id, user.id))]);
  await copyUserToShards(scope, user.id);
  await closeLiveSockets(scope, user.id);
}

const invalidToken = () => invalidField("confirmation_token", "is invalid or has expired", "invalid_token");

/**
 * Follows a confirmation link: the user's pending address becomes its e-mail. An unknown, used, replaced
 * or expired token is one and the same refusal, so the answer tells nothing about which tokens existed.
 * An address that another user took while the link waited stays theirs (422 taken; nothing changes).
 */
export async function confirmEmail(scope: TransportScope, token: string): Promise<{ email: string }> {
  const { directory: db } = scope;
  const digest = await sha256Hex(token);
  const [rows] = await batch(db, [db.select().from(users).where(eq(users.confirmationTokenDigest, digest))]);
  const user = rows[0];
  if (!user || !user.unconfirmedEmail || (user.confirmationExpiresAt ?? 0) <= now()) throw invalidToken();
  const email = user.unconfirmedEmail;
  await assertEmailFree(db, email, user.id);
  const at = now();
  // Guarded by the digest, so two requests racing with one link confirm once; the unique index on
  // email refuses an address taken between the check above and this write.
  const [updated] = await batch(db, [
    db
      .update(users)
      .set({ email, ...NO_PENDING_EMAIL, confirmedAt: user.confirmedAt ?? at, updatedAt: at })
      .where(and(eq(users.id, user.id), eq(users.confirmationTokenDigest, digest)))
      .returning({ id: users.id }),
  ]);
  if (updated.length === 0) throw invalidToken();
  await copyUserToShards(scope, user.id);
  return { email };
}

/**
 * Makes `accountId` the user's active account: the one the profile shows as `account_id` (and with it
 * `role`), which Chatwoot's agent apps address. The active account is the membership with the latest
 * `active_at`, so this moves that membership's `active_at` past every other of the user's: now, or one
 * millisecond after the latest, should that be later (two switches within one millisecond keep their
 * order). One statement: an account the user is not a member of matches no row, is a 404, and changes
 * nothing.
 */
export async function setActiveAccount(scope: UserScope, accountId: number): Promise<void> {
  const { directory: db, actor: { user } } = scope;
  const latestOther = sql`(select coalesce(max(${accountUsers.activeAt}), 0) + 1 from ${accountUsers} where ${accountUsers.userId} = ${user.id} and ${accountUsers.accountId} <> ${accountId})`;
  const at = now();
  const [updated] = await batch(db, [
    db
      .update(accountUsers)
      .set({ activeAt: sql`max(${at}, ${latestOther})`, updatedAt: at })
      .where(and(eq(accountUsers.userId, user.id), eq(accountUsers.accountId, accountId)))
      .returning({ accountId: accountUsers.accountId }),
  ]);
  if (updated.length === 0) throw notFound("Account", accountId, "account_id");
  await copyIdentityToShards(scope, [accountId], { userIds: [user.id] });
}

/**
 * POST /api/v1/profile/availability: the availability (online, busy, offline) the user chooses in one of
 * their accounts; kept on the membership, and told to the account's live feed, whose presence shows it
 * while the user is live. An account the user is not a member of is a 404 and changes nothing.
 */
export async function setOwnAvailability(scope: UserScope, accountId: number, availability: (typeof AVAILABILITIES)[number]): Promise<void> {
  const { directory: db, actor: { user } } = scope;
  const [updated] = await batch(db, [
    db
      .update(accountUsers)
      .set({ availability: AVAILABILITY[availability], updatedAt: now() })
      .where(and(eq(accountUsers.userId, user.id), eq(accountUsers.accountId, accountId)))
      .returning({ accountId: accountUsers.accountId }),
  ]);
  if (updated.length === 0) throw notFound("Account", accountId, "account_id");
  await copyIdentityToShards(scope, [accountId], { userIds: [user.id] });
  await scope.ports.feed.availabilityChanged(accountId, user.id, availability);
}
