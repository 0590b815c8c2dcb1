/** A contact's contact inboxes: creating one, and the inboxes a conversation with the contact could use. */
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { batch } from "../kernel/batch";
import { type ContactInboxResult, contactInboxInsert, contactQuery, inboxQuery, newSourceId } from "./contacts";
import { visibleInboxCondition } from "../inboxes/access";
import { API_CHANNEL } from "../inboxes/inboxes";
import { type AccountScope } from "../kernel/scope";
import { forbidden, invalidField, notFound } from "../kernel/errors";

const { inboxes, contactInboxes } = schema;

/** Creates the contact's contact inbox in `inboxId`; an agent must be a member of that inbox. */
export async function createContactInbox(
  scope: AccountScope,
  contactId: number,
  input: { inboxId: number; sourceId?: string; hmacVerified?: boolean },
): Promise<ContactInboxResult> {
  const { db } = scope;
  const [contactRows, inboxRows, visible] = await batch(db, [
    contactQuery(scope, contactId),
    inboxQuery(scope, input.inboxId),
    db.select({ id: inboxes.id }).from(inboxes).where(and(eq(inboxes.accountId, scope.accountId), eq(inboxes.id, input.inboxId), visibleInboxCondition(scope, inboxes.id))),
  ]);
  if (!contactRows[0]) throw notFound("Contact", contactId);
  if (!inboxRows[0]) throw notFound("Inbox", input.inboxId, "inbox_id");
  if (!visible[0]) throw forbidden(`You are not a member of inbox ${input.inboxId}`, "inbox_access_required");
  const sourceId = newSourceId(input.sourceId);
  const [existing] = await batch(db, [
    contactInboxInsert(scope, contactId, input.inboxId, sourceId, input.hmacVerified).onConflictDoNothing().returning({ id: contactInboxes.id }),
  ]);
  if (!existing[0]) throw invalidField("source_id", "has already been taken in this inbox", "taken");
  return { sourceId, inbox: inboxRows[0] };
}

/**
 * The inboxes the caller can see, each with the source id a conversation with this contact would use:
 * the existing contact inbox's, or for an API inbox a fresh one (web widget inboxes only with an
 * existing contact inbox, since only the widget can start those).
 */
export async function contactableInboxes(scope: AccountScope, contactId: number): Promise<ContactInboxResult[]> {
  const { db, accountId } = scope;
  const [contactRows, inboxRows, existing] = await batch(db, [
    contactQuery(scope, contactId),
    db.select().from(inboxes).where(and(eq(inboxes.accountId, accountId), visibleInboxCondition(scope, inboxes.id))).orderBy(inboxes.id),
    db
      .select({ inboxId: contactInboxes.inboxId, sourceId: contactInboxes.sourceId })
      .from(contactInboxes)
      .where(and(eq(contactInboxes.accountId, accountId), eq(contactInboxes.contactId, contactId)))
      .orderBy(contactInboxes.id),
  ]);
  if (!contactRows[0]) throw notFound("Contact", contactId);
  return inboxRows.flatMap((inbox) => {
    const sourceId = existing.find((e) => e.inboxId === inbox.id)?.sourceId;
    if (sourceId) return [{ sourceId, inbox }];
    return inbox.channelType === API_CHANNEL ? [{ sourceId: crypto.randomUUID(), inbox }] : [];
  });
}
