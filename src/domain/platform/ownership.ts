/**
 * What a platform app reaches: the accounts, users and agent bots it created (Chatwoot's "permissible"
 * rule, grants in identity/platform-apps.ts). Each loader reads the object and the app's grant on it in
 * one round trip and answers 404 for an unknown id, then 403 for an object the app did not create.
 *
 * This folder sits above identity and people (it reads both), so neither of them depends on it.
 */
import { and, eq, inArray } from "drizzle-orm";
import { schema } from "../../db/client";
import { batch } from "../kernel/batch";
import type { PlatformScope } from "../kernel/scope";
import { type PermissibleType, assertOwned, grantQuery } from "../identity/platform-apps";
import type { AccountRow } from "../identity/rows";
import { type UserRecord, toUserRecord, userRecordQueries } from "../identity/users";
import { type AgentBotRecord, botTokenQuery } from "../people/agent-bots";

const { accounts, users, agentBots, accessTokens, platformAppPermissibles: grants } = schema;


/** Subquery: the ids of the objects of `type` the app created. */
const ownedIds = (scope: PlatformScope, type: PermissibleType) =>
  scope.directory
    .select({ id: grants.permissibleId })
    .from(grants)
    .where(and(eq(grants.platformAppId, scope.actor.platformAppId), eq(grants.permissibleType, type)));

export async function listOwnedAccounts(scope: PlatformScope): Promise<AccountRow[]> {
  const { directory: db } = scope;
  const [rows] = await batch(db, [db.select().from(accounts).where(inArray(accounts.id, ownedIds(scope, "Account"))).orderBy(accounts.id)]);
  return rows;
}

export async function ownedAccount(scope: PlatformScope, id: number): Promise<AccountRow> {
  const { directory: db } = scope;
  const [rows, grant] = await batch(db, [
    db.select().from(accounts).where(eq(accounts.id, id)),
    grantQuery(db, scope.actor.platformAppId, "Account", id),
  ]);
  return assertOwned(rows[0], grant, "Account", id);
}

/** Checks that the app created both the account and the user, before it makes one a member of the other. */
export async function assertOwnsAccountAndUser(scope: PlatformScope, accountId: number, userId: number): Promise<void> {
  const { directory: db } = scope;
  const [accountRows, accountGrant, userRows, userGrant] = await batch(db, [
    db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)),
    grantQuery(db, scope.actor.platformAppId, "Account", accountId),
    db.select({ id: users.id }).from(users).where(eq(users.id, userId)),
    grantQuery(db, scope.actor.platformAppId, "User", userId),
  ]);
  assertOwned(accountRows[0], accountGrant, "Account", accountId);
  assertOwned(userRows[0], userGrant, "User", userId);
}

export async function ownedUser(scope: PlatformScope, id: number): Promise<UserRecord> {
  const { directory: db } = scope;
  const [userRows, tokenRows, memberships, grant] = await batch(db, [
    ...userRecordQueries(db, id),
    grantQuery(db, scope.actor.platformAppId, "User", id),
  ]);
  return assertOwned(toUserRecord(userRows, tokenRows, memberships), grant, "User", id);
}

/** The app's bots with their keys, which the app that created them may see. */
export async function listOwnedAgentBots(scope: PlatformScope): Promise<AgentBotRecord[]> {
  const { directory: db } = scope;
  const owned = ownedIds(scope, "AgentBot");
  const [bots, tokens] = await batch(db, [
    db.select().from(agentBots).where(inArray(agentBots.id, owned)).orderBy(agentBots.id),
    db
      .select({ ownerId: accessTokens.ownerId, token: accessTokens.token })
      .from(accessTokens)
      .where(and(eq(accessTokens.ownerType, "AgentBot"), inArray(accessTokens.ownerId, owned))),
  ]);
  const keyOf = new Map(tokens.map((t) => [t.ownerId, t.token]));
  return bots.map((bot) => ({ bot, accessToken: keyOf.get(bot.id) ?? null }));
}

export async function ownedAgentBot(scope: PlatformScope, id: number): Promise<AgentBotRecord> {
  const { directory: db } = scope;
  const [rows, tokens, grant] = await batch(db, [
    db.select().from(agentBots).where(eq(agentBots.id, id)),
    botTokenQuery(db, id),
    grantQuery(db, scope.actor.platformAppId, "AgentBot", id),
  ]);
  const bot = assertOwned(rows[0], grant, "AgentBot", id);
  return { bot, accessToken: tokens[0]?.token ?? null };
}
