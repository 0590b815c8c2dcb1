/**
 * Which inboxes a caller may see in the account: administrators (and agent bots) all, agents those they
 * are members of. Chatwoot's rule for contactable inboxes and contact inboxes; conversations follow
 * their own rule (conversations/access.ts: inbox or team member).
 */
import { type SQL, and, eq, inArray } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { schema } from "../../db/client";
import { type AccountScope } from "../kernel/scope";

const { inboxMembers } = schema;

/** A condition keeping `inboxColumn` to the caller's visible inboxes; undefined when every inbox is visible. */
export function visibleInboxCondition(scope: AccountScope, inboxColumn: SQLiteColumn): SQL | undefined {
  const { db, accountId, actor, role } = scope;
  if (role === "administrator" || actor.type !== "user") return undefined;
  return inArray(
    inboxColumn,
    db
      .select({ id: inboxMembers.inboxId })
      .from(inboxMembers)
      .where(and(eq(inboxMembers.accountId, accountId), eq(inboxMembers.userId, actor.user.id))),
  );
}
