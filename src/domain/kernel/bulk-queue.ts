/** When a bulk action (of conversations or contacts) leaves the request for the queue, and how it goes. */
import type { BulkActionMessage } from "./bulk-inputs";
import { forbidden } from "./errors";
import type { AccountScope } from "./scope";

/**
 * The most ids a bulk action changes in its request: each conversation costs a few round trips per change,
 * and one Worker invocation may make a bounded number of queries. A larger selection goes to the queue in
 * slices of this size, each run by the consumer as the user who asked, and the answer only counts them.
 */
export const BULK_IN_REQUEST = 25;

/** Sends the selection to the queue in slices of BULK_IN_REQUEST; answers the count. */
export async function queueBulkAction(scope: AccountScope, ids: number[], action: (slice: number[]) => BulkActionMessage["action"]) {
  if (scope.actor.type !== "user") throw forbidden("Only users run bulk actions", "user_required");
  const messages: BulkActionMessage[] = [];
  for (let i = 0; i < ids.length; i += BULK_IN_REQUEST) {
    messages.push({ kind: "bulk_action", accountId: scope.accountId, userId: scope.actor.user.id, action: action(ids.slice(i, i + BULK_IN_REQUEST)) });
  }
  await scope.ports.work.bulkAction(messages);
  return { ids: [], skipped: [], failures: [], queued: ids.length };
}
