import { and, eq, inArray } from "drizzle-orm";
import { Hono } from "hono";
import type { z } from "zod";
import { schema } from "../../db/client";
import { type AgentBotRecord, createAgentBot, deleteAgentBot, updateAgentBot } from "../../domain/people/agent-bots";
import type { AppEnv } from "../../http/app-env";
import { validate } from "../../http/validate";
import { IdParam } from "../../schemas/common";
import { PlatformAgentBotCreate, PlatformAgentBotUpdate } from "../../schemas/platform";
import { agentBotView } from "../../views/agent-bots";
import { ownedAccount, ownedAgentBot, platformAppId } from "./owned";

const toBotInput = (body: z.infer<typeof PlatformAgentBotUpdate>) => ({
  name: body.name,
  description: body.description,
  outgoingUrl: body.outgoing_url,
  avatarUrl: body.avatar_url,
  botConfig: body.bot_config,
});

const view = (record: AgentBotRecord) => agentBotView(record, { withKey: true });

export const platformAgentBots = new Hono<AppEnv>()
  .get("/", async (c) => {
    const db = c.var.db;
    const { agentBots, accessTokens, platformAppPermissibles: grants } = schema;
    const owned = db
      .select({ id: grants.permissibleId })
      .from(grants)
      .where(and(eq(grants.platformAppId, platformAppId(c)), eq(grants.permissibleType, "AgentBot")));
    const [bots, tokens] = await db.batch([
      db.select().from(agentBots).where(inArray(agentBots.id, owned)).orderBy(agentBots.id),
      db
        .select({ ownerId: accessTokens.ownerId, token: accessTokens.token })
        .from(accessTokens)
        .where(and(eq(accessTokens.ownerType, "AgentBot"), inArray(accessTokens.ownerId, owned))),
    ]);
    const keyOf = new Map(tokens.map((t) => [t.ownerId, t.token]));
    return c.json(bots.map((bot) => view({ bot, accessToken: keyOf.get(bot.id) ?? null })));
  })
  .post("/", validate("json", PlatformAgentBotCreate), async (c) => {
    const body = c.req.valid("json");
    // A bot may belong to an account only when this app created that account (Chatwoot does not check).
    const accountId = body.account_id ? (await ownedAccount(c, body.account_id)).id : null;
    const record = await createAgentBot(c.var.db, accountId, { ...toBotInput(body), name: body.name }, { platformAppId: platformAppId(c) });
    return c.json(view(record));
  })
  .get("/:id", validate("param", IdParam), async (c) => c.json(view(await ownedAgentBot(c, c.req.valid("param").id))))
  .on(["PATCH", "PUT"], "/:id", validate("param", IdParam), validate("json", PlatformAgentBotUpdate), async (c) => {
    const { bot } = await ownedAgentBot(c, c.req.valid("param").id);
    const body = c.req.valid("json");
    if (body.account_id) await ownedAccount(c, body.account_id);
    const input = { ...toBotInput(body), ...(body.account_id !== undefined && { accountId: body.account_id }) };
    return c.json(view(await updateAgentBot(c.var.db, bot, input)));
  })
  .delete("/:id", validate("param", IdParam), async (c) => {
    const { bot } = await ownedAgentBot(c, c.req.valid("param").id);
    await deleteAgentBot(c.var.db, bot.id);
    return c.json({});
  })
  .delete("/:id/avatar", validate("param", IdParam), async (c) => {
    const { bot } = await ownedAgentBot(c, c.req.valid("param").id);
    return c.json(view(await updateAgentBot(c.var.db, bot, { avatarUrl: null })));
  });
