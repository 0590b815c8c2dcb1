/**
 * What a bulk action asks for (POST /bulk_actions), as plain data: the domain's input to the bulk
 * functions of conversations and contacts, and what a queued slice of a large selection carries.
 */

/** The changes to conversations (display ids), each optional; `null` for assignee, team and priority clears them. */
export type ConversationBulkInput = {
  ids: readonly number[];
  status?: number;
  /** epoch ms, with status snoozed */
  snoozedUntil?: number | null;
  priority?: number | null;
  assigneeId?: number | null;
  teamId?: number | null;
  labels?: { add?: readonly string[]; remove?: readonly string[] };
};

/** Contacts (ids) deleted, or labels added and removed. */
export type ContactBulkInput = { ids: readonly number[] } & ({ action: "delete" } | { action: "labels"; add?: readonly string[]; remove?: readonly string[] });

/** One slice of a large selection, run by the queue's consumer as the user who asked. */
export type BulkActionMessage = {
  kind: "bulk_action";
  accountId: number;
  userId: number;
  action: { type: "Conversation"; input: ConversationBulkInput } | { type: "Contact"; input: ContactBulkInput };
};
