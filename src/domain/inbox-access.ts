/**
 * Which inboxes a caller may see in the account: administrators all, agents those they are members of
 * (Chatwoot's rule for conversation lists and contactable inboxes).
 */
import { and, eq } from "drizzle-orm";
import type { AccountScope } from "../http/app-env";
import { schema } from "../db/client";

const { inboxes, inboxMembers } = schema;

/** A subquery of inbox ids, for `inArray(column, visibleInboxIds(scope))`. */
export function visibleInboxIds(scope: AccountScope) {
  const { db, accountId, actor, role } = scope;
  if (role === "administrator" || actor.type !== "user") {
    return db.select({ id: inboxes.id }).from(inboxes).where(eq(inboxes.accountId, accountId));
  }
  return db
    .select({ id: inboxMembers.inboxId })
    .from(inboxMembers)
    .where(and(eq(inboxMembers.accountId, accountId), eq(inboxMembers.userId, actor.user.id)));
}
