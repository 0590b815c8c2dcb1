/**
 * Who a new notification is pushed to (Chatwoot's PushNotificationService): every device its own user
 * registered, when the user's push flag for the notification's type is on in the notification's account.
 * The delivery itself (one signed, retried POST per device to the push relay) is the queue's job.
 */
import { and, eq, sql } from "drizzle-orm";
import { schema } from "../../db/client";
import { batch, batchNamed } from "../kernel/batch";
import { DEFAULT_NOTIFICATION_FLAGS, NOTIFICATION_TYPES, notificationFlagBit } from "../kernel/enums";
import type { AccountScope } from "../kernel/scope";
import { type NotificationRecord, notificationRecords } from "./notifications";
import type { NotificationSubscriptionRow } from "./rows";
import { deliverable } from "./push-endpoints";

const { notifications, notificationSettings, notificationSubscriptions } = schema;

export type PushRecipients = { record: NotificationRecord; subscriptions: NotificationSubscriptionRow[] };

/**
 * The notification of the scope's account with the devices to push it to; null when nothing is pushed
 * (the notification or its conversation is gone, its type's push flag is off, or its user has no device).
 */
export async function pushRecipients(scope: AccountScope, notificationId: number): Promise<PushRecipients | null> {
  const { db, accountId } = scope;
  const userOf = sql`(SELECT ${notifications.userId} FROM ${notifications} WHERE ${notifications.id} = ${notificationId} AND ${notifications.accountId} = ${accountId})`;
  const read = await batchNamed(db, {
    notification: db.select().from(notifications).where(and(eq(notifications.id, notificationId), eq(notifications.accountId, accountId))),
    settings: db
      .select({ pushFlags: notificationSettings.pushFlags })
      .from(notificationSettings)
      .where(and(eq(notificationSettings.accountId, accountId), sql`${notificationSettings.userId} = ${userOf}`)),
  });
  const notification = read.notification[0];
  if (!notification) return null;
  // a device is its user's alone, and users are the directory's (docs/shards.md)
  const [stored] = await batch(scope.directory, [
    scope.directory.select().from(notificationSubscriptions).where(eq(notificationSubscriptions.userId, notification.userId)).orderBy(notificationSubscriptions.id),
  ]);
  // a browser registered before endpoints were checked is not handed to the relay
  const subscriptions = stored.filter((s) => deliverable(s.subscriptionType, s.subscriptionAttributes));
  if (subscriptions.length === 0) return null;
  const type = NOTIFICATION_TYPES[notification.notificationType - 1];
  // no settings row yet: Chatwoot's defaults, as the settings read them
  const pushFlags = read.settings[0]?.pushFlags ?? DEFAULT_NOTIFICATION_FLAGS;
  if (!type || (pushFlags & notificationFlagBit(type)) === 0) return null;
  const [record] = await notificationRecords(scope, [notification]);
  if (!record?.conversation) return null; // nothing true to say about a conversation that is gone
  return { record, subscriptions };
}
