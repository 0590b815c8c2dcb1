/**
 * Notifications as Chatwoot shows them: the list item and live-feed form (push_event_data, with the
 * conversation as `primary_actor`), the plain record that PATCH, unread and snooze answer (Chatwoot renders
 * the model there: ISO times), the list envelope, and the notification settings.
 */
import type { NotificationRecord } from "../domain/notifications/notifications";
import type { NotificationRow, NotificationSettingRow, NotificationSubscriptionRow } from "../domain/notifications/rows";
import { allFlags, selectedFlags } from "../domain/notifications/settings";
import { NOTIFICATION_TYPES } from "../domain/kernel/enums";
import { agentPushView } from "./agents";
import { conversationView, messageContext } from "./conversations";
import { messageView } from "./messages";
import { iso, unixSeconds } from "./time";

const typeName = (row: NotificationRow) => NOTIFICATION_TYPES[row.notificationType - 1] ?? "conversation_creation";

/** `[@Jane](mention://user/1/Jane)` reads `@Jane` in a title (Chatwoot's transform_user_mention_content). */
const plainMentions = (text: string) => text.replace(/\[@([^\]]*)\]\(mention:\/\/(?:user|team)\/\d+\/[^)]*\)/g, "@$1");

/** The first ten words, as Rails' truncate_words cuts them. */
function firstWords(text: string, count = 10) {
  const words = text.trim().split(/\s+/);
  return words.length > count ? `${words.slice(0, count).join(" ")}...` : text.trim();
}

/** Chatwoot's push message titles (its English locale). */
export function pushMessageTitle(record: NotificationRecord): string {
  const displayId = record.conversation?.conversation.displayId ?? record.notification.primaryActorId;
  const content = record.secondary?.type === "Message" ? plainMentions(firstWords(record.secondary.message.message.content ?? "")) : "";
  switch (typeName(record.notification)) {
    case "conversation_creation":
      return `[New conversation] - #${displayId} has been created in ${record.conversation?.inbox?.name ?? ""}`;
    case "conversation_assignment":
      return `[Assigned to you] - #${displayId} has been assigned to you`;
    case "assigned_conversation_new_message":
    case "participating_conversation_new_message":
      return `[New message] - #${displayId} ${content}`;
    case "conversation_mention":
      return `[#${displayId}] ${content}`;
  }
}

function secondaryActorView(record: NotificationRecord) {
  const { secondary, conversation } = record;
  if (!secondary) return null;
  if (secondary.type === "User") return agentPushView(secondary.user);
  return conversation ? messageView(secondary.message, messageContext(conversation)) : null;
}

/** A notification in the list and on the live feed. */
export function notificationView(record: NotificationRecord) {
  const n = record.notification;
  return {
    id: n.id,
    notification_type: typeName(n),
    push_message_title: pushMessageTitle(record),
    primary_actor_type: n.primaryActorType,
    primary_actor_id: n.primaryActorId,
    primary_actor: record.conversation ? conversationView(record.conversation) : null,
    // Chatwoot renders its times as stored here (ISO), but created_at and last_activity_at as Unix seconds
    read_at: iso(n.readAt),
    secondary_actor: secondaryActorView(record),
    user: record.user ? agentPushView(record.user) : null,
    created_at: unixSeconds(n.createdAt),
    last_activity_at: unixSeconds(n.lastActivityAt),
    snoozed_until: iso(n.snoozedUntil),
    meta: n.meta,
    account_id: n.accountId,
  };
}

/** The notification as stored, as Chatwoot answers PATCH, unread and snooze (`render json: notification`). */
export function notificationRowView(n: NotificationRow) {
  return {
    id: n.id,
    user_id: n.userId,
    account_id: n.accountId,
    notification_type: typeName(n),
    primary_actor_type: n.primaryActorType,
    primary_actor_id: n.primaryActorId,
    secondary_actor_type: n.secondaryActorType,
    secondary_actor_id: n.secondaryActorId,
    read_at: iso(n.readAt),
    snoozed_until: iso(n.snoozedUntil),
    last_activity_at: iso(n.lastActivityAt),
    meta: n.meta,
    created_at: iso(n.createdAt),
    updated_at: iso(n.updatedAt),
  };
}

/** GET /notifications: `current_page` echoes the `page` given (a string, as Chatwoot's params are), else 1. */
export function notificationListView(list: { records: NotificationRecord[]; unreadCount: number; count: number }, page: string | undefined) {
  return {
    data: {
      meta: { unread_count: list.unreadCount, count: list.count, current_page: page ?? 1 },
      payload: list.records.map(notificationView),
    },
  };
}

/**
 * The live feed's data for `notification.created`, `.updated` and `.deleted` (Chatwoot's
 * ActionCableListener): the notification (for a deleted one, only its id) and its user's totals in the
 * account. Feed it `notificationFeedData` (src/domain/notifications/notifications.ts) of the outbox
 * event's `subjectId` and `data.user_id`, with the account id the feed adds to every frame.
 */
export function notificationFeedPayload(
  feed: { record: NotificationRecord | null; unreadCount: number; count: number },
  notificationId: number,
  accountId: number,
) {
  return {
    notification: feed.record ? notificationView(feed.record) : { id: notificationId },
    unread_count: feed.unreadCount,
    count: feed.count,
    account_id: accountId,
  };
}

export function notificationSettingsView(row: NotificationSettingRow) {
  return {
    id: row.id,
    user_id: row.userId,
    account_id: row.accountId,
    all_email_flags: allFlags("email"),
    selected_email_flags: selectedFlags("email", row.emailFlags),
    all_push_flags: allFlags("push"),
    selected_push_flags: selectedFlags("push", row.pushFlags),
  };
}

/** A registered device, as Chatwoot answers its creation (`render json: subscription`). */
export function notificationSubscriptionView(row: NotificationSubscriptionRow) {
  return {
    id: row.id,
    user_id: row.userId,
    subscription_type: row.subscriptionType,
    subscription_attributes: row.subscriptionAttributes,
    identifier: row.pushToken,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
