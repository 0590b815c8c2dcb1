/**
 * Rate limits, by surface (docs/limits.md):
 * - account API (/api/v1, /api/v2): per API key (the user's or agent bot's key, whichever account it calls);
 * - platform API: per platform key;
 * - public API: per client address and inbox (or portal), for every request; contact and conversation
 *   creation also count against a much tighter policy declared on those routes with `rateLimited()`, and
 *   contact updates against one of their own.
 *   A policy declared on a route is counted together with its surface's own, by the surface's limiter:
 *   before anything of the route runs, and before the body is read (src/http/body.ts).
 *   The inbox is the `inbox_identifier` (the portal the `portal_slug`) the router resolved, decoded: every
 *   spelling of a path that reaches one inbox (percent-encoded, trailing slash) spends one allowance.
 *   A CSAT survey counts per client address over all surveys, not per uuid: the uuid is the survey's only
 *   credential, and an allowance per uuid would let a caller guess new uuids without ever running out.
 *   A public limit is therefore registered on a path with one of those parameters.
 * - sign-in: failed sign-ins per e-mail and per client address (`sign_in_failures`); failed checks of a
 *   mailed token or an identity hash per client address (`secret_failures`). Each attempt is taken from
 *   the allowance before its secret is checked and given back unless it failed (`limitFailures`).
 * - transcript mail: recipients per account (`transcript_mail`), spent by the domain through its
 *   allowances port (`spendAllowance`) however the transcript was asked for.
 * Each policy is "<requests>/<seconds>" in a wrangler.toml var, read per request, so `wrangler dev --var`
 * and the test configuration can change it. Every answer carries the IETF draft's `RateLimit-Policy` and
 * `RateLimit` headers for the policies it counted against; a refused request is a 429 with the error
 * body (code `rate_limited`) and `Retry-After`.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { DomainError } from "../domain/kernel/errors";
import type { Allowance } from "../limits/rate-limiter";
import type { AppEnv } from "./app-env";
import { routeMarks } from "./route-flags";

export const POLICIES = {
  account_api: { variable: "RATE_LIMIT_ACCOUNT_API", durable: false },
  platform_api: { variable: "RATE_LIMIT_PLATFORM_API", durable: false },
  public_api: { variable: "RATE_LIMIT_PUBLIC_API", durable: false },
  public_create: { variable: "RATE_LIMIT_PUBLIC_CREATE", durable: true },
  public_update: { variable: "RATE_LIMIT_PUBLIC_UPDATE", durable: true },
  widget_page: { variable: "RATE_LIMIT_WIDGET_PAGE", durable: true },
  sign_in_failures: { variable: "RATE_LIMIT_SIGN_IN_FAILURES", durable: true },
  transcript_mail: { variable: "RATE_LIMIT_TRANSCRIPT_MAIL", durable: true },
  secret_failures: { variable: "RATE_LIMIT_SECRET_FAILURES", durable: true },
} as const;

export type PolicyName = keyof typeof POLICIES;

type Policy = { name: PolicyName; limit: number; windowS: number; durable: boolean };

function policy(env: Env, name: PolicyName): Policy {
  const { variable, durable } = POLICIES[name];
  const value = String((env as unknown as Record<string, unknown>)[variable] ?? "");
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  if (!match || Number(match[2]) === 0) throw new Error(`${variable} must be "<requests>/<seconds>", got "${value}"`);
  return { name, limit: Number(match[1]), windowS: Number(match[2]), durable };
}

/** Who is counted: the key holder on authenticated surfaces, the address and inbox on the public one. */
function subjectOf(c: Context<AppEnv>, name: PolicyName): string {
  if (name === "account_api" || name === "platform_api") {
    const actor = c.var.actor;
    if (actor.type === "user") return `user:${actor.user.id}`;
    if (actor.type === "agent_bot") return `agent_bot:${actor.bot.id}`;
    if (actor.type === "platform_app") return `platform_app:${actor.platformAppId}`;
    return actor.type;
  }
  // each load of the widget page without a visitor token makes a contact: counted per address alone
  if (name === "widget_page") return clientAddress(c);
  // Not the raw path: "/inboxes/ab%63" and "/inboxes/abc/" reach inbox "abc" and must count as it does.
  // The website widget names its inbox in the query (`website_token`), which the router decodes too.
  const inbox = c.req.param("inbox_identifier") ?? c.req.query("website_token");
  const portal = c.req.param("portal_slug");
  const survey = c.req.param("conversation_uuid");
  const target = inbox !== undefined ? `inbox:${inbox}` : portal !== undefined ? `portal:${portal}` : survey !== undefined ? "surveys" : "none";
  return `${clientAddress(c)}|${target}`;
}

async function count(c: Context<AppEnv>, p: Policy): Promise<Allowance> {
  const limiter = c.env.RATE_LIMITER.getByName(`${p.name}:${subjectOf(c, p.name)}`);
  return limiter.hit(p.limit, p.windowS * 1000, p.durable);
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Counts the request against `name`; refuses it with a 429 once the window's allowance is spent. A route
 * whose policy applies to some of its requests only (the widget loads that make a new visitor) calls it.
 */
export async function enforce(c: Context<AppEnv>, name: PolicyName) {
  const p = policy(c.env, name);
  const allowance = await count(c, p);
  const reset = seconds(allowance.resetMs);
  // set before the answer exists, so that the error body of a refusal carries them too
  c.header("RateLimit-Policy", `"${p.name}";q=${p.limit};w=${p.windowS}`, { append: true });
  c.header("RateLimit", `"${p.name}";r=${allowance.remaining};t=${reset}`, { append: true });
  if (!allowance.allowed) refuse(c, p, reset, "requests");
}

function refuse(c: Context<AppEnv>, p: Policy, reset: number, what: string): never {
  c.header("Retry-After", String(reset));
  throw limitError(p, reset, what);
}

function limitError(p: Policy, reset: number, what: string) {
  const message = `Rate limit ${p.name} exceeded: ${p.limit} ${what} per ${p.windowS} seconds; retry in ${reset} seconds`;
  return new DomainError("rate_limited", message, [{ field: "", message, code: "rate_limited" }]);
}

/**
 * Spends `cost` of `subject`'s allowance under `name` for an effect the domain asks for, wherever it runs
 * (a route, a macro, the queue's automation rules): the domain's allowances port (src/ports.ts). Over the
 * allowance nothing is spent and the effect is refused with the same rate_limited error.
 */
export async function spendAllowance(env: Env, name: PolicyName, subject: string, cost: number, unit: string) {
  const p = policy(env, name);
  const allowance = await env.RATE_LIMITER.getByName(`${p.name}:${subject}`).hit(p.limit, p.windowS * 1000, p.durable, cost);
  if (!allowance.allowed) throw limitError(p, seconds(allowance.resetMs), unit);
}

/**
 * A policy that counts failures, not requests: each subject (an e-mail digest, a client address) has
 * its own window. The limiter of each is named `${policy}:${subject}`.
 */
const failureLimiters = (c: Context<AppEnv>, name: PolicyName, subjects: string[]) =>
  subjects.map((subject) => c.env.RATE_LIMITER.getByName(`${name}:${subject}`));

/** The refusals of a secret that count as failures: domain errors whose first entry has `code`. */
export const failedWith = (code: string) => (error: unknown) => error instanceof DomainError && error.errors[0]?.code === code;

/**
 * Runs `attempt`, which checks a secret (a password, a mailed token, an identity hash), as one of the
 * failures `name` allows each of `subjects`. The attempt is taken from every subject's allowance in the
 * limiter's one step before the secret is checked, and given back when it did not fail (`failed` says
 * which errors are failures): reading the allowance and counting a failure in separate steps let
 * parallel attempts all pass the reading, so however many arrive at once, at most the limit are checked,
 * and the rest (and every attempt after them, right or wrong, until the window ends) answer 429.
 */
export async function limitFailures<T>(
  c: Context<AppEnv>,
  name: PolicyName,
  subjects: string[],
  failed: (error: unknown) => boolean,
  attempt: () => Promise<T>,
): Promise<T> {
  const p = policy(c.env, name);
  const limiters = failureLimiters(c, name, subjects);
  const taken = await Promise.all(limiters.map((l) => l.hit(p.limit, p.windowS * 1000, p.durable)));
  const giveBack = () => Promise.all(limiters.map((l, i) => (taken[i].allowed ? l.release(taken[i].windowStart, p.durable) : undefined)));
  const spent = taken.filter((t) => !t.allowed);
  if (spent.length > 0) {
    // an attempt refused unchecked is no failure: the other subjects get theirs back
    await giveBack();
    refuse(c, p, seconds(Math.max(...spent.map((t) => t.resetMs))), "failures");
  }
  try {
    const result = await attempt();
    await giveBack();
    return result;
  } catch (error) {
    if (!failed(error)) await giveBack();
    throw error;
  }
}

/** The client address a request came from, as Cloudflare reports it. */
export const clientAddress = (c: Context<AppEnv>) => c.req.header("cf-connecting-ip") ?? "unknown";

const POLICY = Symbol("rateLimitPolicy");
/** The policies each request was counted against, so that none is counted twice. */
const countedPolicies = new WeakMap<Context, Set<PolicyName>>();

/**
 * Counts the request against `name`, and against every policy the matched route declares with its own
 * `rateLimited()`, each once: on a surface's `use`, the route's policies are counted there too, so that
 * the route's own marker (which runs later) finds them done.
 */
export const rateLimited = (name: PolicyName) =>
  Object.assign(
    createMiddleware<AppEnv>(async (c, next) => {
      const counted = countedPolicies.get(c) ?? new Set<PolicyName>();
      countedPolicies.set(c, counted);
      for (const policyName of [name, ...routeMarks<PolicyName>(c, POLICY)]) {
        if (counted.has(policyName)) continue;
        counted.add(policyName);
        await enforce(c, policyName);
      }
      await next();
    }),
    { [POLICY]: name },
  );
