/**
 * When to try a failed delivery again. Exponential backoff with jitter (30 s, 2 min, 8 min, 32 min,
 * ~2 h, ~8.5 h, then every 12 h) over a window of 3 days, Stripe's, whose last attempt falls on the
 * window's end; a receiver's Retry-After (429, 503) replaces the backoff.
 */
export const SECOND = 1000;
export const HOUR = 3600 * SECOND;
export const DAY = 24 * HOUR;

/** How long a delivery is retried, and how long a webhook may fail throughout before it is disabled. */
export const RETRY_WINDOW_MS = 3 * DAY;
const FIRST_DELAY_MS = 30 * SECOND;
const GROWTH = 4;
const LONGEST_DELAY_MS = 12 * HOUR;
/** ±20 %: receivers that fail together do not get their retries all at once */
const JITTER = 0.2;
/** A Retry-After beyond this is read as "much later", not obeyed to the letter. */
const LONGEST_RETRY_AFTER_MS = DAY;

/** Cloudflare Queues delay a message by 12 hours at most: a longer wait takes several hops. */
export const MAX_QUEUE_DELAY_S = 12 * 3600;

/** The backoff before attempt `attempts + 1`, after `attempts` failed ones. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(FIRST_DELAY_MS * GROWTH ** Math.max(0, attempts - 1), LONGEST_DELAY_MS);
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/**
 * The time of the next attempt after a failed one at `at`, or null when the window is over.
 * `retryUntil` is the end of the delivery's window.
 */
export function nextAttemptAt(input: { attempts: number; at: number; retryUntil: number; retryAfterSeconds: number | null }, random?: () => number): number | null {
  if (input.at >= input.retryUntil) return null;
  const wait =
    input.retryAfterSeconds !== null ? Math.min(Math.max(input.retryAfterSeconds * SECOND, SECOND), LONGEST_RETRY_AFTER_MS) : backoffMs(input.attempts, random);
  return Math.min(input.at + wait, input.retryUntil);
}

/** The queue delay (seconds) of the next hop towards `dueAt`. */
export function hopDelaySeconds(dueAt: number, at: number): number {
  return Math.min(Math.max(0, Math.ceil((dueAt - at) / SECOND)), MAX_QUEUE_DELAY_S);
}
