import { and, eq } from "drizzle-orm";
import { type Database, lastInsertedId, now, schema } from "../db/client";
import type { AgentBotRow } from "./access";
import { randomKey, randomToken, sha256Hex } from "./keys";
import { grantStatement } from "./platform-apps";

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

/** Creates a bot owned by `accountId` (null: a system bot), with its own key. */
export async function createAgentBot(
  db: Database,
  accountId: number | null,
  input: AgentBotInput & { name: string },
  createdBy?: { platformAppId: number },
): Promise<AgentBotRecord> {
  const at = now();
  const key = randomKey();
  const newBotId = lastInsertedId(agentBots);
  const [rows] = await db.batch([
    db
      .insert(agentBots)
      .values({
        accountId,
        name: input.name,
        description: input.description ?? null,
        outgoingUrl: input.outgoingUrl ?? null,
        avatarUrl: input.avatarUrl ?? null,
        botType: input.botType ?? 0,
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

export async function updateAgentBot(db: Database, bot: AgentBotRow, input: AgentBotInput): Promise<AgentBotRecord> {
  const [rows, tokens] = await db.batch([
    db
      .update(agentBots)
      .set({ ...input, updatedAt: now() })
      .where(eq(agentBots.id, bot.id))
      .returning(),
    botTokenQuery(db, bot.id),
  ]);
  return { bot: rows[0], accessToken: tokens[0]?.token ?? null };
}

/** Deletes the bot and its key; inboxes using it lose it and conversations assigned to it are released. */
export async function deleteAgentBot(db: Database, botId: number) {
  await db.batch([
    db.update(conversations).set({ assigneeAgentBotId: null, updatedAt: now() }).where(eq(conversations.assigneeAgentBotId, botId)),
    db.delete(agentBotInboxes).where(eq(agentBotInboxes.agentBotId, botId)),
    db.delete(accessTokens).where(and(eq(accessTokens.ownerType, "AgentBot"), eq(accessTokens.ownerId, botId))),
    db
      .delete(platformAppPermissibles)
      .where(and(eq(platformAppPermissibles.permissibleType, "AgentBot"), eq(platformAppPermissibles.permissibleId, botId))),
    db.delete(agentBots).where(eq(agentBots.id, botId)),
  ]);
}
