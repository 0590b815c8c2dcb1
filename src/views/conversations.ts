/**
 * The conversation record (the specification's "Conversation as returned inside a contact's conversation
 * list", reference §6.5) and the message push form inside it (§6.9b). Where the specification gives a
 * type it rules: integer epoch seconds for every time (0 when missing) except `timestamp`, a string.
 */
import type { ConversationRecord, ConversationUser, MessageRow } from "../domain/conversation-records";
import { AVAILABILITIES, CONTENT_TYPES, CONVERSATION_STATUSES, MESSAGE_STATUSES, PRIORITIES, ROLES, enumName } from "../domain/enums";
import { contactView } from "./contacts";
import { unixSeconds } from "./time";

/** With auto-offline on and no presence store, an agent reads as offline (Chatwoot's derivation). */
const availabilityStatus = (u: ConversationUser) => (u.autoOffline !== false ? "offline" : enumName(AVAILABILITIES, u.availability));

/** An agent as an assignee (§6.3), in the conversation's account. */
export function assigneeView(u: ConversationUser, accountId: number) {
  return {
    id: u.id,
    account_id: accountId,
    availability_status: availabilityStatus(u),
    auto_offline: u.autoOffline ?? true,
    confirmed: u.confirmedAt !== null,
    email: u.email,
    provider: "email",
    available_name: u.displayName || u.name,
    name: u.name,
    role: enumName(ROLES, u.role),
    thumbnail: u.avatarUrl ?? "",
    ...(Object.keys(u.customAttributes).length > 0 && { custom_attributes: u.customAttributes }),
  };
}

function senderView(record: ConversationRecord, m: MessageRow) {
  const sender = record.senders.get(`${m.senderType}:${m.senderId}`);
  if (!sender) return null;
  if (sender.type === "User") {
    const u = sender.user;
    const avatar = u.avatarUrl ?? "";
    return { id: u.id, name: u.name, available_name: u.displayName || u.name, avatar_url: avatar, type: "user", availability_status: availabilityStatus(u), thumbnail: avatar };
  }
  if (sender.type === "AgentBot") {
    return { id: sender.bot.id, name: sender.bot.name, avatar_url: sender.bot.avatarUrl ?? "", type: "agent_bot" };
  }
  const c = sender.contact;
  return {
    additional_attributes: c.additionalAttributes,
    custom_attributes: c.customAttributes,
    email: c.email,
    id: c.id,
    identifier: c.identifier,
    name: c.name,
    phone_number: c.phoneNumber,
    thumbnail: c.avatarUrl ?? "",
    blocked: c.blocked,
    type: "contact",
  };
}

const SENDER_TYPES: Record<string, string> = { Contact: "contact", User: "agent", AgentBot: "agent_bot" };

/** A message in push form, as conversations embed it. */
export function pushMessageView(record: ConversationRecord, m: MessageRow) {
  const { conversation } = record;
  return {
    id: m.id,
    content: m.content,
    account_id: m.accountId,
    inbox_id: m.inboxId,
    conversation_id: conversation.displayId,
    message_type: m.messageType,
    created_at: unixSeconds(m.createdAt),
    updated_at: unixSeconds(m.updatedAt),
    private: m.private,
    status: enumName(MESSAGE_STATUSES, m.status),
    source_id: m.sourceId,
    content_type: enumName(CONTENT_TYPES, m.contentType),
    content_attributes: m.contentAttributes,
    // the specification's names (contact, agent, agent_bot) for the stored "Contact" / "User" / "AgentBot"
    sender_type: m.senderType ? (SENDER_TYPES[m.senderType] ?? m.senderType) : null,
    sender_id: m.senderId,
    external_source_ids: m.externalSourceIds,
    additional_attributes: m.additionalAttributes,
    processed_message_content: m.processedMessageContent ?? m.content,
    sentiment: m.sentiment,
    conversation: {
      assignee_id: conversation.assigneeId,
      unread_count: record.unreadCount,
      last_activity_at: unixSeconds(conversation.lastActivityAt),
      contact_inbox: { source_id: record.contactInbox?.sourceId ?? null },
    },
    sender: senderView(record, m),
  };
}

export function conversationView(record: ConversationRecord) {
  const { conversation: c } = record;
  return {
    meta: {
      sender: record.contact ? contactView({ contact: record.contact, contactInboxes: null }) : null,
      channel: record.channelType,
      // both absent when unassigned, as in Chatwoot
      ...(record.assignee && { assignee: assigneeView(record.assignee, c.accountId), assignee_type: "User" }),
      ...(record.team && {
        team: {
          id: record.team.id,
          name: record.team.name,
          description: record.team.description,
          allow_auto_assign: record.team.allowAutoAssign,
          account_id: record.team.accountId,
          is_member: record.team.isMember,
        },
      }),
      hmac_verified: record.contactInbox?.hmacVerified ?? false,
    },
    id: c.displayId,
    messages: record.lastMessage ? [pushMessageView(record, record.lastMessage)] : [],
    account_id: c.accountId,
    uuid: c.uuid,
    additional_attributes: c.additionalAttributes,
    agent_last_seen_at: unixSeconds(c.agentLastSeenAt),
    assignee_last_seen_at: unixSeconds(c.assigneeLastSeenAt),
    contact_last_seen_at: unixSeconds(c.contactLastSeenAt),
    // API and website inboxes have no reply window.
    can_reply: true,
    custom_attributes: c.customAttributes,
    inbox_id: c.inboxId,
    labels: record.labels,
    muted: record.contact?.blocked ?? false,
    snoozed_until: c.snoozedUntil ? unixSeconds(c.snoozedUntil) : null,
    status: enumName(CONVERSATION_STATUSES, c.status),
    created_at: unixSeconds(c.createdAt),
    updated_at: unixSeconds(c.updatedAt),
    timestamp: String(unixSeconds(c.lastActivityAt)),
    first_reply_created_at: unixSeconds(c.firstReplyCreatedAt),
    unread_count: record.unreadCount,
    last_non_activity_message: record.lastNonActivityMessage ? pushMessageView(record, record.lastNonActivityMessage) : null,
    last_activity_at: unixSeconds(c.lastActivityAt),
    priority: enumName(PRIORITIES, c.priority),
    waiting_since: unixSeconds(c.waitingSince),
    sla_policy_id: c.slaPolicyId,
    applied_sla: null,
    sla_events: [],
  };
}
