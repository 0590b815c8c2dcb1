import { and, eq, inArray, isNull, or } from "drizzle-orm";
import { type Database, lastInsertedId, now, schema } from "../../db/client";
import { batch, write } from "../kernel/batch";
import { AGENT_BOT_TYPE } from "../kernel/enums";
import { randomKey, randomToken, sha256Hex } from "../identity/keys";
import { grantStatement } from "../identity/platform-apps";
import { replaceKeyStatements } from "../identity/key-rows";
import { type AccountScope, type TransportScope } from "../kernel/scope";
import { conflict, invalid, notFound } from "../kernel/errors";
import { refusedTarget } from "../kernel/target-url";
import { type AgentBotRow } from "./rows";
import { copyIdentityToShards, copySystemBotsToShards, sameDatabase } from "../identity/mirror";

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
  // bots and their keys are the directory's (docs/shards.md); the shards that use a bot get its copy after
  const { directory: db } = scope;
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
  await copyBotToShards(scope, rows[0].accountId);
  return { bot: rows[0], accessToken: key };
}

export async function updateAgentBot(scope: TransportScope, bot: AgentBotRow, input: AgentBotInput): Promise<AgentBotRecord> {
  checkOutgoingUrl(scope, input);
  const { directory: db } = scope;
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
  if (rows[0].accountId !== bot.accountId) await removeBotCopies(scope, bot, { release: false });
  await copyBotToShards(scope, rows[0].accountId);
  return { bot: rows[0], accessToken: tokens[0]?.token ?? null };
}

/**
 * Deletes the bot and its key; inboxes using it lose it and conversations assigned to it are released.
 * The directory goes first (the key stops working), then the shards that used the bot.
 */
export async function deleteAgentBot(scope: TransportScope, bot: AgentBotRow) {
  const { directory } = scope;
  await write(directory, [
    directory.delete(accessTokens).where(and(eq(accessTokens.ownerType, "AgentBot"), eq(accessTokens.ownerId, bot.id))),
    directory
      .delete(platformAppPermissibles)
      .where(and(eq(platformAppPermissibles.permissibleType, "AgentBot"), eq(platformAppPermissibles.permissibleId, bot.id))),
    directory.delete(agentBots).where(eq(agentBots.id, bot.id)),
  ]);
  await removeBotCopies(scope, bot, { release: true });
}

/** The shards that may use `bot`: its account's, or every shard for a system bot. */
async function shardsUsing(scope: TransportScope, bot: Pick<AgentBotRow, "accountId">): Promise<Database[]> {
  if (bot.accountId === null) return Array.from({ length: scope.shards.count }, (_, shard) => scope.shards.open(shard));
  const db = await scope.shards.ofAccount(bot.accountId);
  return db ? [db] : [];
}

/**
 * The bot's copies leave the shards that used it (deleted, or moved to another account). A deleted bot is
 * also released: inboxes lose it and conversations assigned to it are unassigned.
 */
async function removeBotCopies(scope: TransportScope, bot: AgentBotRow, { release }: { release: boolean }) {
  const botId = bot.id;
  // on libSQL the shard is the directory, whose row is the bot itself
  const copy = sameDatabase(scope) ? [] : [(db: Database) => db.delete(agentBots).where(eq(agentBots.id, botId))];
  const released = release
    ? [
        (db: Database) => db.update(conversations).set({ assigneeAgentBotId: null, updatedAt: now() }).where(eq(conversations.assigneeAgentBotId, botId)),
        (db: Database) => db.delete(agentBotInboxes).where(eq(agentBotInboxes.agentBotId, botId)),
      ]
    : [];
  const statements = [...released, ...copy];
  if (statements.length === 0) return;
  await Promise.all((await shardsUsing(scope, bot)).map((db) => write(db, statements.map((statement) => statement(db)))));
}

/** Copies the bots of `accountId` to its shard, or the system bots to every shard. */
const copyBotToShards = (scope: TransportScope, accountId: number | null) =>
  accountId === null ? copySystemBotsToShards(scope) : copyIdentityToShards(scope, [accountId], { userIds: [] });

// ---------------------------------------------------------------- inside an account

/** The bots an account may use: its own and the system bots (no account). */
export const usableBy = (accountId: number) => or(eq(agentBots.accountId, accountId), isNull(agentBots.accountId));

export async function listAccountAgentBots(scope: AccountScope): Promise<AgentBotRecord[]> {
  // with their keys, which only the directory holds
  const { directory: db, accountId } = scope;
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
  const { directory: db, accountId } = scope;
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
  const { bot } = await findAccountAgentBot(scope, botId, { ownOnly: true });
  await deleteAgentBot(scope, bot);
}

/** A new key for one of the account's bots; the old one stops working at once. */
export async function resetAgentBotKey(scope: AccountScope, botId: number): Promise<AgentBotRecord> {
  const { bot } = await findAccountAgentBot(scope, botId, { ownOnly: true });
  const { statements, key } = await replaceKeyStatements(scope.directory, "AgentBot", bot.id);
  await write(scope.directory, [...statements]);
  return { bot, accessToken: key };
}
