/**
 * Signed file URLs. A file is served without a key (an `<img>` tag cannot send one) from a URL that names
 * the account, the file and an expiry, signed with ATTACHMENT_URL_SECRET. Anything altered, or an expiry
 * in the past, fails the check: the URL of one account's file never opens another's.
 */
import { HmacSha256, base64Url, timingSafeEqual } from "./hmac";

/** Which table a signed URL points into. */
export type FileCollection = "attachments" | "rule_files";

export type FileAddress = { collection: FileCollection; accountId: number; fileId: number };

/**
 * How long a URL works: until the end of the next whole hour, so that every rendering within one hour
 * gives the same URL (browsers and proxies cache it) and each URL works for one to two hours.
 */
const WINDOW_SECONDS = 3600;
export const urlExpiry = (nowMs: number) => (Math.floor(nowMs / 1000 / WINDOW_SECONDS) + 2) * WINDOW_SECONDS;

const keys = new Map<string, HmacSha256>();
function signer(secret: string): HmacSha256 {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = new HmacSha256(secret)));
  return key;
}

const signedText = (a: FileAddress, expires: number) => `${a.collection}:${a.accountId}:${a.fileId}:${expires}`;

export function fileSignature(secret: string, address: FileAddress, expires: number): string {
  return base64Url(signer(secret).sign(signedText(address, expires)));
}

export type SignatureCheck = "valid" | "expired" | "invalid";

export function checkFileSignature(secret: string, address: FileAddress, expires: number, signature: string, nowMs: number): SignatureCheck {
  // the signature is checked first, so an altered expiry reads as altered, not as expired
  if (!timingSafeEqual(fileSignature(secret, address, expires), signature)) return "invalid";
  return expires * 1000 > nowMs ? "valid" : "expired";
}
