import { Hono } from "hono";
import { z } from "zod";
import { createContactNote, deleteContactNote, listContactNotes, showContactNote, updateContactNote } from "../../domain/contacts/notes";
import { type AppEnv } from "../../http/app-env";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { accountScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { ContactNote, ContactNoteBody, ContactNoteParam, ContactNotesParam } from "../../schemas/contact-notes";
import { Empty } from "../../schemas/responses";
import { contactNoteView } from "../../views/contact-notes";

/**
 * /api/v1/accounts/:account_id/contacts/:contact_id/notes. Chatwoot only checks that the contact is the
 * account's: any member may read, write, change and delete any note (agent bots are refused, as on
 * every account route that does not open itself to them; a note needs a user as its author).
 */
export const contactNotesApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List a contact's notes, newest first", response: z.array(ContactNote) }), validate("param", ContactNotesParam), async (c) => {
    const records = await listContactNotes(accountScope(c), c.req.valid("param").contact_id);
    return c.json(records.map(contactNoteView));
  })
  .post("/", doc({ summary: "Add a note to a contact", response: ContactNote }), idempotent(), validate("param", ContactNotesParam), validate("json", ContactNoteBody), async (c) => {
    const record = await createContactNote(accountScope(c), c.req.valid("param").contact_id, c.req.valid("json").content);
    return c.json(contactNoteView(record));
  })
  .get("/:id", doc({ summary: "Show a contact's note", response: ContactNote }), validate("param", ContactNoteParam), async (c) => {
    const { contact_id, id } = c.req.valid("param");
    return c.json(contactNoteView(await showContactNote(accountScope(c), contact_id, id)));
  })
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Change a contact's note", response: ContactNote }), validate("param", ContactNoteParam), validate("json", ContactNoteBody), async (c) => {
    const { contact_id, id } = c.req.valid("param");
    return c.json(contactNoteView(await updateContactNote(accountScope(c), contact_id, id, c.req.valid("json").content)));
  })
  .delete("/:id", doc({ summary: "Delete a contact's note", response: Empty }), validate("param", ContactNoteParam), async (c) => {
    const { contact_id, id } = c.req.valid("param");
    await deleteContactNote(accountScope(c), contact_id, id);
    return c.json({});
  });
