/**
 * Who is calling: the owner of a credential (an API key, or a signed-in client's token), and what it may
 * reach in one account. Each function makes exactly one round trip (one batch) to the directory, which
 * holds the keys, the users, the accounts with their shard, and the memberships (docs/shards.md).
 */
import { and, eq, sql } from "drizzle-orm";
import { type Database, builtOnce, decodePrefixed, now, prefixedColumns, rawSql, schema } from "../../db/client";
import { batch } from "../kernel/batch";
import { sha256Hex } from "./keys";
import type { Actor, TransportScope } from "../kernel/scope";
import type { AccountRow, AccountUserRow, UserRow } from "./rows";
import type { AgentBotRow } from "../people/rows";

const { accessTokens, authSessions, users, agentBots, accounts, accountUsers, agentBotInboxes } = schema;

/**
 * What a request presents: an API key, or the three headers of a sign-in (POST /auth/sign_in). A
 * signed-in client is its user, the same actor the user's key makes.
 */
export type Credential =
  | { kind: "key"; key: string }
  | { kind: "session"; accessToken: string; client: string; uid: string };

/** What the directory keeps of the key or session token: its SHA-256 digest, never the token. */
const digestOf = (credential: Credential) => sha256Hex(credential.kind === "key" ? credential.key : credential.accessToken);

/**
 * The credential's row with what it stands for, in one statement: the owner as a user or a bot and,
 * when an account is named, that account and the user's membership in it. Every authenticated request
 * runs it, so its text is built once (`builtOnce`) and only the values change; the joined tables' columns
 * are prefixed (`prefixedColumns`), as D1 keys a row's values by column name.
 */
const OWNER_AND_ACCOUNT = builtOnce(
  sql`${prefixedColumns(users, "user")}, ${prefixedColumns(agentBots, "bot")}, ${prefixedColumns(accounts, "account")}, ${prefixedColumns(accountUsers, "membership")}`,
);
const MEMBERSHIP_JOIN = builtOnce(sql`LEFT JOIN ${accountUsers} ON ${accountUsers.accountId} = ${accounts.id} AND ${accountUsers.userId} = ${users.id}`);

/** A key: its owner, a user or a bot (a platform app has no row here). */
const KEY_LOOKUP = builtOnce(
  sql`SELECT ${accessTokens.ownerType} AS owner_type, ${accessTokens.ownerId} AS owner_id, ${sql.raw(OWNER_AND_ACCOUNT)} FROM ${accessTokens}
    LEFT JOIN ${users} ON ${accessTokens.ownerType} = 'User' AND ${users.id} = ${accessTokens.ownerId}
    LEFT JOIN ${agentBots} ON ${accessTokens.ownerType} = 'AgentBot' AND ${agentBots.id} = ${accessTokens.ownerId}`,
);

/**
 * A live session of this client with this token; its user only while `uid` is still the user's e-mail
 * (an address changed since the sign-in, or another user's, finds nobody). Never a bot or platform app:
 * the bot join matches nothing.
 */
const SESSION_LOOKUP = builtOnce(
  sql`SELECT 'User' AS owner_type, ${authSessions.userId} AS owner_id, ${sql.raw(OWNER_AND_ACCOUNT)} FROM ${authSessions}
    LEFT JOIN ${agentBots} ON 0`,
);

function credentialLookup(db: Database, credential: Credential, digest: string, accountId: number | null) {
  const account = sql`LEFT JOIN ${accounts} ON ${accounts.id} = ${accountId} ${sql.raw(MEMBERSHIP_JOIN)}`;
  if (credential.kind === "key") {
    return rawSql(db, sql`${sql.raw(KEY_LOOKUP)} ${account} WHERE ${accessTokens.tokenDigest} = ${digest} LIMIT 1`);
  }
  const uid = credential.uid.trim().toLowerCase();
  return rawSql(
    db,
    sql`${sql.raw(SESSION_LOOKUP)} LEFT JOIN ${users} ON ${users.id} = ${authSessions.userId} AND ${users.email} = ${uid} ${account}
      WHERE ${authSessions.clientId} = ${credential.client} AND ${authSessions.tokenDigest} = ${digest} AND ${authSessions.expiresAt} > ${now()} LIMIT 1`,
  );
}

/** What the lookup found, decoded; null for an unknown key or a session that is not (or no longer) valid. */
function readLookup(raw: Record<string, unknown> | undefined) {
  if (!raw) return null;
  const user = decodePrefixed(users, "user", raw);
  const bot = decodePrefixed(agentBots, "bot", raw);
  return {
    actor: toActor({ ownerType: String(raw.owner_type), ownerId: Number(raw.owner_id) }, user, bot),
    account: decodePrefixed(accounts, "account", raw),
    membership: decodePrefixed(accountUsers, "membership", raw),
  };
}

function toActor(
  token: { ownerType: string; ownerId: number },
  user: UserRow | undefined,
  bot: AgentBotRow | undefined,
): Actor | null {
  if (token.ownerType === "User" && user) return { type: "user", user };
  if (token.ownerType === "AgentBot" && bot) return { type: "agent_bot", bot };
  if (token.ownerType === "PlatformApp") return { type: "platform_app", platformAppId: token.ownerId };
  return null;
}

/** The owner of `credential`, or null for an unknown key or a session that is not (or no longer) valid. */
export async function resolveCredential(scope: TransportScope, credential: Credential): Promise<Actor | null> {
  const { directory } = scope;
  const [[raw]] = await batch(directory, [credentialLookup(directory, credential, await digestOf(credential), null)]);
  return readLookup(raw)?.actor ?? null;
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
  const [[raw]] = await batch(directory, [credentialLookup(directory, credential, await digestOf(credential), accountId)]);
  const found = readLookup(raw);
  return { actor: found?.actor ?? null, account: found?.account, membership: found?.membership };
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
