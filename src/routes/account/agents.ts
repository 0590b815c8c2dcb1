import { Hono } from "hono";
import { bulkCreateAgents, createAgent, deleteAgent, listAgents, updateAgent } from "../../domain/people/agents";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import { Agent, AgentBulkCreate, AgentCreate, AgentUpdate, BulkAgents } from "../../schemas/agents";
import { IdParam } from "../../schemas/common";
import { agentView, agentsView } from "../../views/agents";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Empty, payloadOf } from "../../schemas/responses";
import { onlineInAccount } from "./online";

/** /api/v1/accounts/:account_id/agents */
export const agentsApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List the account's agents", response: Agent.array() }), async (c) => c.json(agentsView(await listAgents(accountScope(c)), c.var.account.id, await onlineInAccount(c))))
  .post("/", doc({ summary: "Add an agent to the account", response: Agent }), requireAdministrator, idempotent(), validate("json", AgentCreate), async (c) => {
    const body = c.req.valid("json");
    const agent = await createAgent(accountScope(c), {
      email: body.email,
      name: body.name,
      role: body.role,
      availability: body.availability,
      autoOffline: body.auto_offline,
    });
    return c.json(agentView(agent, c.var.account.id, await onlineInAccount(c)));
  })
  .post(
    "/bulk_create",
    doc({
      summary: "Invite agents by e-mail",
      description: "Each e-mail is invited as creating an agent does (named after its local part); members of the account are skipped.",
      response: payloadOf(BulkAgents),
    }),
    requireAdministrator,
    validate("json", AgentBulkCreate),
    async (c) => {
      const result = await bulkCreateAgents(accountScope(c), c.req.valid("json").emails);
      const online = await onlineInAccount(c);
      return c.json({ payload: { created: result.created.map((agent) => agentView(agent, c.var.account.id, online)), skipped: result.skipped } });
    },
  )
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update an agent's role or availability", response: Agent }), requireAdministrator, validate("param", IdParam), validate("json", AgentUpdate), async (c) => {
    const body = c.req.valid("json");
    const agent = await updateAgent(accountScope(c), c.req.valid("param").id, {
      name: body.name,
      role: body.role,
      availability: body.availability,
      autoOffline: body.auto_offline,
    });
    return c.json(agentView(agent, c.var.account.id, await onlineInAccount(c)));
  })
  .delete("/:id", doc({ summary: "Remove an agent from the account", response: Empty }), requireAdministrator, validate("param", IdParam), async (c) => {
    await deleteAgent(accountScope(c), c.req.valid("param").id);
    return c.json({});
  });
