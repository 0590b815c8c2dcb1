/**
 * HMAC-SHA256 for signed file URLs, synchronous because views render URLs synchronously (Web Crypto's
 * `subtle` is asynchronous only); the primitives are @noble/hashes', audited and dependency-free.
 */
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";

const encoder = new TextEncoder();
const bytesOf = (value: string | Uint8Array) => (typeof value === "string" ? encoder.encode(value) : value);

export function hmacSha256(key: string | Uint8Array, data: string | Uint8Array): Uint8Array {
  return hmac(sha256, bytesOf(key), bytesOf(data));
}

/** Base64url without padding, as URLs carry it. */
export function base64Url(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Compares two strings in time that depends on their length only (workerd's timingSafeEqual). */
export function timingSafeEqual(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  return left.byteLength === right.byteLength && crypto.subtle.timingSafeEqual(left, right);
}
