import { z } from "zod";
import { WEBHOOK_EVENTS } from "../domain/settings/webhooks";
import { DELIVERY_STATUSES } from "../webhooks/log";
import { Bool, HttpUrl, Id, ShortText, wrapped } from "./common";

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
