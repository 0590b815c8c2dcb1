/**
 * /notifications and /notification_settings: the calling user's own, in this account (Chatwoot's
 * NotificationsController and NotificationSettingsController). User keys only; another user's
 * notification is a 404.
 */
import { Hono } from "hono";
import {
  deleteNotification,
  destroyAllNotifications,
  listNotifications,
  markNotificationRead,
  markNotificationUnread,
  readAllNotifications,
  snoozeNotification,
  unreadNotificationCount,
} from "../../domain/notifications/notifications";
import { getNotificationSettings, updateNotificationSettings } from "../../domain/notifications/settings";
import type { AppEnv } from "../../http/app-env";
import { doc } from "../../http/openapi";
import { accountScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { IdParam } from "../../schemas/common";
import {
  DestroyAllBody,
  NotificationList,
  NotificationListQuery,
  NotificationRecord,
  NotificationSettings,
  NotificationSettingsUpdate,
  ReadAllBody,
  SnoozeBody,
} from "../../schemas/notifications";
import { Empty } from "../../schemas/responses";
import { z } from "zod";
import { notificationListView, notificationRowView, notificationSettingsView } from "../../views/notifications";

export const notificationsApi = new Hono<AppEnv>()
  .get(
    "/",
    doc({
      summary: "List your notifications in this account",
      description:
        "Unread and not snoozed ones unless `includes[]` names `read` and/or `snoozed`; by last activity, `sort_order` `desc` (default) or `asc`; 15 a page (`page`). `meta.unread_count` and `meta.count` are of the filtered set.",
      response: NotificationList,
    }),
    validate("query", NotificationListQuery),
    async (c) => {
      const query = c.req.valid("query");
      const list = await listNotifications(accountScope(c), {
        includeRead: query.includes.includes("read"),
        includeSnoozed: query.includes.includes("snoozed"),
        order: query.sort_order ?? "desc",
        page: query.page === undefined ? 1 : Number(query.page),
      });
      return c.json(notificationListView(list, query.page));
    },
  )
  .get("/unread_count", doc({ summary: "Count your unread notifications in this account", response: z.number().int() }), async (c) =>
    c.json(await unreadNotificationCount(accountScope(c))),
  )
  .post(
    "/read_all",
    doc({ summary: "Mark your notifications read: all, or one conversation's (primary_actor_type Conversation, primary_actor_id)", response: Empty }),
    validate("json", ReadAllBody),
    async (c) => {
      const body = c.req.valid("json");
      const actor = body.primary_actor_type && body.primary_actor_id ? { type: body.primary_actor_type, id: body.primary_actor_id } : null;
      await readAllNotifications(accountScope(c), actor);
      return c.json({});
    },
  )
  .post(
    "/destroy_all",
    doc({ summary: "Delete your notifications: all, or the read ones (`type: read`)", response: Empty }),
    validate("json", DestroyAllBody),
    async (c) => {
      await destroyAllNotifications(accountScope(c), c.req.valid("json").type === "read" ? "read" : "all");
      return c.json({});
    },
  )
  .patch("/:id", doc({ summary: "Mark a notification read", response: NotificationRecord }), validate("param", IdParam), async (c) =>
    c.json(notificationRowView(await markNotificationRead(accountScope(c), c.req.valid("param").id))),
  )
  .post("/:id/unread", doc({ summary: "Mark a notification unread", response: NotificationRecord }), validate("param", IdParam), async (c) =>
    c.json(notificationRowView(await markNotificationUnread(accountScope(c), c.req.valid("param").id))),
  )
  .post(
    "/:id/snooze",
    doc({ summary: "Snooze a notification until a time (snoozed_until, Unix seconds)", response: NotificationRecord }),
    validate("param", IdParam),
    validate("json", SnoozeBody),
    async (c) => {
      const until = Math.floor(c.req.valid("json").snoozed_until * 1000);
      return c.json(notificationRowView(await snoozeNotification(accountScope(c), c.req.valid("param").id, until)));
    },
  )
  .delete("/:id", doc({ summary: "Delete a notification", response: Empty }), validate("param", IdParam), async (c) => {
    await deleteNotification(accountScope(c), c.req.valid("param").id);
    return c.json({});
  });

export const notificationSettingsApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "Show your notification settings in this account", response: NotificationSettings }), async (c) =>
    c.json(notificationSettingsView(await getNotificationSettings(accountScope(c)))),
  )
  .on(
    ["PUT", "PATCH"],
    "/",
    doc({ summary: "Choose which notifications you get by e-mail and by push", response: NotificationSettings }),
    validate("json", NotificationSettingsUpdate),
    async (c) => {
      const { notification_settings: body } = c.req.valid("json");
      const row = await updateNotificationSettings(accountScope(c), { emailFlags: body.selected_email_flags, pushFlags: body.selected_push_flags });
      return c.json(notificationSettingsView(row));
    },
  );
