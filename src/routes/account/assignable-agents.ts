import { Hono } from "hono";
import { listAssignableAgents } from "../../domain/inboxes/members";
import type { AppEnv } from "../../http/app-env";
import { doc } from "../../http/openapi";
import { accountScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { Agent } from "../../schemas/agents";
import { AssignableAgentsQuery } from "../../schemas/inboxes";
import { payloadOf } from "../../schemas/responses";
import { agentsView } from "../../views/agents";
import { onlineInAccount } from "./online";

/** /assignable_agents: the assignee picker of Chatwoot's agent apps, for one or more inboxes. */
export const assignableAgentsApi = new Hono<AppEnv>().get(
  "/",
  doc({
    summary: "List the agents who may be assigned in all the given inboxes",
    description: "`inbox_ids[]`: the members of every one of the inboxes, and the administrators. An agent must be a member of each inbox.",
    response: payloadOf(Agent.array()),
  }),
  validate("query", AssignableAgentsQuery),
  async (c) => {
    const agents = await listAssignableAgents(accountScope(c), c.req.valid("query").inbox_ids, "inbox_ids");
    return c.json({ payload: agentsView(agents, c.var.account.id, await onlineInAccount(c)) });
  },
);
