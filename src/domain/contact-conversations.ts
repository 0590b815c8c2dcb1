/** The conversations of a contact, as the contact page shows them. */
import { sql } from "drizzle-orm";
import type { AccountScope } from "../http/app-env";
import { notFound } from "../http/errors";
import { contactQuery } from "./contacts";
import { type ConversationRecord, conversationRecordsQueries, toConversationRecords } from "./conversation-records";
import { visibleInboxIds } from "./inbox-access";

/** Chatwoot shows a contact's latest 20 conversations, unpaginated. */
const CONTACT_CONVERSATIONS_LIMIT = 20;

/**
 * The contact's conversations the caller may see (agents: those of inboxes they are members of),
 * latest activity first.
 */
export async function contactConversations(scope: AccountScope, contactId: number): Promise<ConversationRecord[]> {
  const { db, accountId, actor } = scope;
  const ids = sql`SELECT id FROM conversations WHERE account_id = ${accountId} AND contact_id = ${contactId}
    AND inbox_id IN ${visibleInboxIds(scope)} ORDER BY last_activity_at DESC, id DESC LIMIT ${CONTACT_CONVERSATIONS_LIMIT}`;
  const viewer = actor.type === "user" ? actor.user.id : null;
  const [contactRows, ...results] = await db.batch([contactQuery(scope, contactId), ...conversationRecordsQueries(db, accountId, viewer, ids)]);
  if (!contactRows[0]) throw notFound("Contact", contactId);
  return toConversationRecords(results);
}
