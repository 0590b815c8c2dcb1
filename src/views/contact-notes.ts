import type { ContactNoteRecord } from "../domain/contacts/notes";
import { agentView } from "./agents";
import { unixSeconds } from "./time";

/** A contact's note as Chatwoot renders it: the author as an agent of the account, times in seconds. */
export function contactNoteView({ note, author }: ContactNoteRecord) {
  return {
    id: note.id,
    content: note.content,
    account_id: note.accountId,
    contact_id: note.contactId,
    ...(author && { user: agentView(author, note.accountId) }),
    created_at: unixSeconds(note.createdAt),
    updated_at: unixSeconds(note.updatedAt),
  };
}
