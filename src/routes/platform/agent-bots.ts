import { Hono } from "hono";
import type { z } from "zod";
import { type AgentBotRecord, createAgentBot, deleteAgentBot, updateAgentBot } from "../../domain/people/agent-bots";
import { listOwnedAgentBots, ownedAccount, ownedAgentBot } from "../../domain/platform/ownership";
import type { AppEnv } from "../../http/app-env";
import { validate } from "../../http/validate";
import { IdParam } from "../../schemas/common";
import { PlatformAgentBotCreate, PlatformAgentBotUpdate } from "../../schemas/platform";
import { agentBotView } from "../../views/agent-bots";
import { platformScope } from "../../http/scopes";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Empty } from "../../schemas/responses";
import { AgentBot } from "../../schemas/agent-bots";

const toBotInput = (body: z.infer<typeof PlatformAgentBotUpdate>) => ({
  name: body.name,
  description: body.description,
  outgoingUrl: body.outgoing_url,
  avatarUrl: body.avatar_url,
  botConfig: body.bot_config,
});

const view = (record: AgentBotRecord) => agentBotView(record, { withKey: true });

export const platformAgentBots = new Hono<AppEnv>()
  .get("/", doc({ summary: "List the agent bots this platform app created", response: AgentBot.array() }), async (c) => c.json((await listOwnedAgentBots(platformScope(c))).map(view)))
  .post("/", doc({ summary: "Create an agent bot", response: AgentBot }), idempotent(), validate("json", PlatformAgentBotCreate), async (c) => {
    const body = c.req.valid("json");
    const scope = platformScope(c);
    // A bot may belong to an account only when this app created that account (Chatwoot does not check).
    const accountId = body.account_id ? (await ownedAccount(scope, body.account_id)).id : null;
    const record = await createAgentBot(scope, accountId, { ...toBotInput(body), name: body.name }, scope.actor);
    return c.json(view(record));
  })
  .get("/:id", doc({ summary: "Show an agent bot", response: AgentBot }), validate("param", IdParam), async (c) => c.json(view(await ownedAgentBot(platformScope(c), c.req.valid("param").id))))
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update an agent bot", response: AgentBot }), validate("param", IdParam), validate("json", PlatformAgentBotUpdate), async (c) => {
    const scope = platformScope(c);
    const { bot } = await ownedAgentBot(scope, c.req.valid("param").id);
    const body = c.req.valid("json");
    if (body.account_id) await ownedAccount(scope, body.account_id);
    const input = { ...toBotInput(body), ...(body.account_id !== undefined && { accountId: body.account_id }) };
    return c.json(view(await updateAgentBot(scope, bot, input)));
  })
  .delete("/:id", doc({ summary: "Delete an agent bot", response: Empty }), validate("param", IdParam), async (c) => {
    const scope = platformScope(c);
    const { bot } = await ownedAgentBot(scope, c.req.valid("param").id);
    await deleteAgentBot(scope, bot);
    return c.json({});
  })
  .delete("/:id/avatar", doc({ summary: "Remove an agent bot's avatar", response: AgentBot }), validate("param", IdParam), async (c) => {
    const scope = platformScope(c);
    const { bot } = await ownedAgentBot(scope, c.req.valid("param").id);
    return c.json(view(await updateAgentBot(scope, bot, { avatarUrl: null })));
  });
