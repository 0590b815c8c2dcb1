/** Both signature schemes, checked against published vectors and the Standard Webhooks reference library. */
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { hmacSha256Hex } from "../../src/domain/identity/keys";
import { postDelivery, parseRetryAfter, RESPONSE_EXCERPT_BYTES } from "../../src/webhooks/post";
import { chatwootSignature, signatureHeaders, standardSignature } from "../../src/webhooks/signing";
import { receiver } from "../support/receivers";

describe("signatures", () => {
  it("reproduces the Standard Webhooks published test vector", async () => {
    // standard-webhooks/standard-webhooks libraries/javascript/src/webhook.test.ts
    const signature = await standardSignature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", '{"test": 2432232314}');
    expect(signature).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("signs so that the standardwebhooks library verifies with the secret as shown, with or without whsec_", async () => {
    const secret = "7cYbDq2WwLmZ9sR4tKpXa3Hf"; // 24 base58 characters, as the API generates
    const body = JSON.stringify({ event: "message_created", id: 7 });
    const at = Date.now();
    const headers = await signatureHeaders(secret, "d-123", body, at);
    expect(headers["webhook-id"]).toBe("d-123");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(at / 1000)));
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual({ event: "message_created", id: 7 });
    expect(new Webhook(`whsec_${secret}`).verify(body, headers)).toEqual({ event: "message_created", id: 7 });
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook("8cYbDq2WwLmZ9sR4tKpXa3Hf").verify(body, headers)).toThrow();
  });

  it("keeps Chatwoot's scheme beside it, and GitHub's published HMAC vector holds for the primitive", async () => {
    expect(await hmacSha256Hex("It's a Secret to Everybody", "Hello, World!")).toBe("757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17");
    const headers = await signatureHeaders("s3cret", "d-1", '{"a":1}', 1_700_000_000_000);
    expect(headers["x-chatwoot-delivery"]).toBe("d-1");
    expect(headers["x-chatwoot-timestamp"]).toBe("1700000000");
    expect(headers["x-chatwoot-signature"]).toBe(`sha256=${await hmacSha256Hex("s3cret", '1700000000.{"a":1}')}`);
    expect(headers["x-chatwoot-signature"]).toBe(await chatwootSignature("s3cret", "1700000000", '{"a":1}'));
  });
});

describe("one attempt", () => {
  const attempt = (url: string) => ({ url, secret: "s3cret", deliveryUuid: "d-1", body: '{"event":"x"}' });

  it("posts the body with both header families and tells the outcomes apart", async () => {
    const hook = receiver().answer(204);
    expect(await postDelivery(attempt(hook.url))).toMatchObject({ result: "delivered", status: 204, error: null });
    const [seen] = hook.received;
    expect(seen.body).toBe('{"event":"x"}');
    expect(seen.headers.get("content-type")).toBe("application/json");
    for (const name of ["x-chatwoot-delivery", "x-chatwoot-timestamp", "x-chatwoot-signature", "webhook-id", "webhook-timestamp", "webhook-signature"]) {
      expect(seen.headers.get(name), name).toBeTruthy();
    }

    const outcome = async (answer: Response | number | "network-error") => postDelivery(attempt(receiver().answer(answer).url));
    expect((await outcome(503)).result).toBe("retry");
    expect((await outcome(500)).result).toBe("retry");
    expect((await outcome(404)).result).toBe("rejected");
    expect((await outcome(301)).result).toBe("rejected");
    expect(await outcome(410)).toMatchObject({ result: "gone", status: 410 });
    expect(await outcome("network-error")).toMatchObject({ result: "retry", status: null, error: expect.stringContaining("Network") });
    expect(await outcome(new Response("slow down", { status: 429, headers: { "retry-after": "120" } }))).toMatchObject({ result: "retry", retryAfterSeconds: 120 });
    expect(await outcome(new Response("", { status: 500, headers: { "retry-after": "120" } }))).toMatchObject({ retryAfterSeconds: null });
  });

  it("keeps the first KiB of the answer and how long it took", async () => {
    const long = "é".repeat(2000);
    const result = await postDelivery(attempt(receiver().answer(new Response(long, { status: 500 })).url));
    expect(new TextEncoder().encode(result.responseBody!).byteLength).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES);
    expect(result.responseBody!.length).toBeGreaterThan(500);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("reads Retry-After as seconds or as a date", () => {
    const at = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("30", at)).toBe(30);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:02:00 GMT", at)).toBe(120);
    expect(parseRetryAfter("soon", at)).toBeNull();
    expect(parseRetryAfter(null, at)).toBeNull();
  });
});
