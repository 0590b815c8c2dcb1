import { CONVERSATION_STATUSES, PRIORITIES, enumName } from "../domain/kernel/enums";
import type { ConversationRecord, MessageWithSender } from "../domain/conversations/loader";
import { type MessageContext, messageView } from "./messages";
import { NOBODY_ONLINE, type OnlineUsers, agentView } from "./agents";
import { contactView } from "./contacts";
import { agentBotSlimView, teamView } from "./people";
import { iso, unixSeconds } from "./time";
import { type ContactRow } from "../domain/contacts/rows";

/** A contact as a conversation's `meta.sender` (Chatwoot's Contact without contact_inboxes). */
export const conversationContactView = (contact: ContactRow) => contactView({ contact, contactInboxes: null });

/** What each message inside a conversation shows of it. */
export function messageContext(record: ConversationRecord): MessageContext {
  const { conversation } = record;
  return {
    displayId: conversation.displayId,
    assigneeId: conversation.assigneeId,
    unreadCount: record.unreadCount,
    lastActivityAt: conversation.lastActivityAt,
    sourceId: record.contactInbox?.sourceId ?? null,
  };
}

function assigneeMeta(record: ConversationRecord, accountId: number, online: OnlineUsers) {
  if (record.assignee) return { assignee: agentView(record.assignee, accountId, online), assignee_type: "User" };
  if (record.assigneeBot) return { assignee: agentBotSlimView(record.assigneeBot), assignee_type: "AgentBot" };
  return {};
}

/**
 * The specification's Conversation record. `id` is the per-account display id. Where the specification
 * gives a type it rules (integer times and snoozed_until, `timestamp` as a string); elsewhere Chatwoot's
 * shape is kept (`messages` holds only the latest message). The assignee's availability_status needs the
 * account's presence (`online`), which the routes that show conversations look up once.
 */
export function conversationView(record: ConversationRecord, online: OnlineUsers = NOBODY_ONLINE) {
  const { conversation: c } = record;
  const context = messageContext(record);
  const show = (m: MessageWithSender | null) => (m ? messageView(m, context) : null);
  return {
    id: c.displayId,
    account_id: c.accountId,
    uuid: c.uuid,
    inbox_id: c.inboxId,
    status: enumName(CONVERSATION_STATUSES, c.status),
    priority: enumName(PRIORITIES, c.priority),
    messages: record.lastMessage ? [show(record.lastMessage)] : [],
    additional_attributes: c.additionalAttributes,
    custom_attributes: c.customAttributes,
    agent_last_seen_at: unixSeconds(c.agentLastSeenAt),
    assignee_last_seen_at: unixSeconds(c.assigneeLastSeenAt),
    contact_last_seen_at: unixSeconds(c.contactLastSeenAt),
    // API and website inboxes have no reply window
    can_reply: true,
    labels: record.labels,
    muted: record.contact?.blocked ?? false,
    snoozed_until: c.snoozedUntil === null ? null : unixSeconds(c.snoozedUntil),
    created_at: unixSeconds(c.createdAt),
    updated_at: unixSeconds(c.updatedAt),
    timestamp: String(unixSeconds(c.lastActivityAt)),
    last_activity_at: unixSeconds(c.lastActivityAt),
    first_reply_created_at: unixSeconds(c.firstReplyCreatedAt),
    waiting_since: unixSeconds(c.waitingSince),
    unread_count: record.unreadCount,
    last_non_activity_message: show(record.lastNonActivityMessage),
    sla_policy_id: c.slaPolicyId,
    applied_sla: null,
    sla_events: [],
    meta: {
      sender: record.contact ? conversationContactView(record.contact) : null,
      channel: record.inbox?.channelType ?? null,
      ...assigneeMeta(record, c.accountId, online),
      ...(record.team && { team: teamView(record.team) }),
      hmac_verified: record.contactInbox?.hmacVerified ?? false,
    },
  };
}

export type ConversationCountsView = { mine_count: number; assigned_count: number; unassigned_count: number; all_count: number };

export function countsView(counts: { mine: number; unassigned: number; all: number }): ConversationCountsView {
  return { mine_count: counts.mine, assigned_count: counts.all - counts.unassigned, unassigned_count: counts.unassigned, all_count: counts.all };
}

/** toggle_status answer (Chatwoot renders snoozed_until here as ISO). */
export function statusToggleView(result: { success: boolean | null; record: ConversationRecord }) {
  const c = result.record.conversation;
  return {
    meta: {},
    payload: {
      success: result.success,
      conversation_id: c.displayId,
      current_status: enumName(CONVERSATION_STATUSES, c.status),
      snoozed_until: iso(c.snoozedUntil),
    },
  };
}
