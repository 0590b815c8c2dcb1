/**
 * POST/DELETE /api/v1/notification_subscriptions: the devices a user registers for push (Chatwoot's mobile
 * app sends its FCM token). A token belongs to whoever registered it last; a user removes only their own.
 */
import { describe, expect, it } from "vitest";
import { call, del, post } from "../support/http";
import { createWorld } from "../support/world";
import { directory } from "../support/databases";

const world = await createWorld("Push Co");
const { admin, agent } = world;
const PATH = "/api/v1/notification_subscriptions";
const fcm = (token: string) => ({
  subscription_type: "fcm",
  subscription_attributes: { push_token: token, device_id: "device-1", deviceName: "Pixel", devicePlatform: "android", apiLevel: "34", brandName: "Google", buildNumber: "42" },
});
const rows = async (token: string) =>
  (await directory().prepare("SELECT user_id, subscription_type FROM notification_subscriptions WHERE push_token = ?").bind(token).all<{ user_id: number; subscription_type: string }>()).results;

describe("notification subscriptions", () => {
  it("registers a device as Chatwoot's app sends it, once per token", async () => {
    const res = await post(PATH, agent.key, fcm("token-a"));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      user_id: agent.id,
      subscription_type: "fcm",
      identifier: "token-a",
      subscription_attributes: { push_token: "token-a", deviceName: "Pixel" },
    });
    const again = await post(PATH, agent.key, fcm("token-a"));
    expect(again.body.id).toBe(res.body.id);
    expect(await rows("token-a")).toEqual([{ user_id: agent.id, subscription_type: "fcm" }]);
    // a push service's endpoint, with keys of Web Push's shape (test/security/push-endpoints.test.ts)
    const endpoint = "https://fcm.googleapis.com/fcm/send/x";
    const browser = await post(PATH, agent.key, { subscription_type: "browser_push", subscription_attributes: { endpoint, p256dh: `B${"A".repeat(86)}`, auth: "A".repeat(22) } });
    expect(browser.status).toBe(200);
    expect(browser.body.identifier).toBe(endpoint);
  });

  it("work for a signed-in app (access-token, client, uid), as Chatwoot's mobile app calls them", async () => {
    const signIn = await post("/auth/sign_in", null, { email: agent.email, password: "Passw0rd!long" });
    expect(signIn.status).toBe(200);
    const headers = Object.fromEntries(["access-token", "client", "uid"].map((name) => [name, signIn.headers.get(name)!]));
    const res = await call("POST", PATH, { headers, body: fcm("token-app") });
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(agent.id);
    expect((await call("DELETE", PATH, { headers, body: { push_token: "token-app" } })).status).toBe(200);
    expect(await rows("token-app")).toEqual([]);
  });

  it("moves a token to the user who registers it last", async () => {
    expect((await post(PATH, agent.key, fcm("token-b"))).status).toBe(200);
    expect((await post(PATH, admin.key, fcm("token-b"))).status).toBe(200);
    expect(await rows("token-b")).toEqual([{ user_id: admin.id, subscription_type: "fcm" }]);
  });

  it("DELETE removes the caller's own device by push token, never another user's", async () => {
    expect((await post(PATH, agent.key, fcm("token-c"))).status).toBe(200);
    const other = await del(PATH, admin.key, { push_token: "token-c" });
    expect(other.status).toBe(200);
    expect(await rows("token-c")).toHaveLength(1);
    const own = await del(PATH, agent.key, { push_token: "token-c" });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({});
    expect(await rows("token-c")).toEqual([]);
    expect((await del(PATH, agent.key, { push_token: "unknown" })).status).toBe(200);
  });

  it("refuses bad bodies with the error body, and requests without a user key", async () => {
    for (const [body, field] of [
      [{ subscription_type: "fcm", subscription_attributes: { device_id: "d" } }, "subscription_attributes.push_token"],
      [{ subscription_type: "browser_push", subscription_attributes: { push_token: "t" } }, "subscription_attributes.endpoint"],
      [{ subscription_type: "carrier_pigeon", subscription_attributes: { push_token: "t" } }, "subscription_type"],
      [{ subscription_type: "fcm", subscription_attributes: "token" }, "subscription_attributes"],
      [{ subscription_type: "fcm" }, "subscription_attributes"],
    ] as const) {
      const res = await post(PATH, agent.key, body);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].field).toBe(field);
    }
    expect((await del(PATH, agent.key, {})).status).toBe(422);
    expect(await rows("t")).toEqual([]);
    expect((await post(PATH, null, fcm("token-d"))).status).toBe(401);
    const bot = await post(`${world.base}/agent_bots`, admin.key, { name: "Pusher" });
    expect((await call("POST", PATH, { key: bot.body.access_token, body: fcm("token-d") })).status).toBe(403);
    expect(await rows("token-d")).toEqual([]);
  });
});
