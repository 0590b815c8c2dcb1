/**
 * `Idempotency-Key` for the POSTs that create: a retried request after a lost answer must not create a
 * second message, contact or account. A route declares it with `idempotent()` next to its path.
 *
 * How it works, and why it is sound:
 * - The key is scoped to the caller: the account and key holder (user or agent bot), the platform app,
 *   or on the public API the inbox and the contact in the path (the inbox and the caller's address for
 *   contact creation, which has no contact yet). Another caller's key is never found.
 * - A digest of the request (method, path, normalised body, uploaded files) is kept with the key. The
 *   same key with another request is a 422 on `Idempotency-Key`.
 * - The row that claims the key rides in the change's own D1 batch (`FirstWriteRider`, src/db/metering.ts):
 *   D1 runs a batch atomically, so the key is stored if and only if the change committed. Its primary key
 *   makes a second batch under the same key fail and roll back whole, so two concurrent requests with one
 *   key can never both change anything: the loser finds the winner's row and answers from it.
 * - The answer is recorded right after the change, in a second write. Until then the key answers 409
 *   (still running). Should the Worker die in between, the change is made and kept and the key keeps
 *   answering 409, with a code that says the answer was lost, until it expires: never a second change.
 * - A request that fails before it changes anything (a 422, a 404) stores nothing: the key stays free,
 *   and a corrected retry with it goes through. A request that failed after its change stored that
 *   failure as its answer, as Stripe does.
 * - On D1 only: a libSQL deployment has no rider, and its requests go through as if they had no key.
 * - A replay answers the stored status and body with `Idempotent-Replayed: true`. Keys live 24 hours;
 *   the cron prunes them.
 */
import { createMiddleware } from "hono/factory";
import { type IdempotencyRecord, type StoredAnswer, claimStatement, findIdempotencyRecord, keepAnswer, recordAnswer } from "../db/idempotency-keys";
import { DomainError, invalidField } from "../domain/kernel/errors";
import type { AccountRow } from "../domain/identity/rows";
import type { Actor } from "../domain/kernel/scope";
import type { AppContext, AppEnv } from "./app-env";
import { flagged } from "./route-flags";
import { readBody } from "./body";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** Stripe's limit; a UUID is 36 characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
const WELL_FORMED = /^[\x21-\x7e]+$/;
/** After this long without a recorded answer, the first request is taken to have died after its change. */
const ANSWER_LOST_AFTER_MS = 60_000;

function actorKey(actor: Actor): string {
  switch (actor.type) {
    case "user":
      return `user:${actor.user.id}`;
    case "agent_bot":
      return `agent_bot:${actor.bot.id}`;
    case "platform_app":
      return `platform_app:${actor.platformAppId}`;
    case "contact":
      return `contact:${actor.contact.id}`;
    default:
      return actor.type;
  }
}

/** Who the key belongs to: see the header comment. */
function scopeOf(c: AppContext): string {
  const account = c.get("account") as AccountRow | undefined;
  const actor = c.get("actor") as Actor | undefined;
  if (account && actor) return `account:${account.id}:${actorKey(actor)}`;
  if (actor) return actorKey(actor);
  const inbox = c.req.param("inbox_identifier") ?? "";
  const contact = c.req.param("contact_identifier");
  if (contact) return `public:${inbox}:contact:${contact}`;
  return `public:${inbox}:address:${c.req.header("cf-connecting-ip") ?? "unknown"}`;
}

const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** SHA-256 over what makes two requests the same request: method, path and query, body, files. */
async function requestDigest(c: AppContext): Promise<string> {
  await readBody(c);
  const url = new URL(c.req.url);
  const parts = [c.req.method, url.pathname + url.search, await c.req.text()];
  for (const { field, file } of c.var.uploads) {
    parts.push(`${field}:${file.name}:${file.type}:${file.size}:${hex(await crypto.subtle.digest("SHA-256", await file.arrayBuffer()))}`);
  }
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(parts.join("\n"))));
}

const refusal = (status: 409 | 422, message: string, code: string) =>
  new DomainError(status === 409 ? "conflict" : "invalid", `${IDEMPOTENCY_HEADER} ${message}`, [{ field: IDEMPOTENCY_HEADER, message, code }]);

/** The answer a repeated key gets: a replay, or (thrown) why there is none. */
function answerFrom(record: IdempotencyRecord, digest: string): Response {
  if (record.requestDigest !== digest) {
    throw refusal(422, "was already used with a different request", "reused_with_different_request");
  }
  if (record.responseStatus === null || record.responseBody === null) {
    if (Date.now() - record.createdAt > ANSWER_LOST_AFTER_MS) {
      throw refusal(409, "belongs to a request whose change was made but whose answer was lost; look the resource up instead of retrying", "answer_lost");
    }
    throw refusal(409, "belongs to a request that is still being processed; retry later", "in_progress");
  }
  const headers = new Headers({ "Idempotent-Replayed": "true" });
  if (record.responseType) headers.set("content-type", record.responseType);
  return new Response(record.responseBody, { status: record.responseStatus, headers });
}

async function answerOf(res: Response): Promise<StoredAnswer> {
  return { status: res.status, body: await res.clone().text(), type: res.headers.get("content-type") };
}

/**
 * Declares that a POST honours `Idempotency-Key`. Place it after authentication (the sub-app's `use`)
 * and before validation, so that a replay does not depend on the request still being valid.
 */
export const idempotent = () =>
  flagged(
    "idempotent",
    createMiddleware<AppEnv>(async (c, next) => {
      const key = c.req.header(IDEMPOTENCY_HEADER);
      if (key === undefined) return next();
      if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !WELL_FORMED.test(key)) {
        throw invalidField(IDEMPOTENCY_HEADER, `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`, "invalid_format");
      }
      const { db, rider } = c.var;
      // On libSQL there is no rider to commit the key with the change (src/db/connect.ts): the request
      // goes through as if it carried no key, rather than keep a key that could outlive a failed change.
      if (!rider) return next();
      const scope = scopeOf(c);
      const digest = await requestDigest(c);

      const earlier = await findIdempotencyRecord(db, scope, key);
      if (earlier) return answerFrom(earlier, digest);

      rider.attach(claimStatement(db, scope, key, digest));
      try {
        await next();
      } finally {
        rider.detach();
      }

      if (rider.committed) {
        await recordAnswer(db, scope, key, await answerOf(c.res));
      } else if (c.res.ok && !c.error) {
        await keepAnswer(db, scope, key, digest, await answerOf(c.res));
      } else {
        // Failed without a change of its own. If another request with this key committed meanwhile
        // (a concurrent retry, whose change may be why this one failed), answer from it instead.
        const winner = await findIdempotencyRecord(db, scope, key);
        if (winner) c.res = answerFrom(winner, digest);
      }
    }),
  );
