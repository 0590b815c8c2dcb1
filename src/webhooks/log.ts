/**
 * The delivery log of a target (an account webhook, an API inbox, an agent bot): its deliveries newest
 * first, one delivery with every attempt, and redelivery. Administrators only; the target must be of
 * the scope's account, so another account's log is a 404.
 */
import { and, desc, eq, type SQL } from "drizzle-orm";
import { now, schema } from "../db/client";
import { batch } from "../domain/kernel/batch";
import { invalid, notFound } from "../domain/kernel/errors";
import type { AccountScope } from "../domain/kernel/scope";
import { type DeliveryRow, sendDeliveryMessages } from "./deliveries";
import type { TargetType } from "./targets";

const { webhooks, webhookDeliveries, webhookDeliveryAttempts, inboxes, agentBots } = schema;

export type AttemptRow = typeof webhookDeliveryAttempts.$inferSelect;
/** Pushes have no log of their own to show (a device is no account resource). */
export type LogTarget = { type: Exclude<TargetType, "url" | "push">; id: number };
export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "cancelled"] as const;
export const DELIVERIES_PER_PAGE = 25;

const RESOURCE: Record<LogTarget["type"], string> = { webhook: "Webhook", api_inbox: "Inbox", agent_bot: "Agent bot" };

/** The read that proves the target belongs to the account (a system bot is nobody's: no log). */
function targetQuery(scope: AccountScope, target: LogTarget) {
  const { db, accountId } = scope;
  if (target.type === "webhook") return db.select({ id: webhooks.id }).from(webhooks).where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, target.id)));
  if (target.type === "api_inbox") return db.select({ id: inboxes.id }).from(inboxes).where(and(eq(inboxes.accountId, accountId), eq(inboxes.id, target.id)));
  return db.select({ id: agentBots.id }).from(agentBots).where(and(eq(agentBots.accountId, accountId), eq(agentBots.id, target.id)));
}

const ofTarget = (scope: AccountScope, target: LogTarget, ...more: Array<SQL | undefined>) =>
  and(eq(webhookDeliveries.accountId, scope.accountId), eq(webhookDeliveries.targetType, target.type), eq(webhookDeliveries.targetId, target.id), ...more);

export type DeliveryPage = { deliveries: DeliveryRow[]; page: number; hasMore: boolean };

/** Newest first, a page at a time, optionally only one status or one event. */
export async function listDeliveries(scope: AccountScope, target: LogTarget, query: { page: number; status?: string; event?: string }): Promise<DeliveryPage> {
  const { db } = scope;
  const [found, rows] = await batch(db, [
    targetQuery(scope, target),
    db
      .select()
      .from(webhookDeliveries)
      .where(
        ofTarget(
          scope,
          target,
          query.status ? eq(webhookDeliveries.status, query.status) : undefined,
          query.event ? eq(webhookDeliveries.eventName, query.event) : undefined,
        ),
      )
      .orderBy(desc(webhookDeliveries.id))
      .limit(DELIVERIES_PER_PAGE + 1)
      .offset((query.page - 1) * DELIVERIES_PER_PAGE),
  ]);
  if (!found[0]) throw notFound(RESOURCE[target.type], target.id);
  return { deliveries: rows.slice(0, DELIVERIES_PER_PAGE), page: query.page, hasMore: rows.length > DELIVERIES_PER_PAGE };
}

export type DeliveryDetail = { delivery: DeliveryRow; attempts: AttemptRow[] };

export async function showDelivery(scope: AccountScope, target: LogTarget, deliveryId: number): Promise<DeliveryDetail> {
  const { db } = scope;
  const [found, rows, attempts] = await batch(db, [
    targetQuery(scope, target),
    db.select().from(webhookDeliveries).where(ofTarget(scope, target, eq(webhookDeliveries.id, deliveryId))),
    db
      .select()
      .from(webhookDeliveryAttempts)
      .where(and(eq(webhookDeliveryAttempts.deliveryId, deliveryId), eq(webhookDeliveryAttempts.accountId, scope.accountId)))
      .orderBy(desc(webhookDeliveryAttempts.id)),
  ]);
  if (!found[0]) throw notFound(RESOURCE[target.type], target.id);
  if (!rows[0]) throw notFound("Delivery", deliveryId, "delivery_id");
  return { delivery: rows[0], attempts };
}

/**
 * A new attempt at a delivery, with the same delivery id and body. A delivery still being retried is
 * attempted now (its schedule goes on if that fails); a finished one gets this one attempt.
 */
export async function redeliver(scope: AccountScope, target: LogTarget, deliveryId: number, at = now()): Promise<DeliveryDetail> {
  const { db } = scope;
  const [found, rows, hooks] = await batch(db, [
    targetQuery(scope, target),
    db.select().from(webhookDeliveries).where(ofTarget(scope, target, eq(webhookDeliveries.id, deliveryId))),
    db
      .select({ disabledAt: webhooks.disabledAt })
      .from(webhooks)
      .where(and(eq(webhooks.accountId, scope.accountId), eq(webhooks.id, target.type === "webhook" ? target.id : 0))),
  ]);
  if (!found[0]) throw notFound(RESOURCE[target.type], target.id);
  const delivery = rows[0];
  if (!delivery) throw notFound("Delivery", deliveryId, "delivery_id");
  if (hooks[0]?.disabledAt) {
    throw invalid([{ field: "webhook", message: "is disabled: enable it (PATCH with enabled: true) before redelivering", code: "disabled" }]);
  }
  const stillRetrying = delivery.status === "pending";
  const [updated, attempts] = await batch(db, [
    db
      .update(webhookDeliveries)
      .set({ status: "pending", nextAttemptAt: at, retryUntil: stillRetrying ? delivery.retryUntil : at, updatedAt: at })
      .where(and(eq(webhookDeliveries.accountId, delivery.accountId), eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.attempts, delivery.attempts)))
      .returning(),
    db
      .select()
      .from(webhookDeliveryAttempts)
      .where(and(eq(webhookDeliveryAttempts.accountId, delivery.accountId), eq(webhookDeliveryAttempts.deliveryId, delivery.id)))
      .orderBy(desc(webhookDeliveryAttempts.id)),
  ]);
  const row = updated[0] ?? delivery; // an attempt was under way: it is the redelivery
  if (updated[0]) {
    await sendDeliveryMessages(scope.env.EVENTS, [{ kind: "delivery", deliveryId: row.id, accountId: row.accountId, attempt: row.attempts, trigger: "redelivery" }]);
  }
  return { delivery: row, attempts };
}
