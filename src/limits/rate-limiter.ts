import { DurableObject } from "cloudflare:workers";

/** What one counted request learns: whether it may proceed, and the state of its window. */
export type Allowance = { allowed: boolean; limit: number; remaining: number; resetMs: number; windowStart: number };

type Window = { start: number; count: number };

/**
 * A fixed-window request counter for one subject of one policy (one API key, one address on one inbox),
 * addressed by name `${policy}:${subject}`. A Durable Object runs one call at a time, so counts are exact,
 * which is what lets every answer carry the remaining allowance (the Workers Rate Limiting binding only
 * answers allowed or not, and only for windows of 10 or 60 seconds).
 *
 * Busy policies (`durable: false`) count in memory: no storage write per request. If Cloudflare evicts
 * an object, which it does only after it has been idle a while, its window starts afresh; that can only
 * favour a caller who was quiet. Tight policies with long windows (`durable: true`, public contact and
 * conversation creation) keep the window in storage, so eviction cannot reset them; they are rare
 * requests, so the writes cost little.
 */
export class RateLimiter extends DurableObject<Env> {
  private window: Window | null = null;

  /** Counts `cost` (1 a request; a mail counts its recipients) when it fits what is left, nothing when it does not. */
  async hit(limit: number, windowMs: number, durable: boolean, cost = 1): Promise<Allowance> {
    const now = Date.now();
    let window = this.window ?? (durable ? ((await this.ctx.storage.get<Window>("window")) ?? null) : null);
    if (!window || now >= window.start + windowMs) window = { start: now, count: 0 };
    const allowed = window.count + cost <= limit;
    if (allowed) window.count += cost;
    this.window = window;
    if (durable && allowed) await this.ctx.storage.put("window", window);
    return { allowed, limit, remaining: Math.max(0, limit - window.count), resetMs: window.start + windowMs - now, windowStart: window.start };
  }

  /**
   * Gives back one request that `hit` counted in the window starting at `windowStart`: for policies that
   * count failures, which take an attempt before checking a secret (so that parallel attempts can never
   * check more than the limit) and give it back when the attempt did not fail. A window that has
   * started anew since keeps its count.
   */
  async release(windowStart: number, durable: boolean): Promise<void> {
    const window = this.window ?? (durable ? ((await this.ctx.storage.get<Window>("window")) ?? null) : null);
    if (!window || window.start !== windowStart || window.count === 0) return;
    window.count -= 1;
    this.window = window;
    if (durable) await this.ctx.storage.put("window", window);
  }
}
