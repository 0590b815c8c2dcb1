/**
 * An inbox with business hours opened: the queue's consumer hands out the conversations that waited for
 * it while it was closed (src/jobs/auto-assignment.ts). Sent by the cron, which notices the opening.
 */
export type InboxOpenedMessage = { kind: "inbox_opened"; accountId: number; inboxId: number };

export async function announceInboxOpened(queue: Queue, accountId: number, inboxId: number) {
  await queue.send({ kind: "inbox_opened", accountId, inboxId } satisfies InboxOpenedMessage);
}
