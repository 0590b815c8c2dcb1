import { Hono } from "hono";
import type { z } from "zod";
import { createWebhook, deleteWebhook, listWebhooks, resetWebhookSecret, updateWebhook } from "../../domain/settings/webhooks";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import { IdParam } from "../../schemas/common";
import { WebhookAnswer, WebhookCreate, WebhookList, WebhookUpdate } from "../../schemas/webhooks";
import { webhookView } from "../../views/webhooks";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Empty } from "../../schemas/responses";
import { deliveryLogApi } from "./delivery-log";

const toInput = (body: z.infer<typeof WebhookUpdate>) => ({
  url: body.url,
  name: body.name,
  subscriptions: body.subscriptions,
  inboxId: body.inbox_id,
  enabled: body.enabled,
});

/** /webhooks: administrators only (Chatwoot's policy). */
export const webhooksApi = new Hono<AppEnv>()
  .use("*", requireAdministrator)
  .get("/", doc({ summary: "List webhooks", response: WebhookList }), async (c) => c.json({ payload: { webhooks: (await listWebhooks(accountScope(c))).map(webhookView) } }))
  .post("/", doc({ summary: "Create a webhook", response: WebhookAnswer }), idempotent(), validate("json", WebhookCreate), async (c) => {
    const body = c.req.valid("json");
    const record = await createWebhook(accountScope(c), { ...toInput(body), url: body.url });
    return c.json({ payload: { webhook: webhookView(record) } });
  })
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update a webhook", response: WebhookAnswer }), validate("param", IdParam), validate("json", WebhookUpdate), async (c) => {
    const record = await updateWebhook(accountScope(c), c.req.valid("param").id, toInput(c.req.valid("json")));
    return c.json({ payload: { webhook: webhookView(record) } });
  })
  .delete("/:id", doc({ summary: "Delete a webhook", response: Empty }), validate("param", IdParam), async (c) => {
    await deleteWebhook(accountScope(c), c.req.valid("param").id);
    return c.json({});
  })
  .post("/:id/reset_secret", doc({ summary: "Make a new signing secret for a webhook", response: WebhookAnswer }), validate("param", IdParam), async (c) => {
    const record = await resetWebhookSecret(accountScope(c), c.req.valid("param").id);
    return c.json({ payload: { webhook: webhookView(record) } });
  })
  .route("/", deliveryLogApi("webhook"));
