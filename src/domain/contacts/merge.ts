/** Merging two contacts of the account into one (Chatwoot's `actions/contact_merge`). */
import { and, eq, inArray, sql } from "drizzle-orm";
import { type Statement, now, rawSql, schema } from "../../db/client";
import { batch } from "../kernel/batch";
import type { ContactRecord } from "./loader";
import { applyInput, contactQuery, resolvedCounter, storedResolved, writeContactChange } from "./contacts";
import { type AccountScope, performer } from "../kernel/scope";
import { eventStatement } from "../kernel/outbox";
import { invalidField, notFound } from "../kernel/errors";
import { unindexContacts } from "./search-index";

const { contacts, contactInboxes, contactNotes, taggings, conversations, messages } = schema;

/**
 * Merges `mergeeId` into `baseId`: the mergee's conversations (and the messages it sent), contact inboxes
 * and labels move to the base; the base keeps its own values and takes the mergee's where it has none
 * (attributes merged key by key, the base's winning); the mergee is deleted. One atomic batch.
 */
export async function mergeContacts(scope: AccountScope, baseId: number, mergeeId: number): Promise<ContactRecord> {
  const { db, accountId } = scope;
  if (baseId === mergeeId) throw invalidField("mergee_contact_id", "must be another contact than base_contact_id", "same_contact");
  const [baseRows, mergeeRows] = await batch(db, [contactQuery(scope, baseId), contactQuery(scope, mergeeId)]);
  const [base, mergee] = [baseRows[0], mergeeRows[0]];
  if (!base) throw notFound("Contact", baseId, "base_contact_id");
  if (!mergee) throw notFound("Contact", mergeeId, "mergee_contact_id");

  const fill = <T>(own: T | null, other: T | null) => (own === null || own === "" ? other : own);
  const merged = applyInput(base, {
    name: fill(base.name, mergee.name) ?? "",
    email: fill(base.email, mergee.email),
    phoneNumber: fill(base.phoneNumber, mergee.phoneNumber),
    identifier: fill(base.identifier, mergee.identifier),
    avatarUrl: fill(base.avatarUrl, mergee.avatarUrl),
    additionalAttributes: { ...mergee.additionalAttributes, ...base.additionalAttributes },
    customAttributes: { ...mergee.customAttributes, ...base.customAttributes },
  });
  const own = and(eq(taggings.accountId, accountId), eq(taggings.taggableType, "Contact"), eq(taggings.taggableId, mergeeId));
  const at = now();
  const mergeeConversations = db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), eq(conversations.contactId, mergeeId)));
  const moves: Statement[] = [
    // A contact sends messages only in its own conversations: found through them, by index, before they move.
    db
      .update(messages)
      .set({ senderId: baseId })
      .where(and(eq(messages.accountId, accountId), inArray(messages.conversationId, mergeeConversations), eq(messages.senderType, "Contact"), eq(messages.senderId, mergeeId))),
    db.update(conversations).set({ contactId: baseId, updatedAt: at }).where(and(eq(conversations.accountId, accountId), eq(conversations.contactId, mergeeId))),
    db.update(contactInboxes).set({ contactId: baseId, updatedAt: at }).where(and(eq(contactInboxes.accountId, accountId), eq(contactInboxes.contactId, mergeeId))),
    // the mergee's notes move to the base contact, as Chatwoot's merge moves them
    db.update(contactNotes).set({ contactId: baseId }).where(and(eq(contactNotes.accountId, accountId), eq(contactNotes.contactId, mergeeId))),
    rawSql(db, sql`INSERT OR IGNORE INTO taggings (account_id, taggable_type, taggable_id, tag, created_at)
      SELECT account_id, taggable_type, ${baseId}, tag, ${at} FROM taggings WHERE ${own}`),
    db.delete(taggings).where(own),
    // The mergee goes before the base takes its email, phone number or identifier (unique per account).
    resolvedCounter(scope, sql<number>`-${storedResolved(accountId, mergeeId)}`),
    unindexContacts(db, sql`SELECT ${mergeeId}`),
    db.delete(contacts).where(and(eq(contacts.accountId, accountId), eq(contacts.id, mergeeId))),
    eventStatement(db, { accountId, eventName: "contact_merged", subjectType: "Contact", subjectId: baseId, data: { performer: performer(scope), mergee_id: mergeeId } }),
  ];
  return writeContactChange(scope, base, merged, true, moves);
}
