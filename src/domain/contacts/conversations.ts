/** The conversations of a contact, as the contact page shows them. */
import { and, desc, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { batch } from "../kernel/batch";
import { contactQuery } from "./contacts";
import { reachableCondition } from "../conversations/access";
import { type ConversationRecord, loadConversationRecords } from "../conversations/loader";
import { type AccountScope } from "../kernel/scope";
import { notFound } from "../kernel/errors";

const { conversations } = schema;

/** Chatwoot shows a contact's latest 20 conversations, unpaginated. */
const CONTACT_CONVERSATIONS_LIMIT = 20;

/**
 * The contact's conversations the caller may reach (the one conversation access rule), latest activity
 * first.
 */
export async function contactConversations(scope: AccountScope, contactId: number): Promise<ConversationRecord[]> {
  const { db, accountId } = scope;
  const [contactRows, rows] = await batch(db, [
    contactQuery(scope, contactId),
    db
      .select()
      .from(conversations)
      .where(
        and(
          eq(conversations.accountId, accountId),
          eq(conversations.contactId, contactId),
          reachableCondition(scope),
        ),
      )
      .orderBy(desc(conversations.lastActivityAt), desc(conversations.id))
      .limit(CONTACT_CONVERSATIONS_LIMIT),
  ]);
  if (!contactRows[0]) throw notFound("Contact", contactId);
  return loadConversationRecords(db, accountId, rows);
}
