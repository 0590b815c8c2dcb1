import { z } from "zod";
import { Id, wrapped } from "./common";
import { Agent } from "./agents";
import { seconds } from "./responses";

/**
 * Chatwoot sets no limit on a note; 10,000 characters keeps one note a note (a pasted e-mail thread
 * fits) and every row small. Stored as typed, but it must say something.
 */
export const NOTE_MAX_CHARS = 10_000;

const content = z
  .string()
  .max(NOTE_MAX_CHARS)
  .refine((v) => v.trim() !== "", { error: "must not be blank", params: { code: "blank" } });

/** POST and PATCH/PUT /contacts/:contact_id/notes(/:id): `{content}` or `{note: {content}}`. */
export const ContactNoteBody = wrapped("note", z.object({ content }));

export const ContactNotesParam = z.object({ contact_id: Id });
export const ContactNoteParam = z.object({ contact_id: Id, id: Id });

/** A note (src/views/contact-notes.ts): Chatwoot renders its times as Unix seconds. */
export const ContactNote = z
  .looseObject({
    id: z.number().int(),
    content: z.string(),
    account_id: z.number().int(),
    contact_id: z.number().int(),
    user: Agent.optional().describe("the author, while the user exists"),
    created_at: seconds,
    updated_at: seconds,
  })
  .meta({ id: "ContactNote" });
