/**
 * One HTTP attempt at delivering a webhook. Chatwoot's headers, so existing receivers verify it:
 * - X-Chatwoot-Delivery: the delivery's id, the same on every attempt (receivers dedupe on it);
 * - X-Chatwoot-Timestamp: Unix seconds of this attempt;
 * - X-Chatwoot-Signature: `sha256=` + hex HMAC-SHA256(secret, `<timestamp>.<body>`).
 */
import { hmacSha256Hex } from "../domain/identity/keys";

export const DELIVERY_TIMEOUT_MS = 5_000;

export type Attempt = {
  url: string;
  secret: string;
  deliveryUuid: string;
  /** the exact bytes that are signed and sent */
  body: string;
};

/**
 * delivered: a 2xx. retry: worth trying again later (network error, timeout, 408, 425, 429, 5xx).
 * rejected: the receiver refused this delivery for good (other 3xx/4xx; redirects are not followed).
 */
export type AttemptOutcome = { result: "delivered" | "retry" | "rejected"; status: number | null; error: string | null };

export async function signature(secret: string, timestamp: string, body: string) {
  return `sha256=${await hmacSha256Hex(secret, `${timestamp}.${body}`)}`;
}

export async function postWebhook(attempt: Attempt, fetcher: typeof fetch = fetch): Promise<AttemptOutcome> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  let response: Response;
  try {
    response = await fetcher(attempt.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "user-agent": "edgedesk-webhooks",
        "x-chatwoot-delivery": attempt.deliveryUuid,
        "x-chatwoot-timestamp": timestamp,
        "x-chatwoot-signature": await signature(attempt.secret, timestamp, attempt.body),
      },
      body: attempt.body,
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return { result: "retry", status: null, error: timedOut ? `no answer within ${DELIVERY_TIMEOUT_MS} ms` : String(error) };
  }
  // The answer's body is not needed; release it.
  await response.body?.cancel();
  const status = response.status;
  if (status >= 200 && status < 300) return { result: "delivered", status, error: null };
  const transient = status === 408 || status === 425 || status === 429 || status >= 500;
  return { result: transient ? "retry" : "rejected", status, error: `HTTP ${status}` };
}
