import { Hono } from "hono";
import { createAgent, deleteAgent, listAgents, updateAgent } from "../../domain/people/agents";
import { type AppEnv, accountScope } from "../../http/app-env";
import { requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import { AgentCreate, AgentUpdate } from "../../schemas/agents";
import { IdParam } from "../../schemas/common";
import { agentView, agentsView } from "../../views/agents";
import { idempotent } from "../../http/idempotency";

/** /api/v1/accounts/:account_id/agents */
export const agentsApi = new Hono<AppEnv>()
  .get("/", async (c) => c.json(agentsView(await listAgents(accountScope(c)), c.var.account.id)))
  .post("/", requireAdministrator, idempotent(), validate("json", AgentCreate), async (c) => {
    const body = c.req.valid("json");
    const agent = await createAgent(accountScope(c), {
      email: body.email,
      name: body.name,
      role: body.role,
      availability: body.availability,
      autoOffline: body.auto_offline,
    });
    return c.json(agentView(agent, c.var.account.id));
  })
  .on(["PATCH", "PUT"], "/:id", requireAdministrator, validate("param", IdParam), validate("json", AgentUpdate), async (c) => {
    const body = c.req.valid("json");
    const agent = await updateAgent(accountScope(c), c.req.valid("param").id, {
      name: body.name,
      role: body.role,
      availability: body.availability,
      autoOffline: body.auto_offline,
    });
    return c.json(agentView(agent, c.var.account.id));
  })
  .delete("/:id", requireAdministrator, validate("param", IdParam), async (c) => {
    await deleteAgent(accountScope(c), c.req.valid("param").id);
    return c.json({});
  });
