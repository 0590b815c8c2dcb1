/** The rows the contacts aggregate owns. */
import { schema } from "../../db/client";

export type ContactRow = typeof schema.contacts.$inferSelect;
export type ContactInboxRow = typeof schema.contactInboxes.$inferSelect;
export type ContactNoteRow = typeof schema.contactNotes.$inferSelect;
export type ContactImportRow = typeof schema.contactImports.$inferSelect;
export type ContactImportRefusalRow = typeof schema.contactImportRefusals.$inferSelect;
export type ContactExportRow = typeof schema.contactExports.$inferSelect;
