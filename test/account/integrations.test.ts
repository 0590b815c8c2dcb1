import { beforeAll, describe, expect, it } from "vitest";
import { del, get, patch, post } from "../support/http";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let other: World;

beforeAll(async () => {
  world = await createWorld("Integrations");
  other = await createWorld("Elsewhere");
});

const APP = {
  id: expect.any(String),
  name: expect.any(String),
  short_description: expect.any(String),
  description: expect.any(String),
  hook_type: "account",
  enabled: expect.any(Boolean),
  allow_multiple_hooks: false,
  hooks: [],
};

describe("integration apps", () => {
  it("lists only the apps this service backs, enabled once the account uses them", async () => {
    const { base, admin, agent } = world;
    const before = await get(`${base}/integrations/apps`, agent.key);
    expect(before.status).toBe(200);
    expect(before.body.payload).toEqual([
      { ...APP, id: "webhook", name: "Webhooks", enabled: false },
      { ...APP, id: "dashboard_apps", name: "Dashboard apps", enabled: false },
    ]);

    await post(`${base}/webhooks`, admin.key, { url: "https://example.com/hook" });
    const withWebhook = await get(`${base}/integrations/apps`, agent.key);
    expect(withWebhook.body.payload.map((a: { id: string; enabled: boolean }) => [a.id, a.enabled])).toEqual([
      ["webhook", true],
      ["dashboard_apps", false],
    ]);

    await post(`${base}/dashboard_apps`, admin.key, { title: "CRM", content: [{ type: "frame", url: "https://crm.example.com" }] });
    const one = await get(`${base}/integrations/apps/dashboard_apps`, agent.key);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...APP, id: "dashboard_apps", name: "Dashboard apps", enabled: true });

    // Another account's use does not enable anything here.
    expect((await get(`${other.base}/integrations/apps`, other.agent.key)).body.payload.every((a: { enabled: boolean }) => !a.enabled)).toBe(true);

    const unknown = await get(`${base}/integrations/apps/slack`, agent.key);
    expect(unknown.status).toBe(404);
    expect(unknown.body.description).toContain("slack");
  });

  it("refuses hooks, since no catalogue app takes them", async () => {
    const { base, admin } = world;
    const missing = await post(`${base}/integrations/hooks`, admin.key, {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: "app_id", code: "required" })]);

    const unknown = await post(`${base}/integrations/hooks`, admin.key, { app_id: "slack" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ field: "app_id", code: "unknown_app" })]);

    const webhook = await post(`${base}/integrations/hooks`, admin.key, { hook: { app_id: "webhook", settings: {} } });
    expect(webhook.status).toBe(422);
    expect(webhook.body.errors).toEqual([expect.objectContaining({ field: "app_id", code: "hooks_not_supported" })]);
    expect(webhook.body.errors[0].message).toContain("/webhooks");

    const badStatus = await post(`${base}/integrations/hooks`, admin.key, { app_id: "webhook", status: "sometimes" });
    expect(badStatus.body.errors[0].field).toBe("status");

    expect((await patch(`${base}/integrations/hooks/12345`, admin.key, { status: "enabled" })).status).toBe(404);
    expect((await del(`${base}/integrations/hooks/12345`, admin.key)).status).toBe(404);
  });

  it("keeps hooks for administrators and requires membership", async () => {
    const { base, agent } = world;
    expect((await post(`${base}/integrations/hooks`, agent.key, { app_id: "webhook" })).status).toBe(403);
    expect((await patch(`${base}/integrations/hooks/1`, agent.key, {})).status).toBe(403);
    expect((await del(`${base}/integrations/hooks/1`, agent.key)).status).toBe(403);
    expect((await get(`${base}/integrations/apps`, other.admin.key)).status).toBe(403);
    expect((await get(`${base}/integrations/apps`)).status).toBe(401);
  });
});
