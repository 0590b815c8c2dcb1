import { and, eq, inArray, isNull, or } from "drizzle-orm";
import { type Database, lastInsertedId, now, schema } from "../../db/client";
import { batch, write } from "../kernel/batch";
import { AGENT_BOT_TYPE } from "../kernel/enums";
import { randomKey, randomToken, sha256Hex } from "../identity/keys";
import { grantStatement } from "../identity/platform-apps";
import { type AccountScope, type TransportScope } from "../kernel/scope";
import { conflict, invalid, notFound } from "../kernel/errors";
import { refusedTarget } from "../kernel/target-url";
import { type AgentBotRow } from "./rows";

const { agentBots, accessTokens, agentBotInboxes, conversations, platformAppPermissibles } = schema;

export type AgentBotInput = {
  name?: string;
  /** null: a system bot */
  accountId?: number | null;
  description?: string | null;
  outgoingUrl?: string | null;
  avatarUrl?: string | null;
  botType?: number;
  botConfig?: Record<string, unknown>;
};

/** An agent bot with its API key, which administrators and the owning platform app may see. */
export type AgentBotRecord = { bot: AgentBotRow; accessToken: string | null };

export function botTokenQuery(db: Database, botId: number) {
  return db
    .select({ token: accessTokens.token })
    .from(accessTokens)
    .where(and(eq(accessTokens.ownerType, "AgentBot"), eq(accessTokens.ownerId, botId)));
}


/** A bot's `outgoing_url` must be a receiver the target policy allows, like an account webhook's URL. */
function checkOutgoingUrl(scope: TransportScope, input: AgentBotInput) {
  const errors = refusedTarget(scope.env, "outgoing_url", input.outgoingUrl);
  if (errors.length > 0) throw invalid(errors);
}

/** Creates a bot owned by `accountId` (null: a system bot), with its own key. */
export async function createAgentBot(
  scope: TransportScope,
  accountId: number | null,
  input: AgentBotInput & { name: string },
  createdBy?: { platformAppId: number },
): Promise<AgentBotRecord> {
  checkOutgoingUrl(scope, input);
  const { db } = scope;
  const at = now();
  const key = randomKey();
  const newBotId = lastInsertedId(agentBots);
  const [rows] = await batch(db, [
    db
      .insert(agentBots)
      .values({
        accountId,
        name: input.name,
        description: input.description ?? null,
        outgoingUrl: input.outgoingUrl ?? null,
        avatarUrl: input.avatarUrl ?? null,
        botType: input.botType ?? AGENT_BOT_TYPE.webhook,
        botConfig: input.botConfig ?? {},
        secret: randomToken(),
        createdAt: at,
        updatedAt: at,
      })
      .returning(),
    db.insert(accessTokens).values({ ownerType: "AgentBot", ownerId: newBotId, token: key, tokenDigest: await sha256Hex(key), createdAt: at }),
    ...(createdBy ? [grantStatement(db, createdBy.platformAppId, "AgentBot", newBotId)] : []),
  ]);
  return { bot: rows[0], accessToken: key };
}

export async function updateAgentBot(scope: TransportScope, bot: AgentBotRow, input: AgentBotInput): Promise<AgentBotRecord> {
  checkOutgoingUrl(scope, input);
  const { db } = scope;
  const [rows, tokens] = await batch(db, [
    db
      .update(agentBots)
      .set({ ...input, updatedAt: now() })
      .where(and(bot.accountId === null ? isNull(agentBots.accountId) : eq(agentBots.accountId, bot.accountId), eq(agentBots.id, bot.id)))
      .returning(),
    botTokenQuery(db, bot.id),
  ]);
  // another request moved the bot to another account (or deleted it) since it was read
  if (!rows[0]) throw conflict(`Agent bot ${bot.id} changed while this request ran; read it and try again`, "changed_meanwhile");
  return { bot: rows[0], accessToken: tokens[0]?.token ?? null };
}

/** Deletes the bot and its key; inboxes using it lose it and conversations assigned to it are released. */
export async function deleteAgentBot(scope: TransportScope, botId: number) {
  const { db } = scope;
  await write(db, [
    db.update(conversations).set({ assigneeAgentBotId: null, updatedAt: now() }).where(eq(conversations.assigneeAgentBotId, botId)),
    db.delete(agentBotInboxes).where(eq(agentBotInboxes.agentBotId, botId)),
    db.delete(accessTokens).where(and(eq(accessTokens.ownerType, "AgentBot"), eq(accessTokens.ownerId, botId))),
    db
      .delete(platformAppPermissibles)
      .where(and(eq(platformAppPermissibles.permissibleType, "AgentBot"), eq(platformAppPermissibles.permissibleId, botId))),
    db.delete(agentBots).where(eq(agentBots.id, botId)),
  ]);
}

// ---------------------------------------------------------------- inside an account

/** The bots an account may use: its own and the system bots (no account). */
export const usableBy = (accountId: number) => or(eq(agentBots.accountId, accountId), isNull(agentBots.accountId));

export async function listAccountAgentBots(scope: AccountScope): Promise<AgentBotRecord[]> {
  const { db, accountId } = scope;
  const ownIds = db.select({ id: agentBots.id }).from(agentBots).where(eq(agentBots.accountId, accountId));
  const [bots, tokens] = await batch(db, [
    db.select().from(agentBots).where(usableBy(accountId)).orderBy(agentBots.id),
    db
      .select({ ownerId: accessTokens.ownerId, token: accessTokens.token })
      .from(accessTokens)
      .where(and(eq(accessTokens.ownerType, "AgentBot"), inArray(accessTokens.ownerId, ownIds))),
  ]);
  const keyOf = new Map(tokens.map((t) => [t.ownerId, t.token]));
  return bots.map((bot) => ({ bot, accessToken: keyOf.get(bot.id) ?? null }));
}

/**
 * One bot the account may see: its own, or (unless `ownOnly`) a system bot. Changes are for the
 * account's own bots only, so a system bot is a 404 there, as in Chatwoot.
 */
export async function findAccountAgentBot(scope: AccountScope, botId: number, options: { ownOnly: boolean }): Promise<AgentBotRecord> {
  const { db, accountId } = scope;
  const [rows, tokens] = await batch(db, [
    db
      .select()
      .from(agentBots)
      .where(and(eq(agentBots.id, botId), options.ownOnly ? eq(agentBots.accountId, accountId) : usableBy(accountId))),
    botTokenQuery(db, botId),
  ]);
  if (!rows[0]) throw notFound("Agent bot", botId);
  return { bot: rows[0], accessToken: rows[0].accountId === accountId ? (tokens[0]?.token ?? null) : null };
}

export const createAccountAgentBot = (scope: AccountScope, input: AgentBotInput & { name: string }) =>
  createAgentBot(scope, scope.accountId, input);

export async function updateAccountAgentBot(scope: AccountScope, botId: number, input: AgentBotInput): Promise<AgentBotRecord> {
  const { bot } = await findAccountAgentBot(scope, botId, { ownOnly: true });
  return updateAgentBot(scope, bot, input);
}

export async function deleteAccountAgentBot(scope: AccountScope, botId: number) {
  await findAccountAgentBot(scope, botId, { ownOnly: true });
  await deleteAgentBot(scope, botId);
}

/** A new key for one of the account's bots; the old one stops working at once. */
export async function resetAgentBotKey(scope: AccountScope, botId: number): Promise<AgentBotRecord> {
  const { bot } = await findAccountAgentBot(scope, botId, { ownOnly: true });
  const key = randomKey();
  const at = now();
  // Replace rather than update, so a bot that somehow lost its key row gets one.
  await write(scope.db, [
    scope.db.delete(accessTokens).where(and(eq(accessTokens.ownerType, "AgentBot"), eq(accessTokens.ownerId, bot.id))),
    scope.db.insert(accessTokens).values({ ownerType: "AgentBot", ownerId: bot.id, token: key, tokenDigest: await sha256Hex(key), createdAt: at }),
  ]);
  return { bot, accessToken: key };
}
