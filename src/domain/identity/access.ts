/**
 * Who is calling: the owner of a credential (an API key, or a signed-in client's token), and what it may
 * reach in one account. Each function makes exactly one round trip (one batch) to the directory, which
 * holds the keys, the users, the accounts with their shard, and the memberships (README "Shards").
 */
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import { type Database, now, schema } from "../../db/client";
import { batch } from "../kernel/batch";
import { sha256Hex } from "./keys";
import type { Actor, TransportScope } from "../kernel/scope";
import type { AccountRow, AccountUserRow, UserRow } from "./rows";
import type { AgentBotRow } from "../people/rows";

const { accessTokens, authSessions, users, agentBots, accounts, accountUsers, agentBotInboxes } = schema;

export type OwnerType = "User" | "AgentBot" | "PlatformApp";

/**
 * What a request presents: an API key, or the three headers of a sign-in (POST /auth/sign_in). A
 * signed-in client is its user, the same actor the user's key makes.
 */
export type Credential =
  | { kind: "key"; key: string }
  | { kind: "session"; accessToken: string; client: string; uid: string };

async function credentialLookups(db: Database, credential: Credential) {
  if (credential.kind === "key") return keyLookups(db, await sha256Hex(credential.key));
  return sessionLookups(db, credential.client, await sha256Hex(credential.accessToken), credential.uid.trim().toLowerCase());
}

/**
 * A live session of this client with this token; its user only while `uid` is still the user's e-mail
 * (an address changed since the sign-in, or another user's, finds nobody). Never a bot or platform app.
 */
function sessionLookups(db: Database, client: string, digest: string, uid: string) {
  const session = and(eq(authSessions.clientId, client), eq(authSessions.tokenDigest, digest), gt(authSessions.expiresAt, now()));
  const userIds = db
    .select({ id: authSessions.userId })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(and(session, eq(users.email, uid)));
  const ownerIds = (type: OwnerType) => (type === "User" ? userIds : db.select({ id: authSessions.userId }).from(authSessions).where(sql`0`));
  return {
    ownerIds,
    token: db.select({ ownerType: sql<string>`'User'`, ownerId: authSessions.userId }).from(authSessions).where(session),
    user: db.select().from(users).where(inArray(users.id, userIds)),
    bot: db.select().from(agentBots).where(inArray(agentBots.id, ownerIds("AgentBot"))),
  };
}

function keyLookups(db: Database, digest: string) {
  const ownerIds = (type: OwnerType) =>
    db
      .select({ id: accessTokens.ownerId })
      .from(accessTokens)
      .where(and(eq(accessTokens.tokenDigest, digest), eq(accessTokens.ownerType, type)));
  return {
    ownerIds,
    token: db
      .select({ ownerType: accessTokens.ownerType, ownerId: accessTokens.ownerId })
      .from(accessTokens)
      .where(eq(accessTokens.tokenDigest, digest)),
    user: db.select().from(users).where(inArray(users.id, ownerIds("User"))),
    bot: db.select().from(agentBots).where(inArray(agentBots.id, ownerIds("AgentBot"))),
  };
}

function toActor(
  token: { ownerType: string; ownerId: number } | undefined,
  user: UserRow | undefined,
  bot: AgentBotRow | undefined,
): Actor | null {
  if (!token) return null;
  if (token.ownerType === "User" && user) return { type: "user", user };
  if (token.ownerType === "AgentBot" && bot) return { type: "agent_bot", bot };
  if (token.ownerType === "PlatformApp") return { type: "platform_app", platformAppId: token.ownerId };
  return null;
}

/** The owner of `credential`, or null for an unknown key or a session that is not (or no longer) valid. */
export async function resolveCredential(scope: TransportScope, credential: Credential): Promise<Actor | null> {
  const { directory } = scope;
  const q = await credentialLookups(directory, credential);
  const [tokens, userRows, botRows] = await batch(directory, [q.token, q.user, q.bot]);
  return toActor(tokens[0], userRows[0], botRows[0]);
}

export type AccountAccess = {
  actor: Actor | null;
  /** the account as the directory has it, with the shard its rows are on */
  account: AccountRow | undefined;
  /** the user's membership in the account */
  membership: AccountUserRow | undefined;
};

/** The owner of `credential` together with the account and the owner's standing in it, from the directory. */
export async function resolveAccountAccess(scope: TransportScope, credential: Credential, accountId: number): Promise<AccountAccess> {
  const { directory } = scope;
  const q = await credentialLookups(directory, credential);
  const [tokens, userRows, botRows, accountRows, memberships] = await batch(directory, [
    q.token,
    q.user,
    q.bot,
    directory.select().from(accounts).where(eq(accounts.id, accountId)),
    directory
      .select()
      .from(accountUsers)
      .where(and(eq(accountUsers.accountId, accountId), inArray(accountUsers.userId, q.ownerIds("User")))),
  ]);
  return { actor: toActor(tokens[0], userRows[0], botRows[0]), account: accountRows[0], membership: memberships[0] };
}

/**
 * Whether a system bot (one with no account of its own) serves one of the account's inboxes, which lets
 * it act in the account. Read on the account's shard, so only a system bot's request pays for it.
 */
export async function systemBotConnected(scope: TransportScope, accountId: number, botId: number): Promise<boolean> {
  const { db } = scope;
  const [rows] = await batch(db, [
    db
      .select({ id: agentBotInboxes.id })
      .from(agentBotInboxes)
      .where(and(eq(agentBotInboxes.accountId, accountId), eq(agentBotInboxes.agentBotId, botId)))
      .limit(1),
  ]);
  return rows.length > 0;
}
