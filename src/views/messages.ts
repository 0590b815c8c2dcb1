import { CONTENT_TYPES, MESSAGE_STATUSES, enumName } from "../domain/kernel/enums";
import type { MessageWithSender, Sender } from "../domain/conversations/loader";
import { agentPushView } from "./agents";
import type { MessageList, MessageResult } from "../domain/conversations/message-results";
import { iso, unixSeconds } from "./time";
import { attachmentView, contentAttributesView, messageAttachmentsView } from "./attachments";
import { type ContactRow } from "../domain/contacts/rows";
import { type AgentBotRow } from "../domain/people/rows";

/** The specification's sender_type names for the stored Chatwoot class names. */
const SENDER_TYPES: Record<string, string> = { User: "agent", Contact: "contact", AgentBot: "agent_bot" };

/** What a message shows of its conversation. */
export type MessageContext = {
  displayId: number;
  assigneeId: number | null;
  unreadCount: number;
  lastActivityAt: number;
  sourceId: string | null;
};

export function contactPushView(contact: ContactRow) {
  return {
    additional_attributes: contact.additionalAttributes,
    custom_attributes: contact.customAttributes,
    email: contact.email,
    id: contact.id,
    identifier: contact.identifier,
    name: contact.name,
    phone_number: contact.phoneNumber,
    thumbnail: contact.avatarUrl ?? "",
    blocked: contact.blocked,
    type: "contact",
  };
}

export function agentBotPushView(bot: AgentBotRow) {
  return { id: bot.id, name: bot.name, avatar_url: bot.avatarUrl ?? "", type: "agent_bot" };
}

export function senderView(sender: Sender | null) {
  if (!sender) return null;
  if (sender.type === "user") return agentPushView(sender.user);
  if (sender.type === "contact") return contactPushView(sender.contact);
  return agentBotPushView(sender.bot);
}

/**
 * The specification's Message record, used everywhere a message is shown (create, update, delete, the
 * messages list, and inside conversations). `attachment` (the specification's field) is the first file or
 * null; `attachments` (Chatwoot's) lists them all and appears only when there are any.
 */
export function messageView({ message, sender }: MessageWithSender, context: MessageContext) {
  return {
    id: message.id,
    content: message.content,
    account_id: message.accountId,
    inbox_id: message.inboxId,
    conversation_id: context.displayId,
    message_type: message.messageType,
    created_at: unixSeconds(message.createdAt),
    updated_at: unixSeconds(message.updatedAt),
    private: message.private,
    status: enumName(MESSAGE_STATUSES, message.status),
    source_id: message.sourceId,
    content_type: enumName(CONTENT_TYPES, message.contentType),
    content_attributes: contentAttributesView(message),
    sender_type: message.senderType ? (SENDER_TYPES[message.senderType] ?? null) : null,
    sender_id: message.senderId,
    external_source_ids: message.externalSourceIds,
    additional_attributes: message.additionalAttributes,
    processed_message_content: message.processedMessageContent,
    sentiment: message.sentiment,
    conversation: {
      assignee_id: context.assigneeId,
      unread_count: context.unreadCount,
      last_activity_at: unixSeconds(context.lastActivityAt),
      contact_inbox: { source_id: context.sourceId },
    },
    attachment: message.attachments[0] ? attachmentView(message.attachments[0], message) : null,
    ...messageAttachmentsView(message),
    sender: senderView(sender),
    ...(message.echoId !== null && { echo_id: message.echoId }),
  };
}

/** A created, updated or deleted message. */
export function messageResultView(result: MessageResult) {
  return messageView(result.message, {
    displayId: result.conversation.displayId,
    assigneeId: result.conversation.assigneeId,
    unreadCount: result.unreadCount,
    lastActivityAt: result.conversation.lastActivityAt,
    sourceId: result.sourceId,
  });
}

/** The messages index (Chatwoot §5.9): conversation context in `meta`, messages oldest first. */
export function messageListView(list: MessageList) {
  const c = list.conversation;
  const context: MessageContext = {
    displayId: c.displayId,
    assigneeId: c.assigneeId,
    unreadCount: list.unreadCount,
    lastActivityAt: c.lastActivityAt,
    sourceId: list.sourceId,
  };
  return {
    meta: {
      labels: list.labels,
      additional_attributes: c.additionalAttributes,
      contact: list.contact ? contactPushView(list.contact) : null,
      ...(list.assignee && { assignee: agentPushView(list.assignee) }),
      agent_last_seen_at: iso(c.agentLastSeenAt),
      assignee_last_seen_at: iso(c.assigneeLastSeenAt),
    },
    payload: list.messages.map((m) => messageView(m, context)),
  };
}
