/**
 * What the push relay receives for one device: a POST (signed and retried like every delivery) whose body
 * carries Chatwoot's push message for that device. `fcm_options` is the FCM HTTP v1 message Chatwoot
 * sends to Firebase or hands its push hub (its `send_push` body has the same key), so a relay in front
 * of FCM can send `{message: fcm_options}` as it is; its `data` holds the notification the way Chatwoot's
 * mobile app reads it, both as `payload` (FCM v1: `{data: {notification}}`) and as `notification` (the
 * legacy form). A browser registration gets `web_push` instead, the message Chatwoot's service worker
 * shows, with the endpoint and keys in `subscription_attributes`.
 */
import type { PushRecipients } from "../domain/notifications/push";
import type { NotificationSubscriptionRow } from "../domain/notifications/rows";
import { NOTIFICATION_TYPES } from "../domain/kernel/enums";
import { MAX_ATTRIBUTES_BYTES } from "../domain/notifications/push-endpoints";
import { pushMessageTitle } from "../views/notifications";

/** What a relay needs of a registration, when its attributes as registered are over the bound. */
const ESSENTIAL_ATTRIBUTES = ["push_token", "endpoint", "p256dh", "auth", "devicePlatform"];

/**
 * The registration's attributes as the device sent them, when within the bound registrations have
 * (MAX_ATTRIBUTES_BYTES); a row stored before that bound keeps only the attributes a relay needs, each
 * a short string, so the relay's body stays small whatever was stored.
 */
function forwardedAttributes(attributes: Record<string, unknown>): Record<string, unknown> {
  if (new TextEncoder().encode(JSON.stringify(attributes)).byteLength <= MAX_ATTRIBUTES_BYTES) return attributes;
  return Object.fromEntries(ESSENTIAL_ATTRIBUTES.flatMap((key) => (typeof attributes[key] === "string" && attributes[key].length <= 1024 ? [[key, attributes[key]]] : [])));
}

/** "conversation_assignment" -> "Conversation Assignment" (Rails' titleize, Chatwoot's push title). */
const titleize = (name: string) => name.replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());

export function pushBody(recipients: Pick<PushRecipients, "record">, subscription: NotificationSubscriptionRow, frontendUrl: string) {
  const { record } = recipients;
  const n = record.notification;
  const type = NOTIFICATION_TYPES[n.notificationType - 1];
  const displayId = record.conversation?.conversation.displayId ?? n.primaryActorId;
  const messageTitle = pushMessageTitle(record);
  // Chatwoot's fcm_push_data; its apps open the conversation from primary_actor's id (the display id)
  const notification = {
    id: n.id,
    notification_type: type,
    primary_actor_id: n.primaryActorId,
    primary_actor_type: n.primaryActorType,
    primary_actor: { id: displayId, conversation_id: displayId },
    account_id: n.accountId,
  };
  const attributes = forwardedAttributes(subscription.subscriptionAttributes as Record<string, unknown>);
  const platform = typeof attributes.devicePlatform === "string" ? attributes.devicePlatform : null;
  const message =
    subscription.subscriptionType === "fcm"
      ? {
          fcm_options: {
            token: subscription.pushToken,
            data: { payload: JSON.stringify({ data: { notification } }), notification: JSON.stringify(notification) },
            notification: { title: titleize(type), body: messageTitle },
            android: { priority: "high", collapse_key: `chatwoot_${n.primaryActorType.toLowerCase()}_${n.primaryActorId}` },
            apns: { payload: { aps: { sound: "default" } } },
          },
        }
      : {
          web_push: {
            title: messageTitle,
            tag: `${type}_${displayId}_${n.id}`,
            url: `${frontendUrl.replace(/\/$/, "")}/app/accounts/${n.accountId}/conversations/${displayId}`,
          },
        };
  return {
    push_token: subscription.pushToken,
    subscription_type: subscription.subscriptionType,
    platform,
    subscription_attributes: attributes,
    account_id: n.accountId,
    user_id: n.userId,
    title: titleize(type),
    body: messageTitle,
    notification,
    ...message,
  };
}
