import { beforeAll, describe, expect, it } from "vitest";
import { del, get, patch, post, put } from "../support/http";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;
let other: World;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const FRAME = { type: "frame", url: "https://crm.example.com/embed" };

beforeAll(async () => {
  world = await createWorld("Dashboard");
  other = await createWorld("Elsewhere");
});

describe("dashboard apps", () => {
  it("lets an administrator manage them and every member read them", async () => {
    const { base, admin, agent } = world;
    const created = await post(`${base}/dashboard_apps`, admin.key, { title: "CRM", content: [FRAME] });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.any(Number), title: "CRM", content: [FRAME], created_at: expect.stringMatching(ISO) });
    const id = created.body.id;

    expect((await get(`${base}/dashboard_apps`, agent.key)).body).toEqual([created.body]);
    expect((await get(`${base}/dashboard_apps/${id}`, agent.key)).body).toEqual(created.body);

    const frame = { type: "frame", url: "https://orders.example.com/" };
    const updated = await patch(`${base}/dashboard_apps/${id}`, admin.key, { dashboard_app: { title: "Orders", content: [frame] } });
    expect(updated.body).toEqual({ ...created.body, title: "Orders", content: [frame] });
    expect((await put(`${base}/dashboard_apps/${id}`, admin.key, { title: "Orders 2" })).body.title).toBe("Orders 2");

    expect(await del(`${base}/dashboard_apps/${id}`, admin.key)).toMatchObject({ status: 200, body: {} });
    expect((await get(`${base}/dashboard_apps/${id}`, agent.key)).status).toBe(404);
    expect((await del(`${base}/dashboard_apps/${id}`, admin.key)).status).toBe(404);
  });

  it("validates title and content", async () => {
    const { base, admin } = world;
    const fields = async (body: unknown) =>
      (await post(`${base}/dashboard_apps`, admin.key, body)).body.errors.map((e: { field: string }) => e.field);
    expect((await fields({})).sort()).toEqual(["content", "title"]);
    expect(await fields({ title: "X", content: [] })).toEqual(["content"]);
    expect(await fields({ title: "X", content: [{ type: "frame", url: "javascript:alert(1)" }] })).toEqual(["content[0].url"]);
    expect(await fields({ title: "X", content: [{ type: "script", url: "https://a.example" }] })).toEqual(["content[0].type"]);
  });

  it("keeps writes for administrators and accounts apart", async () => {
    const { base, admin, agent } = world;
    const app = await post(`${base}/dashboard_apps`, admin.key, { title: "Mine", content: [FRAME] });
    const id = app.body.id;
    expect((await post(`${base}/dashboard_apps`, agent.key, { title: "No", content: [FRAME] })).status).toBe(403);
    expect((await patch(`${base}/dashboard_apps/${id}`, agent.key, { title: "No" })).status).toBe(403);
    expect((await del(`${base}/dashboard_apps/${id}`, agent.key)).status).toBe(403);
    expect((await get(`${base}/dashboard_apps`, other.admin.key)).status).toBe(403);
    expect((await get(`${other.base}/dashboard_apps/${id}`, other.admin.key)).status).toBe(404);
    expect((await patch(`${other.base}/dashboard_apps/${id}`, other.admin.key, { title: "x" })).status).toBe(404);
    expect((await get(`${base}/dashboard_apps`)).status).toBe(401);
  });
});
