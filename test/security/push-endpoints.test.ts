/**
 * Push registrations (issue 31, finding 4): a browser's endpoint is handed to the push relay, so only
 * the browsers' push services are accepted (https, default port, no credentials), with keys of Web
 * Push's shape, and every registration is bounded; a refused one stores nothing. The relay's body stays
 * bounded even for a row stored before these checks.
 */
import { describe, expect, it } from "vitest";
import { post } from "../support/http";
import { createWorld } from "../support/world";
import { directory } from "../support/databases";
import { pushBody } from "../../src/webhooks/push";

const world = await createWorld("Push Guard");
const PATH = "/api/v1/notification_subscriptions";

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
const P256DH = base64url(new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer));
const AUTH = base64url(crypto.getRandomValues(new Uint8Array(16)));

const browser = (attributes: Record<string, unknown>) => ({ subscription_type: "browser_push", subscription_attributes: { p256dh: P256DH, auth: AUTH, ...attributes } });
const stored = async () => (await directory().prepare("SELECT count(*) AS n FROM notification_subscriptions").first<{ n: number }>())!.n;

describe("browser push endpoints", () => {
  it.each([
    "http://127.0.0.1:22/",
    "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
    "file:///etc/passwd",
    "https://127.0.0.1/push",
    "https://[::1]/push",
    "https://169.254.169.254/latest/meta-data/",
    "https://evil.example/push",
    "https://fcm.googleapis.com.evil.example/fcm/send/x",
    "https://fcm.googleapis.com:8443/fcm/send/x",
    "https://user:secret@fcm.googleapis.com/fcm/send/x",
    "https://notify.windows.com/x",
    "http://fcm.googleapis.com/fcm/send/x",
    "https://fcm.googleapis.com./fcm/send/x",
    `https://fcm.googleapis.com/fcm/send/${"x".repeat(5000)}`,
    "not a url",
  ].map((endpoint) => ({ endpoint, shown: endpoint.length > 100 ? `${endpoint.slice(0, 50)}… (${endpoint.length} characters)` : endpoint })))(
    "refuses $shown with a 422 and stores nothing",
    async ({ endpoint }) => {
    const before = await stored();
    const res = await post(PATH, world.agent.key, browser({ endpoint }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ field: "subscription_attributes.endpoint" }));
    expect(await stored()).toBe(before);
    },
  );

  it("refuses keys that are not Web Push's (a P-256 key of 65 bytes, a 16-byte secret, base64url)", async () => {
    const before = await stored();
    const endpoint = "https://fcm.googleapis.com/fcm/send/abc";
    for (const [attributes, field] of [
      [{ p256dh: "k" }, "p256dh"],
      [{ auth: "a" }, "auth"],
      [{ p256dh: P256DH.replace(/-/g, "+").replace(/_/g, "/") + "+/" }, "p256dh"],
      [{ p256dh: base64url(new Uint8Array(65)) }, "p256dh"],
      [{ auth: "A".repeat(5000) }, "auth"],
      [{ p256dh: undefined }, "p256dh"],
    ] as const) {
      const res = await post(PATH, world.agent.key, browser({ endpoint, ...attributes }));
      expect(res.status, field).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field), field).toEqual([`subscription_attributes.${field}`]);
    }
    expect(await stored()).toBe(before);
  });

  it("refuses a registration of 200 KB (any type) and stores nothing", async () => {
    const before = await stored();
    for (const body of [
      { subscription_type: "fcm", subscription_attributes: { push_token: "big-token", padding: "x".repeat(200 * 1024) } },
      browser({ endpoint: "https://fcm.googleapis.com/fcm/send/big", padding: "x".repeat(200 * 1024) }),
    ]) {
      const res = await post(PATH, world.agent.key, body);
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ field: "subscription_attributes", code: "too_large" });
    }
    expect(await stored()).toBe(before);
  });

  it.each([
    "https://fcm.googleapis.com/fcm/send/dK3kq:APA91bHx",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",
    "https://web.push.apple.com/QGx3Lk9RZ2x",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB",
    "https://fcm.googleapis.com:443/fcm/send/with-port",
  ])("accepts the push service address %s", async (endpoint) => {
    const res = await post(PATH, world.agent.key, browser({ endpoint }));
    expect(res.status).toBe(200);
    expect(res.body.identifier).toBe(endpoint);
  });
});

describe("the relay's body", () => {
  it("stays small for a registration stored before the bound, and keeps what the relay needs", () => {
    const huge = { endpoint: "https://fcm.googleapis.com/fcm/send/old", p256dh: P256DH, auth: AUTH, padding: "x".repeat(200 * 1024) };
    const at = Date.now();
    const body = pushBody(
      {
        record: {
          notification: { id: 1, userId: 2, accountId: 3, notificationType: 2, primaryActorType: "Conversation", primaryActorId: 4 },
          conversation: { conversation: { displayId: 5 } },
          secondary: null,
        } as never,
      },
      { id: 9, userId: 2, subscriptionType: "browser_push", pushToken: huge.endpoint, subscriptionAttributes: huge, createdAt: at, updatedAt: at } as never,
      "https://desk.example",
    );
    expect(JSON.stringify(body).length).toBeLessThan(4096);
    expect(body.subscription_attributes).toEqual({ endpoint: huge.endpoint, p256dh: P256DH, auth: AUTH });
  });
});
