import { and, desc, eq, ne, or, sql } from "drizzle-orm";
import { type Database, lastInsertedId, now, schema } from "../../db/client";
import { batch, write } from "../kernel/batch";
import { hashPassword, linkToken, randomKey, randomToken, sha256Hex, verifyPassword } from "./keys";
import { grantStatement } from "./platform-apps";
import { invalidField } from "../kernel/errors";
import { type UserRow } from "./rows";
import type { PlatformScope, TransportScope } from "../kernel/scope";
import { copyUserToShards, sameDatabase } from "./mirror";

const { users, accessTokens, authSessions, accountUsers, accounts, ssoTokens, inboxMembers, teamMembers, customFilters, conversations, platformAppPermissibles, notifications, notificationSettings, notificationSubscriptions, conversationParticipants } =
  schema;

export type UserInput = {
  name?: string;
  displayName?: string | null;
  email?: string;
  password?: string;
  messageSignature?: string | null;
  avatarUrl?: string | null;
  /** merged into the stored attributes */
  customAttributes?: Record<string, unknown>;
  /** merged into the stored settings */
  uiSettings?: Record<string, unknown>;
};

/** A user with what every user view shows: the API key and the accounts the user belongs to. */
export type UserRecord = {
  user: UserRow;
  accessToken: string | null;
  memberships: Array<{
    accountId: number;
    accountName: string;
    accountStatus: number;
    role: number;
    availability: number;
    autoOffline: boolean;
    activeAt: number | null;
  }>;
};

/** Statements that read a user's record; `toUserRecord` joins their results. */
export function userRecordQueries(db: Database, userId: number) {
  return [
    db.select().from(users).where(eq(users.id, userId)),
    db
      .select({ token: accessTokens.token })
      .from(accessTokens)
      .where(and(eq(accessTokens.ownerType, "User"), eq(accessTokens.ownerId, userId)))
      .limit(1),
    db
      .select({
        accountId: accountUsers.accountId,
        accountName: accounts.name,
        accountStatus: accounts.status,
        role: accountUsers.role,
        availability: accountUsers.availability,
        autoOffline: accountUsers.autoOffline,
        activeAt: accountUsers.activeAt,
      })
      .from(accountUsers)
      .innerJoin(accounts, eq(accounts.id, accountUsers.accountId))
      .where(eq(accountUsers.userId, userId))
      .orderBy(desc(sql`coalesce(${accountUsers.activeAt}, 0)`), accountUsers.id),
  ] as const;
}

export function toUserRecord(
  userRows: UserRow[],
  tokenRows: Array<{ token: string | null }>,
  memberships: UserRecord["memberships"],
): UserRecord | undefined {
  const user = userRows[0];
  return user && { user, accessToken: tokenRows[0]?.token ?? null, memberships };
}

/** The user and its view data, or undefined for an unknown user. */
export async function loadUserRecord(scope: TransportScope, userId: number): Promise<UserRecord | undefined> {
  const { directory: db } = scope;
  return toUserRecord(...(await batch(db, userRecordQueries(db, userId))));
}

/** The refusal of an address that is someone else's, the same whichever user holds it and however. */
export const emailTaken = () => invalidField("email", "has already been taken", "taken");

/**
 * Refuses an address another user has, or is waiting to confirm (a pending change holds its address, so
 * that nobody else can take it while the link is on its way).
 */
export async function assertEmailFree(db: Database, email: string, exceptUserId: number) {
  const [rows] = await batch(db, [
    db
      .select({ id: users.id })
      .from(users)
      .where(and(or(eq(users.email, email), eq(users.unconfirmedEmail, email)), ne(users.id, exceptUserId)))
      .limit(1),
  ]);
  if (rows[0]) throw emailTaken();
}

/**
 * The platform's user create. A user with this email (case-insensitive) that the calling app made is
 * returned unchanged, so a client that creates the same user twice gets it back (Chatwoot's rule). A user
 * that the app did not make is refused as taken: returning it would hand the app its key and make it its
 * owner. Otherwise the user is created, confirmed, with its own API key, and the app owns it. A user found
 * only by a pending (unconfirmed) address is not this user: the address is nobody's yet.
 */
export async function findOrCreateUser(scope: PlatformScope, input: UserInput & { name: string; email: string }): Promise<UserRecord> {
  const { directory: db, actor: createdBy } = scope;
  const [existing, owned] = await batch(db, [
    db.select({ id: users.id }).from(users).where(eq(users.email, input.email)),
    db
      .select({ userId: platformAppPermissibles.permissibleId })
      .from(platformAppPermissibles)
      .innerJoin(users, eq(users.id, platformAppPermissibles.permissibleId))
      .where(
        and(
          eq(platformAppPermissibles.platformAppId, createdBy.platformAppId),
          eq(platformAppPermissibles.permissibleType, "User"),
          eq(users.email, input.email),
        ),
      ),
  ]);
  if (existing[0]) {
    if (owned.length === 0) throw emailTaken();
    return (await loadUserRecord(scope, existing[0].id))!;
  }
  const created = await newUserStatements(db, {
    name: input.name,
    displayName: input.displayName ?? null,
    email: input.email,
    passwordHash: input.password ? await hashPassword(input.password) : null,
    messageSignature: input.messageSignature ?? null,
    avatarUrl: input.avatarUrl ?? null,
    customAttributes: input.customAttributes ?? {},
    uiSettings: input.uiSettings ?? {},
    confirmedAt: now(),
  });
  const [inserted] = await batch(db, [...created.statements, grantStatement(db, createdBy.platformAppId, "User", created.userId)]);
  return { user: inserted[0], accessToken: created.key, memberships: [] };
}

type NewUser = Omit<typeof users.$inferInsert, "id" | "pubsubToken" | "createdAt" | "updatedAt">;

/**
 * Statements that create a user with its own API key: the user insert (returning the row) first, then
 * the key. Later statements of the same batch refer to the new user as `userId`.
 */
export async function newUserStatements(db: Database, fields: NewUser) {
  const at = now();
  const key = randomKey();
  const userId = lastInsertedId(users);
  const statements = [
    db
      .insert(users)
      .values({ ...fields, pubsubToken: randomToken(), createdAt: at, updatedAt: at })
      .returning(),
    db.insert(accessTokens).values({ ownerType: "User", ownerId: userId, token: key, tokenDigest: await sha256Hex(key), createdAt: at }),
  ] as const;
  return { statements, userId, key };
}

/** The changes of `input` as column values; custom attributes and UI settings merge into the stored ones. */
export async function userChanges(user: UserRow, input: Omit<UserInput, "email">) {
  const { password, customAttributes, uiSettings, ...fields } = input;
  return {
    ...fields,
    // a new password ends every sign-in, and renews the live feed's token a sign-in could read (/cable)
    ...(password !== undefined && { passwordHash: await hashPassword(password), pubsubToken: randomToken() }),
    ...(customAttributes && { customAttributes: { ...user.customAttributes, ...customAttributes } }),
    ...(uiSettings && { uiSettings: { ...user.uiSettings, ...uiSettings } }),
    updatedAt: now(),
  };
}

/** Ends every sign-in of the user (POST /auth/sign_in): in the batch of a password change or a delete. */
export function endSessionsStatement(db: Database, userId: number) {
  return db.delete(authSessions).where(eq(authSessions.userId, userId));
}

/**
 * After a change that ends some of the user's credentials (a sign-in, every sign-in, the key): the
 * user's live sockets close in each of their accounts, and what they open again is checked afresh.
 * `accountIds` when the memberships are known (they may be gone by now), else they are read.
 */
export async function closeLiveSockets(scope: TransportScope, userId: number, accountIds?: number[]) {
  const { directory: db } = scope;
  const ids = accountIds ?? (await batch(db, [db.select({ accountId: accountUsers.accountId }).from(accountUsers).where(eq(accountUsers.userId, userId))]))[0].map((m) => m.accountId);
  await Promise.all(ids.map((accountId) => scope.ports.feed.accessChanged(accountId, [userId])));
}

/** What clears a user's pending e-mail change and its confirmation link. */
export const NO_PENDING_EMAIL = { unconfirmedEmail: null, confirmationTokenDigest: null, confirmationExpiresAt: null } as const;

/**
 * Applies `input` as the platform app that owns the user asks: a new email takes effect at once (the app
 * administers the user's account) and replaces any change the user was waiting to confirm; an address
 * another user has or waits for is refused.
 */
export async function updateUser(scope: TransportScope, user: UserRow, input: UserInput): Promise<void> {
  const { directory: db } = scope;
  const { email, ...rest } = input;
  const newEmail = email !== undefined && email !== user.email ? email : undefined;
  if (newEmail !== undefined) await assertEmailFree(db, newEmail, user.id);
  await write(db, [
    db
      .update(users)
      .set({ ...(await userChanges(user, rest)), ...(newEmail !== undefined && { email: newEmail, ...NO_PENDING_EMAIL }) })
      .where(eq(users.id, user.id)),
    // a new password ends the user's signed-in clients, as the user's own change does
    ...(rest.password !== undefined ? [endSessionsStatement(db, user.id)] : []),
  ]);
  await copyUserToShards(scope, user.id);
  if (rest.password !== undefined) await closeLiveSockets(scope, user.id);
}

/** Refuses a change of the user's own password or e-mail without the current password. */
export async function assertCurrentPassword(user: UserRow, currentPassword: string | undefined, change: "password" | "email") {
  if (currentPassword === undefined) throw invalidField("current_password", `is required to change the ${change}`, "required");
  if (!(await verifyPassword(currentPassword, user.passwordHash))) {
    throw invalidField("current_password", "is not correct", "invalid_current_password");
  }
}

/**
 * Deletes the user, its key and memberships; conversations it was assigned to become unassigned. Each
 * shard of the user's accounts loses what the user had there first, then the directory: a failure half
 * way leaves the user in the directory, so repeating the delete finds it and finishes.
 */
export async function deleteUser(scope: TransportScope, userId: number) {
  const { directory } = scope;
  const [memberships] = await batch(directory, [directory.select({ accountId: accountUsers.accountId }).from(accountUsers).where(eq(accountUsers.userId, userId))]);
  const removal = (db: Database) => [
    db.update(conversations).set({ assigneeId: null, updatedAt: now() }).where(eq(conversations.assigneeId, userId)),
    db.delete(accessTokens).where(and(eq(accessTokens.ownerType, "User"), eq(accessTokens.ownerId, userId))),
    db.delete(ssoTokens).where(eq(ssoTokens.userId, userId)),
    endSessionsStatement(db, userId),
    db.delete(accountUsers).where(eq(accountUsers.userId, userId)),
    db.delete(inboxMembers).where(eq(inboxMembers.userId, userId)),
    db.delete(teamMembers).where(eq(teamMembers.userId, userId)),
    db.delete(customFilters).where(eq(customFilters.userId, userId)),
    db.delete(notifications).where(eq(notifications.userId, userId)),
    db.delete(notificationSettings).where(eq(notificationSettings.userId, userId)),
    db.delete(notificationSubscriptions).where(eq(notificationSubscriptions.userId, userId)),
    db.delete(conversationParticipants).where(eq(conversationParticipants.userId, userId)),
    db
      .delete(platformAppPermissibles)
      .where(and(eq(platformAppPermissibles.permissibleType, "User"), eq(platformAppPermissibles.permissibleId, userId))),
    db.delete(users).where(eq(users.id, userId)),
  ];
  if (!sameDatabase(scope)) {
    const shards = new Set<number>();
    for (const { accountId } of memberships) {
      const placement = await scope.shards.placementOf(accountId, { writes: true });
      if (placement) shards.add(placement.shard);
    }
    await Promise.all([...shards].map((shard) => write(scope.shards.open(shard), removal(scope.shards.open(shard)))));
  }
  await write(directory, removal(directory));
  await closeLiveSockets(scope, userId, memberships.map((m) => m.accountId));
}

const LOGIN_TOKEN_TTL_MS = 5 * 60 * 1000;

/** A single-use login token, valid for five minutes; only its digest is stored. */
export async function issueLoginToken(scope: TransportScope, userId: number): Promise<string> {
  const { directory: db } = scope;
  const { token, digest } = await linkToken();
  const at = now();
  await write(db, [
    db.insert(ssoTokens).values({ userId, tokenDigest: digest, expiresAt: at + LOGIN_TOKEN_TTL_MS, createdAt: at }),
  ]);
  return token;
}
