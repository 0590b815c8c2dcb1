/**
 * The public client API addresses everything through a chain of public identifiers:
 * inbox identifier -> contact inbox (source id) -> conversation (display id). Each link is read in one
 * batch keyed by the inbox identifier and checked against the link before it, so that a source id of
 * another inbox, or a conversation of another contact inbox, is a 404 like an unknown one.
 */
import { and, eq, sql } from "drizzle-orm";
import { type Database, schema } from "../../db/client";
import { ACCOUNT_STATUS } from "../kernel/enums";
import { notFound } from "../kernel/errors";
import { type AccountScope, type TransportScope, transportOf } from "../kernel/scope";
import type { ContactInboxRow, ContactRow } from "../contacts/rows";
import type { ConversationRow } from "../conversations/rows";
import type { InboxRow, WidgetChannelRow } from "../inboxes/rows";
import { WIDGET_CHANNEL } from "../inboxes/inboxes";
import { batch } from "../kernel/batch";

const { accounts, inboxes, webWidgetChannels, contactInboxes, contacts, conversations } = schema;

export type PublicInbox = { inbox: InboxRow; widget: WidgetChannelRow | null };
export type ContactChain = PublicInbox & { contactInbox: ContactInboxRow; contact: ContactRow };
export type ConversationChain = ContactChain & { conversation: ConversationRow };

const inboxColumn = (identifier: string, column: typeof inboxes.id | typeof inboxes.accountId) =>
  sql<number>`(SELECT ${column} FROM ${inboxes} WHERE ${inboxes.identifier} = ${identifier})`;

function inboxQueries(db: Database, identifier: string) {
  return [
    db.select().from(inboxes).where(eq(inboxes.identifier, identifier)),
    db
      .select()
      .from(webWidgetChannels)
      .where(
        sql`${webWidgetChannels.id} = (SELECT ${inboxes.channelId} FROM ${inboxes} WHERE ${inboxes.identifier} = ${identifier} AND ${inboxes.channelType} = ${WIDGET_CHANNEL})
          AND ${webWidgetChannels.accountId} = ${inboxColumn(identifier, inboxes.accountId)}`,
      ),
    db.select({ status: accounts.status }).from(accounts).where(sql`${accounts.id} = ${inboxColumn(identifier, inboxes.accountId)}`),
  ] as const;
}

function contactInboxQuery(db: Database, identifier: string, sourceId: string) {
  return db
    .select()
    .from(contactInboxes)
    .where(
      and(
        sql`${contactInboxes.accountId} = ${inboxColumn(identifier, inboxes.accountId)}`,
        sql`${contactInboxes.inboxId} = ${inboxColumn(identifier, inboxes.id)}`,
        eq(contactInboxes.sourceId, sourceId),
      ),
    );
}

function contactQuery(db: Database, identifier: string, sourceId: string) {
  const accountId = inboxColumn(identifier, inboxes.accountId);
  const contactId = sql`(SELECT ${contactInboxes.contactId} FROM ${contactInboxes} WHERE ${contactInboxes.accountId} = ${accountId} AND ${contactInboxes.inboxId} = ${inboxColumn(identifier, inboxes.id)} AND ${contactInboxes.sourceId} = ${sourceId})`;
  return db.select().from(contacts).where(and(sql`${contacts.accountId} = ${accountId}`, sql`${contacts.id} = ${contactId}`));
}

/** An inbox of an active account is public; a suspended account's inboxes answer like unknown ones. */
function checkInbox(identifier: string, inboxRows: InboxRow[], widgetRows: WidgetChannelRow[], accountRows: Array<{ status: number }>): PublicInbox {
  const inbox = inboxRows[0];
  if (!inbox || accountRows[0]?.status !== ACCOUNT_STATUS.active) throw notFound("Inbox", identifier, "inbox_identifier");
  return { inbox, widget: widgetRows[0] ?? null };
}

function checkContact(sourceId: string, rows: ContactInboxRow[], contactRows: ContactRow[]) {
  const contactInbox = rows[0];
  const contact = contactRows[0];
  if (!contactInbox || !contact || contact.id !== contactInbox.contactId) throw notFound("Contact", sourceId, "contact_identifier");
  return { contactInbox, contact };
}

/**
 * A conversation the contact inbox may see: its own, or, once the contact's identity is verified
 * (hmac_verified), any conversation of that contact in the account (Chatwoot's rule).
 */
export function conversationVisibleTo(chain: ContactChain, conversation: ConversationRow) {
  if (conversation.accountId !== chain.inbox.accountId) return false;
  if (conversation.contactInboxId === chain.contactInbox.id) return true;
  return chain.contactInbox.hmacVerified && conversation.contactId === chain.contact.id;
}

export async function findPublicInbox(transport: TransportScope, identifier: string): Promise<PublicInbox> {
  const { db } = transport;
  const [inboxRows, widgetRows, accountRows] = await batch(db, [...inboxQueries(db, identifier)]);
  return checkInbox(identifier, inboxRows, widgetRows, accountRows);
}

export async function findContactChain(transport: TransportScope, identifier: string, sourceId: string): Promise<ContactChain> {
  const { db } = transport;
  const [inboxRows, widgetRows, accountRows, ciRows, contactRows] = await batch(db, [
    ...inboxQueries(db, identifier),
    contactInboxQuery(db, identifier, sourceId),
    contactQuery(db, identifier, sourceId),
  ]);
  return { ...checkInbox(identifier, inboxRows, widgetRows, accountRows), ...checkContact(sourceId, ciRows, contactRows) };
}

export async function findConversationChain(transport: TransportScope, identifier: string, sourceId: string, displayId: number): Promise<ConversationChain> {
  const { db } = transport;
  const [inboxRows, widgetRows, accountRows, ciRows, contactRows, conversationRows] = await batch(db, [
    ...inboxQueries(db, identifier),
    contactInboxQuery(db, identifier, sourceId),
    contactQuery(db, identifier, sourceId),
    db
      .select()
      .from(conversations)
      .where(and(sql`${conversations.accountId} = ${inboxColumn(identifier, inboxes.accountId)}`, eq(conversations.displayId, displayId))),
  ]);
  const chain = { ...checkInbox(identifier, inboxRows, widgetRows, accountRows), ...checkContact(sourceId, ciRows, contactRows) };
  const conversation = conversationRows[0];
  if (!conversation || !conversationVisibleTo(chain, conversation)) throw notFound("Conversation", displayId, "conversation_id");
  return { ...chain, conversation };
}

/**
 * The scope of a visitor acting as its contact, derived from the request's: the domain's conversation
 * functions take it like any other.
 */
export function contactScope(transport: TransportScope, chain: ContactChain): AccountScope {
  return { ...transportOf(transport), accountId: chain.inbox.accountId, actor: { type: "contact", contact: chain.contact }, role: null };
}
