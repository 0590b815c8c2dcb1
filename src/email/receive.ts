/**
 * The Worker's `email()` handler (Cloudflare Email Routing calls it once per recipient). It does only what
 * must happen while the sender waits: refuse mail that is too large or for an address no account takes
 * (`setReject`, a permanent SMTP error the sender is told), keep the raw message in R2, and queue its key
 * for the consumer (src/jobs/inbound-email.ts), which parses and threads it. A queue message holds 128 KB
 * and a D1 row 2 MB, so the mail itself never goes on the queue. A failure of R2 or the queue is thrown:
 * the sender sees a temporary error and tries again later.
 */
import { connectDirectory } from "../db/connect";
import { shardPool } from "../db/shards";
import { recipientAccount } from "../domain/email/inbound";
import type { TransportScope } from "../domain/kernel/scope";
import { livePorts } from "../ports";

/** The queue message of one accepted mail. */
export type InboundEmailMessage = { kind: "inbound_email"; accountId: number; storageKey: string; envelopeFrom: string; envelopeTo: string; receivedAt: number };

/** The largest mail taken, in bytes (INBOUND_EMAIL_MAX_BYTES; Cloudflare's own limit is 25 MiB). */
export function maxInboundBytes(env: Env): number {
  const limit = Number(env.INBOUND_EMAIL_MAX_BYTES);
  return Number.isFinite(limit) && limit > 0 ? limit : 25 * 1024 * 1024;
}

export async function receiveEmail(message: ForwardableEmailMessage, env: Env): Promise<void> {
  const limit = maxInboundBytes(env);
  if (message.rawSize > limit) {
    message.setReject(`Message too large: ${message.rawSize} bytes, this service accepts at most ${limit} bytes`);
    return;
  }
  const directory = connectDirectory(env).db;
  const shards = shardPool(env, directory);
  const scope: TransportScope = { db: directory, directory, shards, env, ports: livePorts(env, shards) };
  const accountId = await recipientAccount(scope, message.to, env.INBOUND_EMAIL_DOMAIN);
  if (accountId === null) {
    message.setReject(`Unknown recipient: no inbox receives mail at ${message.to}`);
    return;
  }
  const raw = new Uint8Array(await new Response(message.raw).arrayBuffer());
  const receivedAt = Date.now();
  const storageKey = `${accountId}/inbound-email/${new Date(receivedAt).toISOString().slice(0, 10)}/${crypto.randomUUID()}.eml`;
  await env.FILES.put(storageKey, raw, { httpMetadata: { contentType: "message/rfc822" } });
  const queued: InboundEmailMessage = { kind: "inbound_email", accountId, storageKey, envelopeFrom: message.from, envelopeTo: message.to, receivedAt };
  await env.EVENTS.send(queued);
}
