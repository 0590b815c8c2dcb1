/**
 * The two signature schemes every delivery carries, from one secret:
 * - Chatwoot's: `X-Chatwoot-Signature: sha256=<hex HMAC-SHA256(secret as UTF-8, "<timestamp>.<body>")>`;
 * - Standard Webhooks (standardwebhooks.com): `webhook-signature: v1,<base64 HMAC-SHA256(key,
 *   "<webhook-id>.<timestamp>.<body>")>`, where the key is the secret base64-decoded (after an optional
 *   `whsec_` prefix), as the scheme's libraries read it. Our secrets are 24 base58 characters, which are
 *   also valid base64, so `new Webhook(secret)` from any Standard Webhooks library verifies them as shown.
 */
import { hmacSha256Hex } from "../domain/identity/keys";

export async function chatwootSignature(secret: string, timestamp: string, body: string): Promise<string> {
  return `sha256=${await hmacSha256Hex(secret, `${timestamp}.${body}`)}`;
}

const STANDARD_PREFIX = "whsec_";

function base64Decode(text: string): Uint8Array {
  const binary = atob(text);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function base64Encode(bytes: ArrayBuffer): string {
  let binary = "";
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Whether Standard Webhooks can sign with `secret`: it must be base64 (after an optional `whsec_`). Our own
 * secrets always are; a configured one (PUSH_RELAY_SECRET) may not be, and is refused rather than crashing.
 */
export function isUsableSecret(secret: string): boolean {
  const raw = secret.startsWith(STANDARD_PREFIX) ? secret.slice(STANDARD_PREFIX.length) : secret;
  try {
    return base64Decode(raw).byteLength > 0;
  } catch {
    return false;
  }
}

export async function standardSignature(secret: string, webhookId: string, timestamp: string, body: string): Promise<string> {
  const raw = secret.startsWith(STANDARD_PREFIX) ? secret.slice(STANDARD_PREFIX.length) : secret;
  const key = await crypto.subtle.importKey("raw", base64Decode(raw), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${webhookId}.${timestamp}.${body}`));
  return `v1,${base64Encode(mac)}`;
}

/** The signing headers of one attempt: a fresh timestamp each time, the same delivery id every time. */
export async function signatureHeaders(secret: string, deliveryId: string, body: string, at: number): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(at / 1000));
  return {
    "x-chatwoot-delivery": deliveryId,
    "x-chatwoot-timestamp": timestamp,
    "x-chatwoot-signature": await chatwootSignature(secret, timestamp, body),
    "webhook-id": deliveryId,
    "webhook-timestamp": timestamp,
    "webhook-signature": await standardSignature(secret, deliveryId, timestamp, body),
  };
}
