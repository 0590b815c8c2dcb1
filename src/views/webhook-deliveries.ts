import type { DeliveryRow } from "../webhooks/deliveries";
import type { AttemptRow, DeliveryDetail, DeliveryPage } from "../webhooks/log";
import { iso } from "./time";

/** A delivery in the log. `delivery_id` is what receivers saw as X-Chatwoot-Delivery and webhook-id. */
export function deliveryView(row: DeliveryRow) {
  return {
    id: row.id,
    delivery_id: row.deliveryUuid,
    event: row.eventName,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    last_attempt_at: iso(row.lastAttemptAt),
    next_attempt_at: row.status === "pending" ? iso(row.nextAttemptAt) : null,
    created_at: iso(row.createdAt),
  };
}

export function attemptView(row: AttemptRow) {
  return {
    attempted_at: iso(row.attemptedAt),
    trigger: row.trigger,
    outcome: row.outcome,
    status_code: row.statusCode,
    duration_ms: row.durationMs,
    response_body: row.responseBody,
    error: row.error,
  };
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

export function deliveryPageView(page: DeliveryPage) {
  return { payload: page.deliveries.map(deliveryView), meta: { current_page: page.page, per_page: 25, has_more: page.hasMore } };
}

/** One delivery: its payload as sent and every attempt, newest first. */
export function deliveryDetailView({ delivery, attempts }: DeliveryDetail) {
  return { payload: { ...deliveryView(delivery), payload: parsed(delivery.body), attempt_log: attempts.map(attemptView) } };
}
