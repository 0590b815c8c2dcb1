/**
 * One HTTP attempt at a delivery: a POST of the stored body with both signature schemes (signing.ts),
 * redirects not followed, 5 seconds to answer. Its outcome says what the retry schedule needs.
 */
import { signatureHeaders } from "./signing";

export const DELIVERY_TIMEOUT_MS = 5_000;
/** How much of an answer the delivery log keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export type Attempt = {
  url: string;
  /** null: send the delivery id without signatures (a plain URL target given no secret) */
  secret: string | null;
  deliveryUuid: string;
  /** the exact bytes that are signed and sent */
  body: string;
};

/**
 * delivered: a 2xx. retry: worth trying again later (network error, timeout, 408, 425, 429, 5xx).
 * rejected: the receiver refused this delivery for good (other 3xx/4xx; redirects are not followed).
 * gone: 410, the receiver says the endpoint no longer exists.
 */
export type AttemptOutcome = {
  result: "delivered" | "retry" | "rejected" | "gone";
  status: number | null;
  error: string | null;
  durationMs: number;
  responseBody: string | null;
  /** what the receiver asked for with Retry-After (on 429 and 503), in seconds */
  retryAfterSeconds: number | null;
};

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, at: number): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - at) / 1000));
}

async function excerpt(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined); // the rest is not needed
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes.slice(0, RESPONSE_EXCERPT_BYTES)).replace(/\uFFFD$/, "");
}

export async function postDelivery(attempt: Attempt, fetcher: typeof fetch = fetch, at = Date.now()): Promise<AttemptOutcome> {
  const started = Date.now();
  const failed = (error: string): AttemptOutcome => ({
    result: "retry",
    status: null,
    error,
    durationMs: Date.now() - started,
    responseBody: null,
    retryAfterSeconds: null,
  });
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
        ...(attempt.secret !== null
          ? await signatureHeaders(attempt.secret, attempt.deliveryUuid, attempt.body, at)
          : { "x-chatwoot-delivery": attempt.deliveryUuid, "webhook-id": attempt.deliveryUuid }),
      },
      body: attempt.body,
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return failed(timedOut ? `no answer within ${DELIVERY_TIMEOUT_MS} ms` : String(error));
  }
  const responseBody = await excerpt(response).catch(() => null);
  const status = response.status;
  const base = { status, durationMs: Date.now() - started, responseBody, retryAfterSeconds: null };
  if (status >= 200 && status < 300) return { ...base, result: "delivered", error: null };
  if (status === 410) return { ...base, result: "gone", error: "HTTP 410 Gone" };
  const transient = status === 408 || status === 425 || status === 429 || status >= 500;
  const retryAfterSeconds = status === 429 || status === 503 ? parseRetryAfter(response.headers.get("retry-after"), at) : null;
  return { ...base, result: transient ? "retry" : "rejected", error: `HTTP ${status}`, retryAfterSeconds };
}
