import { z } from "zod";
import { WEBHOOK_EVENTS } from "../domain/settings/webhooks";
import { HttpUrl, Id, ShortText, wrapped } from "./common";

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

/** PATCH/PUT /webhooks/:id */
export const WebhookUpdate = wrapped("webhook", z.object(fields).partial());
