import { Hono } from "hono";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { requireAdministrator } from "../../http/auth";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { validate } from "../../http/validate";
import { IdParam } from "../../schemas/common";
import { DeliveryDetail, DeliveryListQuery, DeliveryPage, DeliveryParams } from "../../schemas/webhooks";
import { deliveryDetailView, deliveryPageView } from "../../views/webhook-deliveries";
import { type LogTarget, listDeliveries, redeliver, showDelivery } from "../../webhooks/log";

/** What the log's receiver is, in the API document's summaries. */
const RECEIVER: Record<LogTarget["type"], string> = {
  webhook: "a webhook",
  api_inbox: "an API inbox's callback URL",
  agent_bot: "an agent bot's outgoing URL",
};

/**
 * The delivery log of one kind of target, mounted beside the target's routes (`/webhooks`, `/inboxes`
 * for API-inbox callbacks, `/agent_bots` for bots' outgoing URLs): administrators only. The check is on
 * each route, not `use("*")`, which would reach every route of the group it is mounted in.
 */
export function deliveryLogApi(type: LogTarget["type"]) {
  return new Hono<AppEnv>()
    .get("/:id/deliveries", doc({ summary: `List the deliveries to ${RECEIVER[type]} (the delivery log)`, response: DeliveryPage }), requireAdministrator, validate("param", IdParam), validate("query", DeliveryListQuery), async (c) => {
      const page = await listDeliveries(accountScope(c), { type, id: c.req.valid("param").id }, c.req.valid("query"));
      return c.json(deliveryPageView(page));
    })
    .get("/:id/deliveries/:delivery_id", doc({ summary: `Show a delivery to ${RECEIVER[type]} and its attempts`, response: DeliveryDetail }), requireAdministrator, validate("param", DeliveryParams), async (c) => {
      const { id, delivery_id } = c.req.valid("param");
      return c.json(deliveryDetailView(await showDelivery(accountScope(c), { type, id }, delivery_id)));
    })
    .post("/:id/deliveries/:delivery_id/redeliver", doc({ summary: `Deliver a logged event to ${RECEIVER[type]} again`, response: DeliveryDetail, status: 202 }), requireAdministrator, idempotent(), validate("param", DeliveryParams), async (c) => {
      const { id, delivery_id } = c.req.valid("param");
      return c.json(deliveryDetailView(await redeliver(accountScope(c), { type, id }, delivery_id)), 202);
    });
}
