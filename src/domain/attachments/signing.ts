/**
 * Signed file URLs. A file is served without a key (an `<img>` tag cannot send one) from a URL that names
 * the account, the file and an expiry, signed with ATTACHMENT_URL_SECRET. Anything altered, or an expiry
 * in the past, fails the check: the URL of one account's file never opens another's.
 */
import { forbidden } from "../kernel/errors";
import { base64Url, hmacSha256, timingSafeEqual } from "./hmac";

/** Which table a signed URL points into. */
export type FileCollection = "attachments" | "rule_files" | "contact_exports";

export type FileAddress = { collection: FileCollection; accountId: number; fileId: number };

/**
 * How long a URL works: until the end of the next whole hour, so that every rendering within one hour
 * gives the same URL (browsers and proxies cache it) and each URL works for one to two hours.
 */
const WINDOW_SECONDS = 3600;
export const urlExpiry = (nowMs: number) => (Math.floor(nowMs / 1000 / WINDOW_SECONDS) + 2) * WINDOW_SECONDS;

const signedText = (a: FileAddress, expires: number) => `${a.collection}:${a.accountId}:${a.fileId}:${expires}`;

export function fileSignature(secret: string, address: FileAddress, expires: number): string {
  return base64Url(hmacSha256(secret, signedText(address, expires)));
}

export type SignatureCheck = "valid" | "expired" | "invalid";

export function checkFileSignature(secret: string, address: FileAddress, expires: number, signature: string, nowMs: number): SignatureCheck {
  // the signature is checked first, so an altered expiry reads as altered, not as expired
  if (!timingSafeEqual(fileSignature(secret, address, expires), signature)) return "invalid";
  return expires * 1000 > nowMs ? "valid" : "expired";
}

/**
 * A signed URL as the reader meets it: a 403 when its signature does not match (or no secret is set) or it
 * has expired; `reload` says where a fresh URL comes from.
 */
export function requireSignedAddress(secret: string | undefined, address: FileAddress, expires: number, signature: string, reload: string) {
  const check = secret ? checkFileSignature(secret, address, expires, signature, Date.now()) : "invalid";
  if (check === "invalid") throw forbidden("The file URL is not valid: its signature does not match", "invalid_signature");
  if (check === "expired") throw forbidden(`The file URL has expired: ${reload} for a fresh one`, "expired_url");
}
