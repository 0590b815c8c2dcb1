/**
 * A queued slice of a bulk action (src/domain/conversations/bulk.ts sends them for selections too large
 * for the request): run as the user who asked, with their membership and role as they are now. A slice
 * delivered twice applies its changes again, which changes nothing: a status, assignee, team or priority
 * set to what it is, labels already there or gone, a contact already deleted (then skipped).
 */
import type { Database } from "../db/client";
import { bulkUpdateContacts } from "../domain/contacts/bulk";
import { bulkUpdateConversations } from "../domain/conversations/bulk";
import { memberScope } from "../domain/identity/member-scope";
import type { BulkActionMessage } from "../domain/kernel/bulk-inputs";
import { DomainError } from "../domain/kernel/errors";
import { jobScope } from "./scope";

export async function runQueuedBulkAction(db: Database, env: Env, message: BulkActionMessage): Promise<void> {
  const scope = await memberScope(jobScope(db, env), message.accountId, message.userId);
  if (!scope) return; // the user left the account, or it was suspended: nothing to do as them
  try {
    if (message.action.type === "Conversation") await bulkUpdateConversations(scope, message.action.input);
    else await bulkUpdateContacts(scope, message.action.input);
  } catch (error) {
    // a refusal of the whole slice (the assignee or team gone since, the role lowered) will not change on a retry
    if (!(error instanceof DomainError)) throw error;
    console.error(JSON.stringify({ level: "warn", bulkAction: message.accountId, refused: error.description }));
  }
}
