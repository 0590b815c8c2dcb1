/** The synchronous HMAC-SHA256 that signs file URLs agrees with Web Crypto, on RFC 4231 and random inputs. */
import { describe, expect, it } from "vitest";
import { hmacSha256 } from "../../src/domain/attachments/hmac";
import { checkFileSignature, fileSignature, urlExpiry } from "../../src/domain/attachments/signing";

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");

async function webCrypto(key: Uint8Array, data: Uint8Array) {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, data));
}

describe("HMAC-SHA256", () => {
  it("match the published vectors", () => {
    // RFC 4231 test case 2
    expect(hex(hmacSha256("Jefe", "what do ya want for nothing?"))).toBe("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    // RFC 4231 test case 6: a key longer than the block
    expect(hex(hmacSha256(new Uint8Array(131).fill(0xaa), "Test Using Larger Than Block-Size Key - Hash Key First"))).toBe(
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
    );
  });

  it("agree with Web Crypto on inputs of every length around the block boundaries", async () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 200, 1000]) {
      const key = crypto.getRandomValues(new Uint8Array((length % 90) + 1));
      const data = crypto.getRandomValues(new Uint8Array(length));
      expect(hex(hmacSha256(key, data)), `length ${length}`).toBe(hex(await webCrypto(key, data)));
    }
  });
});

describe("file signatures", () => {
  const address = { collection: "attachments" as const, accountId: 7, fileId: 42 };
  it("hold until the expiry and not after", () => {
    const now = Date.UTC(2026, 0, 1, 10, 30);
    const expires = urlExpiry(now);
    expect(expires * 1000 - now).toBeGreaterThanOrEqual(3600_000);
    expect(expires * 1000 - now).toBeLessThanOrEqual(7200_000);
    const signature = fileSignature("secret", address, expires);
    expect(checkFileSignature("secret", address, expires, signature, now)).toBe("valid");
    expect(checkFileSignature("secret", address, expires, signature, expires * 1000)).toBe("expired");
    expect(checkFileSignature("other secret", address, expires, signature, now)).toBe("invalid");
    expect(checkFileSignature("secret", { ...address, accountId: 8 }, expires, signature, now)).toBe("invalid");
    expect(checkFileSignature("secret", { ...address, collection: "rule_files" }, expires, signature, now)).toBe("invalid");
  });
});
