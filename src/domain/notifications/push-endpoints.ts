/**
 * Which browser push registrations are accepted (docs/notifications.md "Push notifications"). The relay posts to a
 * browser's `endpoint`, so an endpoint anyone may register would make the relay call any address:
 * a loopback port, the cloud's metadata service, a file. Only the web-push services browsers use are
 * accepted, over https on the default port, without credentials, and the keys must have the shape
 * Web Push gives them (RFC 8291: a P-256 public key of 65 bytes and an authentication secret of 16,
 * base64url). Registrations are bounded, so a device cannot make the relay's body large.
 */
import type { ErrorEntry } from "../kernel/errors";

/** The push services of the browsers, by host; a leading "*." takes any subdomain (and only those). */
export const PUSH_SERVICE_HOSTS = [
  "fcm.googleapis.com", // Chrome, Edge, Opera, Samsung Internet
  "updates.push.services.mozilla.com", // Firefox
  "web.push.apple.com", // Safari
  "*.notify.windows.com", // Windows (legacy Edge, WNS)
] as const;

export const MAX_ENDPOINT_LENGTH = 1024;
/** A registration's attributes as JSON: a device's token or endpoint, its keys and a few device facts. */
export const MAX_ATTRIBUTES_BYTES = 8 * 1024;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function base64urlBytes(value: string): Uint8Array | null {
  if (!BASE64URL.test(value)) return null;
  const unpadded = value.replace(/=+$/, "");
  if (unpadded.length % 4 === 1) return null;
  try {
    return Uint8Array.from(atob(unpadded.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (unpadded.length % 4)) % 4)), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

const servedBy = (host: string) =>
  PUSH_SERVICE_HOSTS.some((allowed) => (allowed.startsWith("*.") ? host.endsWith(allowed.slice(1)) && host.length > allowed.length - 1 : host === allowed));

/** Why `endpoint` is not a push service's address, or null when it is one. */
export function endpointProblem(endpoint: unknown): string | null {
  if (typeof endpoint !== "string") return "must be a URL";
  if (endpoint.length > MAX_ENDPOINT_LENGTH) return `must be at most ${MAX_ENDPOINT_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "must be a URL";
  }
  if (url.protocol !== "https:") return "must be an https URL";
  if (url.username || url.password) return "must not carry credentials";
  if (url.port !== "" && url.port !== "443") return "must use the default https port";
  // an IP literal never matches a host name below; a trailing dot would
  const host = url.hostname.toLowerCase();
  if (!servedBy(host)) return `must be an address of a browser push service (${PUSH_SERVICE_HOSTS.join(", ")})`;
  return null;
}

/**
 * The problems of a browser registration's attributes (`endpoint`, `p256dh`, `auth`), each as an entry
 * of the error body; none for a registration the relay may use.
 */
export function browserPushProblems(attributes: Record<string, unknown>): ErrorEntry[] {
  const problems: ErrorEntry[] = [];
  const endpoint = endpointProblem(attributes.endpoint);
  if (endpoint) problems.push({ field: "subscription_attributes.endpoint", message: endpoint, code: "not_allowed" });
  const keys: Array<[string, number, string]> = [
    ["p256dh", 65, "must be the browser's P-256 public key: 65 bytes, base64url"],
    ["auth", 16, "must be the browser's authentication secret: 16 bytes, base64url"],
  ];
  for (const [key, size, message] of keys) {
    const value = attributes[key];
    const bytes = typeof value === "string" && value.length <= 128 ? base64urlBytes(value) : null;
    const valid = bytes !== null && bytes.length === size && (key !== "p256dh" || bytes[0] === 0x04);
    if (!valid) problems.push({ field: `subscription_attributes.${key}`, message, code: value === undefined ? "required" : "invalid_format" });
  }
  return problems;
}

/** Whether a stored registration may still be handed to the relay (rows saved before these checks). */
export const deliverable = (subscriptionType: string, attributes: unknown) =>
  subscriptionType !== "browser_push" || browserPushProblems((attributes ?? {}) as Record<string, unknown>).length === 0;
