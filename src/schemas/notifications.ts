/** Requests and answers of notifications, notification settings, participants and push subscriptions. */
import { z } from "zod";
import { NOTIFICATION_TYPES } from "../domain/kernel/enums";
import { Id, JsonObject, UserIds } from "./common";
import { UnixSeconds } from "./conversations";
import { Conversation, isoTime, json, seconds } from "./responses";

/** A query value given once is a string, given twice a list (`includes[]=read&includes[]=snoozed`). */
const listOfStrings = z.preprocess((v) => (typeof v === "string" ? [v] : v), z.array(z.string().max(50)).max(10));

/** GET /notifications */
export const NotificationListQuery = z
  .object({
    "includes[]": listOfStrings.optional(),
    includes: listOfStrings.optional(),
    sort_order: z.enum(["asc", "desc"]).optional(),
    page: z.string().regex(/^\d{1,6}$/, { error: "must be a page number" }).refine((p) => Number(p) >= 1, { error: "must be 1 or more" }).optional(),
  })
  .transform(({ "includes[]": bracketed, includes, ...rest }) => ({ ...rest, includes: [...(bracketed ?? []), ...(includes ?? [])] }));

/** POST /notifications/read_all: everything, or one conversation's notifications. */
export const ReadAllBody = z
  .object({ primary_actor_type: z.literal("Conversation").optional(), primary_actor_id: Id.optional() })
  .superRefine((body, ctx) => {
    if ((body.primary_actor_type === undefined) !== (body.primary_actor_id === undefined)) {
      const missing = body.primary_actor_type === undefined ? "primary_actor_type" : "primary_actor_id";
      ctx.addIssue({ code: "custom", path: [missing], message: "is required with the other primary actor field", params: { code: "required" } });
    }
  });

/** POST /notifications/{id}/snooze: Unix seconds, as Chatwoot parses them. */
export const SnoozeBody = z.object({ snoozed_until: UnixSeconds });

/** POST /notifications/destroy_all: `type: read` deletes the read ones; anything else, all (Chatwoot's rule). */
export const DestroyAllBody = z.object({ type: z.string().max(50).optional() });

const emailFlags = NOTIFICATION_TYPES.map((t) => `email_${t}`) as [string, ...string[]];
const pushFlags = NOTIFICATION_TYPES.map((t) => `push_${t}`) as [string, ...string[]];

/** PUT /notification_settings: `{notification_settings: {selected_email_flags, selected_push_flags}}`. */
export const NotificationSettingsUpdate = z.object({
  notification_settings: z
    .object({
      selected_email_flags: z.array(z.enum(emailFlags)).max(20).optional(),
      selected_push_flags: z.array(z.enum(pushFlags)).max(20).optional(),
    })
    .refine((s) => s.selected_email_flags !== undefined || s.selected_push_flags !== undefined, {
      error: "needs selected_email_flags or selected_push_flags",
      params: { code: "required" },
    }),
});

/** Participants: `{user_ids: [...]}`. */
export const ParticipantsBody = z.object({ user_ids: UserIds });

/**
 * POST /api/v1/notification_subscriptions (Chatwoot's mobile app registers its device): `fcm` needs
 * `subscription_attributes.push_token`, `browser_push` its `endpoint`; the other attributes (device_id,
 * deviceName, ...) are kept as sent.
 */
export const SubscriptionCreate = z
  .object({
    subscription_type: z.enum(["fcm", "browser_push"]),
    subscription_attributes: JsonObject.pipe(
      z.looseObject({ push_token: z.string().min(1).max(4096).optional(), endpoint: z.string().min(1).max(4096).optional() }),
    ),
  })
  .superRefine((body, ctx) => {
    const field = body.subscription_type === "fcm" ? "push_token" : "endpoint";
    if (body.subscription_attributes[field] === undefined) {
      ctx.addIssue({ code: "custom", path: ["subscription_attributes", field], message: `is required for ${body.subscription_type}`, params: { code: "required" } });
    }
  });

/** DELETE /api/v1/notification_subscriptions */
export const SubscriptionDelete = z.object({ push_token: z.string().min(1).max(4096) });

// ---------------------------------------------------------------- answers

export const Notification = z
  .looseObject({
    id: z.number().int(),
    notification_type: z.enum(NOTIFICATION_TYPES),
    push_message_title: z.string(),
    primary_actor_type: z.literal("Conversation"),
    primary_actor_id: z.number().int().describe("the conversation's id (not its display id), as Chatwoot has it"),
    primary_actor: Conversation.nullable(),
    read_at: isoTime.nullable(),
    secondary_actor: json.nullable().describe("the message (Message) or the user (User) that caused it"),
    user: json.nullable(),
    created_at: seconds,
    last_activity_at: seconds,
    snoozed_until: isoTime.nullable(),
    meta: json,
    account_id: z.number().int(),
  })
  .meta({ id: "Notification" });

export const NotificationRecord = z.looseObject({
  id: z.number().int(),
  user_id: z.number().int(),
  account_id: z.number().int(),
  notification_type: z.enum(NOTIFICATION_TYPES),
  primary_actor_type: z.string(),
  primary_actor_id: z.number().int(),
  secondary_actor_type: z.string().nullable(),
  secondary_actor_id: z.number().int().nullable(),
  read_at: isoTime.nullable(),
  snoozed_until: isoTime.nullable(),
  last_activity_at: isoTime.nullable(),
  meta: json,
  created_at: isoTime,
  updated_at: isoTime,
});

export const NotificationList = z.object({
  data: z.object({
    meta: z.object({ unread_count: z.number().int(), count: z.number().int(), current_page: z.union([z.string(), z.number().int()]) }),
    payload: z.array(Notification),
  }),
});

export const NotificationSubscription = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  subscription_type: z.enum(["fcm", "browser_push"]),
  subscription_attributes: json,
  identifier: z.string(),
  created_at: isoTime,
  updated_at: isoTime,
});

export const NotificationSettings = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  account_id: z.number().int(),
  all_email_flags: z.array(z.string()),
  selected_email_flags: z.array(z.string()),
  all_push_flags: z.array(z.string()),
  selected_push_flags: z.array(z.string()),
});

