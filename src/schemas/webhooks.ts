import { z } from "zod";
import { WEBHOOK_EVENTS } from "../domain/settings/webhooks";
import { DELIVERY_STATUSES } from "../webhooks/log";
import { Bool, HttpUrl, Id, ShortText, wrapped } from "./common";
import { isoTime } from "./responses";

const known = new Set<string>(WEBHOOK_EVENTS);

/** A non-empty list of event names from Chatwoot's allowed list; duplicates collapse. */
const Subscriptions = z
  .array(z.string())
  .min(1)
  .superRefine((events, ctx) => {
    const unknown = events.filter((e) => !known.has(e));
    if (unknown.length) {
      ctx.addIssue({
        code: "custom",
        message: `has unknown events: ${unknown.join(", ")} (allowed: ${WEBHOOK_EVENTS.join(", ")})`,
        params: { code: "unknown_event" },
      });
    }
  })
  .transform((events) => [...new Set(events)]);

const fields = {
  url: HttpUrl,
  name: ShortText.trim().nullish(),
  /** omitted or null: Chatwoot's default subscriptions */
  subscriptions: Subscriptions.nullish(),
  inbox_id: Id.nullish(),
};

/** POST /webhooks */
export const WebhookCreate = wrapped("webhook", z.object(fields));

/** PATCH/PUT /webhooks/:id; `enabled` restarts (true) or stops (false) deliveries */
export const WebhookUpdate = wrapped("webhook", z.object({ ...fields, enabled: Bool }).partial());

/** GET .../deliveries: newest first, 25 a page */
export const DeliveryListQuery = z.object({
  page: z
    .string()
    .regex(/^\d+$/, { error: "must be a positive integer" })
    .transform(Number)
    .refine((v) => v >= 1 && v <= 100_000, { error: "must be between 1 and 100000" })
    .optional()
    .default(1),
  status: z.enum(DELIVERY_STATUSES).optional(),
  event: z.string().min(1).max(100).optional(),
});

export const DeliveryParams = z.object({ id: Id, delivery_id: Id });

/** A webhook (src/views/webhooks.ts); only administrators reach webhooks, so the signing secret is shown. */
export const Webhook = z
  .looseObject({
    id: z.number().int(),
    name: z.string().nullable(),
    url: z.string(),
    account_id: z.number().int(),
    subscriptions: z.array(z.string()),
    inbox: z.looseObject({ id: z.number().int(), name: z.string() }).nullable().describe("set on an inbox's webhook"),
    secret: z.string(),
    enabled: z.boolean().describe("false once the service stopped delivering (410 Gone, 3 days of failures) or an administrator did"),
    disabled_at: isoTime.nullable(),
    disabled_reason: z.string().nullable(),
  })
  .meta({ id: "Webhook" });

/** One webhook: POST, PATCH/PUT, reset_secret. */
export const WebhookAnswer = z.looseObject({ payload: z.looseObject({ webhook: Webhook }) });
/** GET /webhooks */
export const WebhookList = z.looseObject({ payload: z.looseObject({ webhooks: z.array(Webhook) }) });

/** A delivery in the log (src/views/webhook-deliveries.ts). */
export const Delivery = z
  .looseObject({
    id: z.number().int(),
    delivery_id: z.string().describe("what the receiver saw as X-Chatwoot-Delivery and webhook-id"),
    event: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    last_attempt_at: isoTime.nullable(),
    next_attempt_at: isoTime.nullable().describe("while pending"),
    created_at: isoTime,
  })
  .meta({ id: "Delivery" });

/** A page of the delivery log, newest first. */
export const DeliveryPage = z.looseObject({
  payload: z.array(Delivery),
  meta: z.looseObject({ current_page: z.number().int(), per_page: z.number().int(), has_more: z.boolean() }),
});

/** One delivery with its payload as sent and every attempt, newest first. */
export const DeliveryDetail = z.looseObject({
  payload: Delivery.extend({
    payload: z.unknown().describe("the body that was sent (parsed when it is JSON)"),
    attempt_log: z.array(
      z.looseObject({
        attempted_at: isoTime,
        trigger: z.enum(["automatic", "redelivery"]),
        outcome: z.string(),
        status_code: z.number().int().nullable(),
        duration_ms: z.number().int().nullable(),
        response_body: z.string().nullable(),
        error: z.string().nullable(),
      }),
    ),
  }),
});
