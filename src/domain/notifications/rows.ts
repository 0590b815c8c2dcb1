/** The rows the notifications aggregate owns: notifications, their settings and push subscriptions. */
import { schema } from "../../db/client";

export type NotificationRow = typeof schema.notifications.$inferSelect;
export type NotificationSettingRow = typeof schema.notificationSettings.$inferSelect;
export type NotificationSubscriptionRow = typeof schema.notificationSubscriptions.$inferSelect;
