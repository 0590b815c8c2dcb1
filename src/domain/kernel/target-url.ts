/**
 * Which URLs the service may send webhooks to. A target that names this machine or a private network
 * would let an account administrator make the service probe places it can reach and they cannot (SSRF),
 * so localhost and loopback, private, link-local and other non-public IP literals are refused.
 *
 * Host names are not resolved here (a Worker has no DNS lookup; the check runs when a webhook is saved,
 * and DNS can change later). What a name alone tells is refused: names of this machine and of internal
 * namespaces, one-label names, and the public services whose names resolve to loopback or to whatever
 * address the name spells (FORBIDDEN_NAMES). Any other name that an owner points at a private address is
 * not caught here (docs/webhooks.md "Where receivers may be"). Delivery calls `isForbiddenTarget` again before each
 * request.
 *
 * Local development is the exception: a developer's receiver runs on their own machine, so `npm start`
 * sets WEBHOOK_TARGET_POLICY=allow-private. Anything else (wrangler.toml's "public", or nothing) is strict.
 */

import type { ErrorEntry } from "./errors";

/** "public": only public hosts (the deployed default). "allow-private": loopback and private too (local runs). */
export type TargetPolicy = "public" | "allow-private";

export function targetPolicy(env: { WEBHOOK_TARGET_POLICY?: string }): TargetPolicy {
  return env.WEBHOOK_TARGET_POLICY === "allow-private" ? "allow-private" : "public";
}

/** The message a refused URL gets, at save time and in the delivery log. */
export const FORBIDDEN_TARGET_MESSAGE = "must not point to localhost or a private, loopback or link-local address";

/** Non-public IPv4 blocks as [first octets, prefix length]. */
const FORBIDDEN_V4: ReadonlyArray<readonly [number[], number]> = [
  [[0], 8], // "this network"
  [[10], 8], // private
  [[100, 64], 10], // carrier-grade NAT
  [[127], 8], // loopback
  [[169, 254], 16], // link-local, cloud metadata
  [[172, 16], 12], // private
  [[192, 0, 0], 24], // IETF protocol assignments
  [[192, 168], 16], // private
  [[198, 18], 15], // benchmarking
  [[224], 3], // multicast (224/4) and reserved (240/4), broadcast
];

function v4ToNumber(octets: number[]) {
  return ((octets[0] << 24) | (octets[1] << 16) | (octets[2] << 8) | octets[3]) >>> 0;
}

function isForbiddenV4(octets: number[]): boolean {
  const address = v4ToNumber(octets);
  return FORBIDDEN_V4.some(([first, bits]) => {
    const base = v4ToNumber([...first, 0, 0, 0, 0].slice(0, 4));
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return ((address & mask) >>> 0) === ((base & mask) >>> 0);
  });
}

function parseV4(text: string): number[] | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!match) return null;
  const octets = match.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

/** The eight 16-bit groups of an IPv6 address, or null. */
function parseV6(text: string): number[] | null {
  let body = text;
  const groups: number[] = [];
  const embedded = /(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(body);
  if (embedded) {
    const v4 = parseV4(embedded[1]);
    if (!v4) return null;
    body = `${body.slice(0, -embedded[1].length)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const toGroups = (part: string) => (part === "" ? [] : part.split(":").map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN)));
  const head = toGroups(halves[0]);
  const tail = halves.length === 2 ? toGroups(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  groups.push(...head, ...Array(halves.length === 2 ? missing : 0).fill(0), ...tail);
  return groups.some(Number.isNaN) ? null : groups;
}

function isForbiddenV6(g: number[]): boolean {
  const embeddedV4 = (hi: number, lo: number) => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];
  if (g.slice(0, 6).every((x) => x === 0)) {
    // :: and ::1, and the deprecated IPv4-compatible form ::a.b.c.d
    return g[6] === 0 || isForbiddenV4(embeddedV4(g[6], g[7]));
  }
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return isForbiddenV4(embeddedV4(g[6], g[7])); // IPv4-mapped
  if (g.slice(0, 4).every((x) => x === 0) && g[4] === 0xffff && g[5] === 0) return isForbiddenV4(embeddedV4(g[6], g[7])); // IPv4-translated
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return isForbiddenV4(embeddedV4(g[6], g[7])); // NAT64
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return true; // NAT64 for local use (64:ff9b:1::/48): a private translator
  if (g[0] === 0x2001 && g[1] === 0) return true; // Teredo: the client's IPv4 is hidden in the address, and any may be behind it
  if (g[0] === 0x2002) return isForbiddenV4(embeddedV4(g[1], g[2])); // 6to4
  return (
    (g[0] & 0xfe00) === 0xfc00 || // unique local
    (g[0] & 0xffc0) === 0xfe80 || // link-local
    (g[0] & 0xffc0) === 0xfec0 || // site-local (deprecated)
    (g[0] & 0xff00) === 0xff00 // multicast
  );
}

/**
 * Names refused with every name under them: this machine; namespaces for internal use only (cloud
 * metadata at metadata.google.internal, mDNS, home networks); public names that resolve to loopback;
 * and wildcard DNS services whose names resolve to the address they spell (10.0.0.1.nip.io).
 */
const FORBIDDEN_NAMES = [
  "localhost",
  "localdomain",
  "internal",
  "local",
  "home.arpa",
  "localtest.me",
  "lvh.me",
  "vcap.me",
  "localho.st",
  "nip.io",
  "sslip.io",
  "xip.io",
  "traefik.me",
];

/**
 * True when `hostname` (as `URL.hostname` gives it) is a non-public IP literal, or a name that by
 * itself is local or resolves to a private address (FORBIDDEN_NAMES, one label).
 */
export function isForbiddenHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.+$/, "");
  if (FORBIDDEN_NAMES.some((name) => host === name || host.endsWith(`.${name}`))) return true;
  if (host.startsWith("[") && host.endsWith("]")) {
    const groups = parseV6(host.slice(1, -1).split("%")[0]);
    return groups === null || isForbiddenV6(groups);
  }
  // URL has already turned 2130706433, 0x7f.1 and friends into dotted quads.
  const v4 = parseV4(host);
  if (v4 !== null) return isForbiddenV4(v4);
  // a name of one label is looked up in the resolver's search domains: always a local name
  return !host.includes(".");
}

/** True when `url` is not an http(s) URL the service may call under `policy`. */
export function isForbiddenTarget(url: string | URL, policy: TargetPolicy = "public"): boolean {
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    return true;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return true;
  if (parsed.username || parsed.password) return true; // credentials in a URL end up in logs
  return policy === "public" && isForbiddenHost(parsed.hostname);
}

/**
 * The save-time check of a receiver URL (an account webhook's `url`, an API inbox's `webhook_url`, an
 * agent bot's `outgoing_url`): one entry at `field` when the policy refuses it, so that every place
 * refuses the same URLs with the same message and code. An empty or absent URL (no receiver) passes.
 */
export function refusedTarget(env: { WEBHOOK_TARGET_POLICY?: string }, field: string, url: string | null | undefined): ErrorEntry[] {
  if (!url || !isForbiddenTarget(url, targetPolicy(env))) return [];
  return [{ field, message: FORBIDDEN_TARGET_MESSAGE, code: "forbidden_host" }];
}
