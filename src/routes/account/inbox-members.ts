import { Hono } from "hono";
import { addInboxMembers, listInboxMembers, removeInboxMembers, replaceInboxMembers } from "../../domain/inboxes/members";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import { InboxIdParam, InboxMembersChange, InboxMembersReplace } from "../../schemas/inbox-members";
import { agentsView } from "../../views/agents";
import { doc } from "../../http/openapi";
import { Agent } from "../../schemas/agents";
import { Empty, payloadOf } from "../../schemas/responses";
import { onlineInAccount } from "./online";

/** /api/v1/accounts/:account_id/inbox_members */
export const inboxMembersApi = new Hono<AppEnv>()
  .get("/:inbox_id", doc({ summary: "List an inbox's agents", response: payloadOf(Agent.array()) }), validate("param", InboxIdParam), async (c) => {
    const members = await listInboxMembers(accountScope(c), c.req.valid("param").inbox_id);
    return c.json({ payload: agentsView(members, c.var.account.id, await onlineInAccount(c)) });
  })
  .post("/", doc({ summary: "Add agents to an inbox", response: payloadOf(Agent.array()) }), requireAdministrator, validate("json", InboxMembersChange), async (c) => {
    const { inbox_id, user_ids } = c.req.valid("json");
    return c.json({ payload: agentsView(await addInboxMembers(accountScope(c), inbox_id, user_ids), c.var.account.id, await onlineInAccount(c)) });
  })
  .patch("/", doc({ summary: "Replace an inbox's agents", response: payloadOf(Agent.array()) }), requireAdministrator, validate("json", InboxMembersReplace), async (c) => {
    const { inbox_id, user_ids } = c.req.valid("json");
    return c.json({ payload: agentsView(await replaceInboxMembers(accountScope(c), inbox_id, user_ids), c.var.account.id, await onlineInAccount(c)) });
  })
  .delete("/", doc({ summary: "Remove agents from an inbox", response: Empty }), requireAdministrator, validate("json", InboxMembersChange), async (c) => {
    const { inbox_id, user_ids } = c.req.valid("json");
    await removeInboxMembers(accountScope(c), inbox_id, user_ids);
    return c.json({});
  });
