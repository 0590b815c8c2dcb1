/**
 * The website widget API's answers (/api/v1/widget/*), in Chatwoot's shapes: the visitor's contact as
 * `has_*` flags, the current conversation, messages with integer `message_type` and Unix seconds.
 */
import { CONVERSATION_STATUSES, enumName } from "../domain/kernel/enums";
import type { ConversationRow } from "../domain/conversations/rows";
import type { MessageWithSender } from "../domain/conversations/loader";
import type { ContactChain } from "../domain/widget/chain";
import type { AgentRow } from "../domain/people/agents";
import { type OnlineUsers, availabilityStatus } from "./agents";
import { publicContactRecordView, publicContactView, publicMessageView } from "./widget";
import { unixSeconds } from "./time";

const present = (value: string | null) => value !== null && value !== "";

/** The `has_*` flags the widget reads (an e-mail or phone the visitor claimed counts, as the visitor sees it). */
function contactFlags(chain: ContactChain) {
  const seen = publicContactView({ contact: chain.contact, sourceId: chain.contactInbox.sourceId, pubsubToken: chain.contactInbox.pubsubToken, hmacVerified: chain.contactInbox.hmacVerified });
  return { id: chain.contact.id, has_email: present(seen.email), has_name: present(chain.contact.name), has_phone_number: present(seen.phone_number) };
}

/** GET /contact. */
export const widgetContactView = (chain: ContactChain) => ({ ...contactFlags(chain), identifier: widgetContactRecordView(chain).identifier });

/** PATCH /contact, /contact/set_user (with the new token when the visitor became another contact). */
export const widgetContactUpdatedView = (chain: ContactChain, widgetAuthToken?: string) => ({ ...contactFlags(chain), ...(widgetAuthToken && { widget_auth_token: widgetAuthToken }) });

/** The visitor's whole contact, as far as a visitor may see it. */
export const widgetContactRecordView = (chain: Pick<ContactChain, "contact" | "contactInbox">) =>
  publicContactRecordView({ contact: chain.contact, sourceId: chain.contactInbox.sourceId, pubsubToken: chain.contactInbox.pubsubToken, hmacVerified: chain.contactInbox.hmacVerified });

/** GET /conversations: the current conversation, `{}` without one. */
export const widgetConversationView = (conversation: ConversationRow | null) =>
  conversation
    ? { id: conversation.displayId, inbox_id: conversation.inboxId, contact_last_seen_at: unixSeconds(conversation.contactLastSeenAt), status: enumName(CONVERSATION_STATUSES, conversation.status) }
    : {};

/** POST /conversations and destroy_custom_attributes: the conversation with its messages and the contact. */
export const widgetConversationRecordView = (conversation: ConversationRow, contact: Pick<ContactChain, "contact" | "contactInbox">, shown: MessageWithSender[]) => ({
  ...widgetConversationView(conversation),
  messages: shown.map((m) => publicMessageView(m, conversation.displayId)),
  custom_attributes: conversation.customAttributes,
  contact: widgetContactRecordView(contact),
});

/** GET /messages: `meta` is always an object (the widget destructures it). */
export const widgetMessagesView = (conversation: ConversationRow | null, shown: MessageWithSender[]) => ({
  payload: conversation ? shown.map((m) => publicMessageView(m, conversation.displayId)) : [],
  meta: conversation ? { contact_last_seen_at: unixSeconds(conversation.contactLastSeenAt) } : {},
});

/** POST /messages: the visitor's new message. */
export const widgetMessageView = (shown: MessageWithSender, conversation: ConversationRow) => ({
  ...publicMessageView(shown, conversation.displayId),
  inbox_id: shown.message.inboxId,
  private: false,
  source_id: shown.message.sourceId,
});

/** GET /inbox_members: who answers here, with their presence. */
export const widgetInboxMembersView = (agents: AgentRow[], online: OnlineUsers) => ({
  payload: agents.map((agent) => ({
    id: agent.userId,
    name: agent.displayName || agent.name,
    avatar_url: agent.avatarUrl ?? "",
    availability_status: availabilityStatus(agent.userId, agent.availability, online),
  })),
});
