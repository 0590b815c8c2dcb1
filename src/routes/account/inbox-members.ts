import { Hono } from "hono";
import { addInboxMembers, listInboxMembers, removeInboxMembers, replaceInboxMembers } from "../../domain/inboxes/members";
import { type AppEnv, accountScope } from "../../http/app-env";
import { requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import { InboxIdParam, InboxMembersChange, InboxMembersReplace } from "../../schemas/inbox-members";
import { agentsView } from "../../views/agents";

/** /api/v1/accounts/:account_id/inbox_members */
export const inboxMembersApi = new Hono<AppEnv>()
  .get("/:inbox_id", validate("param", InboxIdParam), async (c) => {
    const members = await listInboxMembers(accountScope(c), c.req.valid("param").inbox_id);
    return c.json({ payload: agentsView(members, c.var.account.id) });
  })
  .post("/", requireAdministrator, validate("json", InboxMembersChange), async (c) => {
    const { inbox_id, user_ids } = c.req.valid("json");
    return c.json({ payload: agentsView(await addInboxMembers(accountScope(c), inbox_id, user_ids), c.var.account.id) });
  })
  .patch("/", requireAdministrator, validate("json", InboxMembersReplace), async (c) => {
    const { inbox_id, user_ids } = c.req.valid("json");
    return c.json({ payload: agentsView(await replaceInboxMembers(accountScope(c), inbox_id, user_ids), c.var.account.id) });
  })
  .delete("/", requireAdministrator, validate("json", InboxMembersChange), async (c) => {
    const { inbox_id, user_ids } = c.req.valid("json");
    await removeInboxMembers(accountScope(c), inbox_id, user_ids);
    return c.json({});
  });
