/**
 * Notes agents keep on a contact. Chatwoot checks only that the contact is the account's, so every
 * member of the account may read, write, change and delete any note of it, not only their own.
 * Every statement names the account; a note is reached only through its contact.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { batch, batchNamed, writeCheckedByConstraints, writeThenRead } from "../kernel/batch";
import { notFound } from "../kernel/errors";
import { type AccountScope, actingUserId } from "../kernel/scope";
import { type AgentRow, usersAsAgentsQuery } from "../people/agents";
import { contactQuery } from "./contacts";
import type { ContactNoteRow } from "./rows";

const { contactNotes, contacts, users } = schema;

/** A note with its author, when the author's user still exists. */
export type ContactNoteRecord = { note: ContactNoteRow; author: AgentRow | null };

const ofContact = (scope: AccountScope, contactId: number) =>
  and(eq(contactNotes.accountId, scope.accountId), eq(contactNotes.contactId, contactId));

const noteWhere = (scope: AccountScope, contactId: number, noteId: number) => and(ofContact(scope, contactId), eq(contactNotes.id, noteId));

/** Statement: the authors of the contact's notes (or of one note), seen from the account. */
const authorsQuery = (scope: AccountScope, contactId: number, noteId?: number) =>
  usersAsAgentsQuery(
    scope.db,
    scope.accountId,
    inArray(
      users.id,
      scope.db
        .select({ userId: contactNotes.userId })
        .from(contactNotes)
        .where(noteId === undefined ? ofContact(scope, contactId) : noteWhere(scope, contactId, noteId)),
    ),
  );

function withAuthors(notes: ContactNoteRow[], authors: AgentRow[]): ContactNoteRecord[] {
  const byId = new Map(authors.map((a) => [a.userId, a]));
  return notes.map((note) => ({ note, author: (note.userId !== null && byId.get(note.userId)) || null }));
}

function one(records: ContactNoteRecord[], noteId: number): ContactNoteRecord {
  if (!records[0]) throw notFound("Note", noteId);
  return records[0];
}

/** The contact's notes, newest first (Chatwoot's `latest`). A contact of another account is not found. */
export async function listContactNotes(scope: AccountScope, contactId: number): Promise<ContactNoteRecord[]> {
  const { db } = scope;
  const [contact, notes, authors] = await batch(db, [
    contactQuery(scope, contactId),
    db.select().from(contactNotes).where(ofContact(scope, contactId)).orderBy(desc(contactNotes.createdAt), desc(contactNotes.id)),
    authorsQuery(scope, contactId),
  ]);
  if (!contact[0]) throw notFound("Contact", contactId);
  return withAuthors(notes, authors);
}

export async function showContactNote(scope: AccountScope, contactId: number, noteId: number): Promise<ContactNoteRecord> {
  const { db } = scope;
  const [contact, notes, authors] = await batch(db, [
    contactQuery(scope, contactId),
    db.select().from(contactNotes).where(noteWhere(scope, contactId, noteId)),
    authorsQuery(scope, contactId, noteId),
  ]);
  if (!contact[0]) throw notFound("Contact", contactId);
  return one(withAuthors(notes, authors), noteId);
}

/**
 * A new note by the calling user, in one batch with its author: the note's contact id comes from a
 * subquery that finds only the account's contact, so NOT NULL refuses a note of any other, and only then
 * is the contact read, to answer its 404.
 */
export async function createContactNote(scope: AccountScope, contactId: number, content: string): Promise<ContactNoteRecord> {
  const { db, accountId } = scope;
  const insert = async () => {
    const at = now();
    const ownContact = sql<number>`(SELECT ${contacts.id} FROM ${contacts} WHERE ${contacts.id} = ${contactId} AND ${contacts.accountId} = ${accountId})`;
    const { inserted, author } = await batchNamed(db, {
      inserted: db.insert(contactNotes).values({ accountId, contactId: ownContact, userId: actingUserId(scope), content, createdAt: at, updatedAt: at }).returning(),
      author: usersAsAgentsQuery(db, accountId, eq(users.id, actingUserId(scope) ?? 0)),
    });
    return one(withAuthors(inserted, author), inserted[0]?.id ?? 0);
  };
  return writeCheckedByConstraints(insert, async () => {
    const [contact] = await batch(db, [contactQuery(scope, contactId)]);
    if (!contact[0]) throw notFound("Contact", contactId);
    return insert();
  });
}

/** Changes a note's content; the author stays who wrote it. */
export async function updateContactNote(scope: AccountScope, contactId: number, noteId: number, content: string): Promise<ContactNoteRecord> {
  const { db } = scope;
  const [contact, notes, authors] = await writeThenRead(
    db,
    [db.update(contactNotes).set({ content, updatedAt: now() }).where(noteWhere(scope, contactId, noteId))],
    [contactQuery(scope, contactId), db.select().from(contactNotes).where(noteWhere(scope, contactId, noteId)), authorsQuery(scope, contactId, noteId)],
  );
  if (!contact[0]) throw notFound("Contact", contactId);
  return one(withAuthors(notes, authors), noteId);
}

export async function deleteContactNote(scope: AccountScope, contactId: number, noteId: number): Promise<void> {
  const { db } = scope;
  const [deleted] = await batch(db, [db.delete(contactNotes).where(noteWhere(scope, contactId, noteId)).returning({ id: contactNotes.id })]);
  if (!deleted.length) throw notFound("Note", noteId);
}
