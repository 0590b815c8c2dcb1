/**
 * Who is calling: the owner of an API key, and what it may reach in one account.
 * Each function makes exactly one database round trip (one batch).
 */
import { and, eq, inArray } from "drizzle-orm";
import { type Database, schema } from "../../db/client";
import { batch } from "../kernel/batch";
import { sha256Hex } from "./keys";
import type { Actor, TransportScope } from "../kernel/scope";
import type { AccountRow, AccountUserRow, UserRow } from "./rows";
import type { AgentBotRow } from "../people/rows";

const { accessTokens, users, agentBots, accounts, accountUsers, agentBotInboxes } = schema;

export type OwnerType = "User" | "AgentBot" | "PlatformApp";

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

/** The owner of `key`, or null for an unknown key. */
export async function resolveKey(scope: TransportScope, key: string): Promise<Actor | null> {
  const { db } = scope;
  const q = keyLookups(db, await sha256Hex(key));
  const [tokens, userRows, botRows] = await batch(db, [q.token, q.user, q.bot]);
  return toActor(tokens[0], userRows[0], botRows[0]);
}

export type AccountAccess = {
  actor: Actor | null;
  account: AccountRow | undefined;
  /** the user's membership in the account */
  membership: AccountUserRow | undefined;
  /** a system bot (no account of its own) may act in accounts where one of the inboxes uses it */
  botConnected: boolean;
};

/** The owner of `key` together with the account and the owner's standing in it. */
export async function resolveAccountAccess(scope: TransportScope, key: string, accountId: number): Promise<AccountAccess> {
  const { db } = scope;
  const q = keyLookups(db, await sha256Hex(key));
  const [tokens, userRows, botRows, accountRows, memberships, botInboxes] = await batch(db, [
    q.token,
    q.user,
    q.bot,
    db.select().from(accounts).where(eq(accounts.id, accountId)),
    db
      .select()
      .from(accountUsers)
      .where(and(eq(accountUsers.accountId, accountId), inArray(accountUsers.userId, q.ownerIds("User")))),
    db
      .select({ id: agentBotInboxes.id })
      .from(agentBotInboxes)
      .where(and(eq(agentBotInboxes.accountId, accountId), inArray(agentBotInboxes.agentBotId, q.ownerIds("AgentBot"))))
      .limit(1),
  ]);
  return {
    actor: toActor(tokens[0], userRows[0], botRows[0]),
    account: accountRows[0],
    membership: memberships[0],
    botConnected: botInboxes.length > 0,
  };
}
