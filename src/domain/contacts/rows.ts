/** The rows the contacts aggregate owns. */
import { schema } from "../../db/client";

export type ContactRow = typeof schema.contacts.$inferSelect;
export type ContactInboxRow = typeof schema.contactInboxes.$inferSelect;
export type ContactNoteRow = typeof schema.contactNotes.$inferSelect;
