/**
 * The loader's cookies on the host page (docs/widget.md): `cw_conversation` (the visitor's widget token),
 * `cw_user_<websiteToken>` (fingerprint of the last setUser) and `cw_snooze_campaigns_till`. Lax, on the
 * page's path `/`, for `baseDomain` when the page set one, so subdomains share the visitor.
 */
const DAY = 86_400_000;

export function readCookie(name: string): string | undefined {
  for (const pair of document.cookie.split("; ")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at) === name) {
      try {
        return decodeURIComponent(pair.slice(at + 1));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function writeCookie(name: string, value: string, baseDomain?: string, lifetimeMs = 365 * DAY) {
  const domain = baseDomain ? `; domain=${baseDomain}` : "";
  const expires = new Date(Date.now() + lifetimeMs).toUTCString();
  document.cookie = `${name}=${encodeURIComponent(value)}; expires=${expires}; path=/; SameSite=Lax${domain}`;
}

/** Removes the cookie whether it was written with the base domain or without (an older page's setting). */
export function removeCookie(name: string, baseDomain?: string) {
  const past = "; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/; SameSite=Lax";
  document.cookie = `${name}=${past}`;
  if (baseDomain) document.cookie = `${name}=${past}; domain=${baseDomain}`;
}

/**
 * The fingerprint of a setUser call kept in `cw_user_<token>`: a call with the same identifier and user
 * fields is not sent again. Only compared with itself, so a short non-cryptographic hash (FNV-1a, two
 * seeds) does; the fields are all of the user object's, so a changed phone or company is sent again.
 */
export function userFingerprint(identifier: string | number, user: Record<string, unknown>): string {
  const text = JSON.stringify([String(identifier), Object.keys(user).sort().map((key) => [key, user[key]])]);
  const fnv = (seed: number) => {
    let hash = seed;
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
    return (hash >>> 0).toString(16).padStart(8, "0");
  };
  return fnv(2166136261) + fnv(0x9747b28c);
}
