import { Hono } from "hono";
import type { z } from "zod";
import {
  type AgentBotRecord,
  createAccountAgentBot,
  deleteAccountAgentBot,
  findAccountAgentBot,
  listAccountAgentBots,
  resetAgentBotKey,
  updateAccountAgentBot,
} from "../../domain/people/agent-bots";
import { type AppContext, type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import { AccountAgentBotCreate, AccountAgentBotUpdate, AgentBot } from "../../schemas/agent-bots";
import { IdParam } from "../../schemas/common";
import { accountAgentBotView } from "../../views/agent-bots";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Empty } from "../../schemas/responses";
import { deliveryLogApi } from "./delivery-log";

const toBotInput = (body: z.infer<typeof AccountAgentBotUpdate>) => ({
  name: body.name,
  description: body.description,
  outgoingUrl: body.outgoing_url,
  avatarUrl: body.avatar_url,
  botConfig: body.bot_config,
});

const view = (c: AppContext, record: AgentBotRecord) =>
  accountAgentBotView(record, { accountId: c.var.account.id, isAdministrator: c.var.role === "administrator" });

/** /api/v1/accounts/:account_id/agent_bots */
export const agentBotsApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List the account's agent bots", response: AgentBot.array() }), async (c) => c.json((await listAccountAgentBots(accountScope(c))).map((r) => view(c, r))))
  .post("/", doc({ summary: "Create an agent bot", response: AgentBot }), requireAdministrator, idempotent(), validate("json", AccountAgentBotCreate), async (c) => {
    const body = c.req.valid("json");
    return c.json(view(c, await createAccountAgentBot(accountScope(c), { ...toBotInput(body), name: body.name })));
  })
  .post("/:id/reset_access_token", doc({ summary: "Reset an agent bot's access token", response: AgentBot }), requireAdministrator, validate("param", IdParam), async (c) =>
    c.json(view(c, await resetAgentBotKey(accountScope(c), c.req.valid("param").id))),
  )
  .get("/:id", doc({ summary: "Show an agent bot", response: AgentBot }), validate("param", IdParam), async (c) =>
    c.json(view(c, await findAccountAgentBot(accountScope(c), c.req.valid("param").id, { ownOnly: false }))),
  )
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update an agent bot", response: AgentBot }), requireAdministrator, validate("param", IdParam), validate("json", AccountAgentBotUpdate), async (c) => {
    const record = await updateAccountAgentBot(accountScope(c), c.req.valid("param").id, toBotInput(c.req.valid("json")));
    return c.json(view(c, record));
  })
  .delete("/:id", doc({ summary: "Delete an agent bot", response: Empty }), requireAdministrator, validate("param", IdParam), async (c) => {
    await deleteAccountAgentBot(accountScope(c), c.req.valid("param").id);
    return c.json({});
  })
  // what the bot's outgoing_url was sent (administrators; the account's own bots, not system bots)
  .route("/", deliveryLogApi("agent_bot"));
