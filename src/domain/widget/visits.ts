/**
 * What `/api/v1/widget/*` adds to the public API's rules: the widget names no conversation, it acts on
 * the visitor's *current* one (Chatwoot's `conversations.last`), opens one implicitly with its first
 * message, and reaches labels and custom attributes through it. Every change goes through the same
 * domain functions as the public and account APIs (conversations, messages, labels, contacts), acting
 * as the contact, so the events, webhooks and live frames are the same.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { batch } from "../kernel/batch";
import { CONVERSATION_STATUS, WIDGET_FEATURES } from "../kernel/enums";
import { DomainError, forbidden, notFound } from "../kernel/errors";
import type { TransportScope } from "../kernel/scope";
import { createConversation, conversationLabels, replaceCustomAttributes, replaceLabels } from "../conversations/conversations";
import { emailConversationTranscript } from "../conversations/transcript";
import { destroyCustomAttributes } from "../contacts/contacts";
import type { ConversationRow } from "../conversations/rows";
import { inboxMemberSet } from "../people/member-sets";
import type { AgentRow } from "../people/agents";
import { type ContactChain, type ConversationChain, contactScope, conversationVisibleTo, findContactChain } from "./chain";
import { resolvePublicConversation } from "./conversations";
import { checkPublicAttributes } from "./attributes";
import type { Website } from "./website";

const { conversations, contactInboxes, labels, messages } = schema;

/** What the widget's browser tells of itself when a conversation starts (Chatwoot's additional attributes). */
export type VisitContext = {
  browserLanguage?: string | null;
  browser?: Record<string, unknown>;
  initiatedAt?: string | null;
  referer?: string | null;
};

const visitAttributes = (context: VisitContext) => ({
  browser_language: context.browserLanguage ?? null,
  browser: context.browser ?? {},
  initiated_at: { timestamp: context.initiatedAt ?? null },
  referer: context.referer ?? null,
});

/**
 * The visitor's current conversation: the latest of its contact inbox in this inbox, or, once the
 * contact inbox is verified, the latest of the contact's verified contact inboxes in this inbox
 * (Chatwoot's continuity across devices). Null when there is none.
 */
export async function currentConversation(transport: TransportScope, chain: ContactChain): Promise<ConversationChain | null> {
  const { db } = transport;
  const { inbox, contactInbox, contact } = chain;
  const verifiedInboxes = sql`(SELECT ${contactInboxes.id} FROM ${contactInboxes} WHERE ${contactInboxes.accountId} = ${inbox.accountId} AND ${contactInboxes.contactId} = ${contact.id} AND ${contactInboxes.inboxId} = ${inbox.id} AND ${contactInboxes.hmacVerified} = 1)`;
  const [rows] = await batch(db, [
    db
      .select()
      .from(conversations)
      .where(
        and(
          eq(conversations.accountId, inbox.accountId),
          eq(conversations.inboxId, inbox.id),
          contactInbox.hmacVerified ? and(eq(conversations.contactId, contact.id), sql`${conversations.contactInboxId} IN ${verifiedInboxes}`) : eq(conversations.contactInboxId, contactInbox.id),
        ),
      )
      .orderBy(desc(conversations.id))
      .limit(1),
  ]);
  const conversation = rows[0];
  return conversation && conversationVisibleTo(chain, conversation) ? { ...chain, conversation } : null;
}

/** The current conversation, or Chatwoot's 404 (`{"error":"Resource could not be found"}`) when there is none. */
export async function requireCurrentConversation(transport: TransportScope, chain: ContactChain): Promise<ConversationChain> {
  const found = await currentConversation(transport, chain);
  if (!found) throw notFound("Conversation", "of this visitor", "conversation");
  return found;
}

/** A new conversation of the visitor, with the browser's context and (checked) custom attributes. */
export async function openVisit(transport: TransportScope, chain: ContactChain, input: { context: VisitContext; customAttributes?: Record<string, unknown> }): Promise<ConversationChain> {
  checkPublicAttributes({ custom_attributes: input.customAttributes, additional_attributes: visitAttributes(input.context) });
  const record = await createConversation(contactScope(transport, chain), {
    inboxId: chain.inbox.id,
    contactId: chain.contact.id,
    sourceId: chain.contactInbox.sourceId,
    additionalAttributes: visitAttributes(input.context),
    customAttributes: input.customAttributes,
  });
  return { ...chain, conversation: record.conversation };
}

/** The current conversation, opened with the browser's context when there is none (the widget's first message). */
export async function currentOrNewConversation(transport: TransportScope, chain: ContactChain, context: VisitContext): Promise<ConversationChain> {
  return (await currentConversation(transport, chain)) ?? openVisit(transport, chain, { context });
}

/** set_custom_attributes: the current conversation's custom attributes are replaced (checked, bounded). */
export async function replaceVisitAttributes(transport: TransportScope, chain: ConversationChain, values: Record<string, unknown>) {
  checkPublicAttributes({ custom_attributes: values });
  await replaceCustomAttributes(contactScope(transport, chain), chain.conversation.displayId, values);
}

/** destroy_custom_attributes: the keys are removed from the current conversation's custom attributes. */
export async function removeVisitAttributes(transport: TransportScope, chain: ConversationChain, keys: string[]): Promise<ConversationRow> {
  const kept = Object.fromEntries(Object.entries(chain.conversation.customAttributes).filter(([key]) => !keys.includes(key)));
  const values = await replaceCustomAttributes(contactScope(transport, chain), chain.conversation.displayId, kept);
  return { ...chain.conversation, customAttributes: values };
}

/**
 * The site labels the visitor's current conversation with a label the account already has (Chatwoot's
 * rule: an unknown title, or no conversation, changes nothing). Removal takes any label off.
 */
export async function labelVisit(transport: TransportScope, chain: ContactChain, title: string, on: boolean) {
  const { db } = transport;
  const current = await currentConversation(transport, chain);
  if (!current) return;
  const wanted = title.trim().toLowerCase();
  const [defined] = await batch(db, [db.select({ title: labels.title }).from(labels).where(and(eq(labels.accountId, chain.inbox.accountId), eq(labels.title, wanted)))]);
  const scope = contactScope(transport, current);
  const present = await conversationLabels(scope, current.conversation.displayId);
  if (on && defined.length > 0 && !present.includes(wanted)) await replaceLabels(scope, current.conversation.displayId, [...present, wanted]);
  if (!on && present.includes(wanted)) await replaceLabels(scope, current.conversation.displayId, present.filter((l) => l !== wanted));
}

/** Whether the inbox lets the visitor end a conversation (the widget's `end_conversation` feature). */
const endsConversations = (website: Website) => (website.widget.featureFlags & (1 << WIDGET_FEATURES.indexOf("end_conversation"))) !== 0;

/**
 * toggle_status: the visitor ends its current conversation, where the inbox allows it (403 otherwise,
 * 404 without a conversation); a resolved one stays as it is.
 */
export async function endVisit(transport: TransportScope, website: Website, chain: ContactChain) {
  if (!endsConversations(website)) throw forbidden("This inbox does not let visitors end conversations (end_conversation is off)", "end_conversation_disabled");
  const current = await requireCurrentConversation(transport, chain);
  if (current.conversation.status !== CONVERSATION_STATUS.resolved) await resolvePublicConversation(transport, current);
}

/**
 * transcript: the current conversation's public messages mailed to the contact's own stored e-mail
 * (never an address the visitor only claimed, which is another contact's), against the account's
 * transcript allowance. Without a conversation, Chatwoot's 429.
 */
export async function mailVisitTranscript(transport: TransportScope, chain: ContactChain) {
  const current = await currentConversation(transport, chain);
  if (!current) {
    const message = "There is no conversation to send";
    throw new DomainError("rate_limited", message, [{ field: "conversation", message, code: "no_conversation" }]);
  }
  if (!chain.contact.email) return;
  await emailConversationTranscript(contactScope(transport, current), current.conversation.displayId, chain.contact.email);
}

/** destroy_custom_attributes of the contact: the keys are removed from the visitor's own contact. */
export async function removeVisitorAttributes(transport: TransportScope, chain: ContactChain, keys: string[]): Promise<ContactChain> {
  await destroyCustomAttributes(contactScope(transport, chain), chain.contact.id, keys);
  return findContactChain(transport, chain.inbox.identifier, chain.contactInbox.sourceId);
}

/**
 * The conversation a message the visitor may answer belongs to: one of this visitor's conversations in
 * this inbox, or a 404 naming the message (a message of another visitor is as unknown as a missing one).
 */
export async function conversationOfVisitorMessage(transport: TransportScope, chain: ContactChain, messageId: number): Promise<ConversationChain> {
  const { db } = transport;
  const accountId = chain.inbox.accountId;
  const [rows] = await batch(db, [
    db
      .select()
      .from(conversations)
      .where(
        and(
          eq(conversations.accountId, accountId),
          eq(conversations.inboxId, chain.inbox.id),
          sql`${conversations.id} = (SELECT ${messages.conversationId} FROM ${messages} WHERE ${messages.accountId} = ${accountId} AND ${messages.id} = ${messageId} AND ${messages.inboxId} = ${chain.inbox.id})`,
        ),
      ),
  ]);
  const conversation = rows[0];
  if (!conversation || !conversationVisibleTo(chain, conversation)) throw notFound("Message", messageId, "id");
  return { ...chain, conversation };
}

/** The inbox's agents, as the widget lists them (their presence is the transport's to add). */
export async function websiteAgents(transport: TransportScope, website: Website): Promise<AgentRow[]> {
  const { db } = transport;
  const [agents] = await batch(db, [inboxMemberSet.agentsQuery(db, website.inbox.accountId, website.inbox.id)]);
  return agents as AgentRow[];
}
