import { Hono } from "hono";
import { bulkUpdateContacts } from "../../domain/contacts/bulk";
import { bulkUpdateConversations } from "../../domain/conversations/bulk";
import { type AppContext, type AppEnv } from "../../http/app-env";
import { doc } from "../../http/openapi";
import { accountScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { BulkActionBody, BulkActionResult } from "../../schemas/bulk-actions";
import { payloadOf } from "../../schemas/responses";

/** "clear" (0, "none") is null to the domain; null and absent change nothing. */
const cleared = <T>(v: T | "clear" | null | undefined) => (v === "clear" ? null : (v ?? undefined));
const ms = (seconds: number | null | undefined) => (seconds === null || seconds === undefined ? undefined : Math.round(seconds * 1000));

function runBulkAction(c: AppContext, body: BulkActionBody) {
  const scope = accountScope(c);
  if (body.type === "Contact") {
    const input = body.action_name === "delete" ? { action: "delete" as const } : { action: "labels" as const, add: body.labels?.add, remove: body.labels?.remove };
    return bulkUpdateContacts(scope, { ids: body.ids, ...input });
  }
  const f = body.fields ?? {};
  return bulkUpdateConversations(scope, {
    ids: body.ids,
    status: f.status ?? undefined,
    snoozedUntil: ms(f.snoozed_until ?? body.snoozed_until),
    priority: cleared(f.priority),
    assigneeId: cleared(f.assignee_id),
    teamId: cleared(f.team_id),
    labels: body.labels,
  });
}

/**
 * /bulk_actions: every member (no bot keys); deleting contacts is an administrator's (the domain says so).
 * Runs in the request, at most MAX_BULK_IDS ids (src/schemas/bulk-actions.ts), and answers what it did.
 */
export const bulkActionsApi = new Hono<AppEnv>().post(
  "/",
  doc({
    summary: "Change many conversations or contacts at once",
    description:
      "Each change goes through the route it would take one by one (same events and activity messages). Ids of other accounts, or out of the caller's reach, are skipped and listed in `skipped`; a change one conversation refuses is listed in `failures`.",
    response: payloadOf(BulkActionResult),
  }),
  validate("json", BulkActionBody),
  async (c) => {
    const body = c.req.valid("json");
    const result = await runBulkAction(c, body);
    return c.json({ payload: { type: body.type, ...result } });
  },
);
