/** Loaders for the objects a platform app reaches: each is one round trip (object and grant together). */
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { botTokenQuery, type AgentBotRecord } from "../../domain/people/agent-bots";
import { assertOwned, grantQuery } from "../../domain/identity/platform-apps";
import { type UserRecord, loadUserRecord } from "../../domain/identity/users";
import type { AppContext } from "../../http/app-env";
import { type AccountRow } from "../../domain/identity/rows";

function appId(c: AppContext) {
  const actor = c.var.actor;
  if (actor.type !== "platform_app") throw new Error("platform routes run behind platformAuth");
  return actor.platformAppId;
}

export async function ownedAccount(c: AppContext, id: number): Promise<AccountRow> {
  const db = c.var.db;
  const [rows, grant] = await db.batch([
    db.select().from(schema.accounts).where(eq(schema.accounts.id, id)),
    grantQuery(db, appId(c), "Account", id),
  ]);
  return assertOwned(rows[0], grant, "Account", id);
}

export async function ownedUser(c: AppContext, id: number): Promise<UserRecord> {
  const { record, extra } = await loadUserRecord(c.var.db, id, grantQuery(c.var.db, appId(c), "User", id));
  return assertOwned(record, extra[0], "User", id);
}

export async function ownedAgentBot(c: AppContext, id: number): Promise<AgentBotRecord> {
  const db = c.var.db;
  const [rows, tokens, grant] = await db.batch([
    db.select().from(schema.agentBots).where(eq(schema.agentBots.id, id)),
    botTokenQuery(db, id),
    grantQuery(db, appId(c), "AgentBot", id),
  ]);
  const bot = assertOwned(rows[0], grant, "AgentBot", id);
  return { bot, accessToken: tokens[0]?.token ?? null };
}

export { appId as platformAppId };
