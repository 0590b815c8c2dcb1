import { Hono } from "hono";
import type { z } from "zod";
import { createWebhook, deleteWebhook, listWebhooks, resetWebhookSecret, updateWebhook } from "../../domain/settings/webhooks";
import { type AppEnv, accountScope } from "../../http/app-env";
import { requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import { IdParam } from "../../schemas/common";
import { DeliveryListQuery, DeliveryParams, WebhookCreate, WebhookUpdate } from "../../schemas/webhooks";
import { deliveryDetailView, deliveryPageView } from "../../views/webhook-deliveries";
import { webhookView } from "../../views/webhooks";
import { type LogTarget, listDeliveries, redeliver, showDelivery } from "../../webhooks/log";

const toInput = (body: z.infer<typeof WebhookUpdate>) => ({
  url: body.url,
  name: body.name,
  subscriptions: body.subscriptions,
  inboxId: body.inbox_id,
  enabled: body.enabled,
});

/**
 * The delivery log of one kind of target, mounted beside the target's routes (`/webhooks`, and ready
 * for `/inboxes` and `/agent_bots`): administrators only. The check is on each route, not `use("*")`,
 * which would reach every route of the group it is mounted in.
 */
export function deliveryLogApi(type: LogTarget["type"]) {
  return new Hono<AppEnv>()
    .get("/:id/deliveries", requireAdministrator, validate("param", IdParam), validate("query", DeliveryListQuery), async (c) => {
      const page = await listDeliveries(accountScope(c), { type, id: c.req.valid("param").id }, c.req.valid("query"));
      return c.json(deliveryPageView(page));
    })
    .get("/:id/deliveries/:delivery_id", requireAdministrator, validate("param", DeliveryParams), async (c) => {
      const { id, delivery_id } = c.req.valid("param");
      return c.json(deliveryDetailView(await showDelivery(accountScope(c), { type, id }, delivery_id)));
    })
    .post("/:id/deliveries/:delivery_id/redeliver", requireAdministrator, validate("param", DeliveryParams), async (c) => {
      const { id, delivery_id } = c.req.valid("param");
      return c.json(deliveryDetailView(await redeliver(accountScope(c), { type, id }, delivery_id)), 202);
    });
}

/** /webhooks: administrators only (Chatwoot's policy). */
export const webhooksApi = new Hono<AppEnv>()
  .use("*", requireAdministrator)
  .get("/", async (c) => c.json({ payload: { webhooks: (await listWebhooks(accountScope(c))).map(webhookView) } }))
  .post("/", validate("json", WebhookCreate), async (c) => {
    const body = c.req.valid("json");
    const record = await createWebhook(accountScope(c), { ...toInput(body), url: body.url });
    return c.json({ payload: { webhook: webhookView(record) } });
  })
  .on(["PATCH", "PUT"], "/:id", validate("param", IdParam), validate("json", WebhookUpdate), async (c) => {
    const record = await updateWebhook(accountScope(c), c.req.valid("param").id, toInput(c.req.valid("json")));
    return c.json({ payload: { webhook: webhookView(record) } });
  })
  .delete("/:id", validate("param", IdParam), async (c) => {
    await deleteWebhook(accountScope(c), c.req.valid("param").id);
    return c.json({});
  })
  .post("/:id/reset_secret", validate("param", IdParam), async (c) => {
    const record = await resetWebhookSecret(accountScope(c), c.req.valid("param").id);
    return c.json({ payload: { webhook: webhookView(record) } });
  })
  .route("/", deliveryLogApi("webhook"));
