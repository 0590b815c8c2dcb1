/**
 * GET /inboxes/:inbox_id/campaigns (Chatwoot's `inboxes#campaigns`): the campaigns of one inbox of the
 * account, as the campaign list shows them, for administrators only.
 */
import { describe, expect, it } from "vitest";
import { get, made } from "../support/http";
import { createWorld } from "../support/world";

const w = await createWorld("Inbox Campaigns Co");
const other = await createWorld("Inbox Campaigns Elsewhere");

const website = await made(`${w.base}/inboxes`, w.admin.key, { name: "Website", channel: { type: "web_widget", website_url: "https://shop.example" } });
const api = await made(`${w.base}/inboxes`, w.admin.key, { name: "App", channel: { type: "api" } });
const quiet = await made(`${w.base}/inboxes`, w.admin.key, { name: "Quiet", channel: { type: "api" } });
const vip = await made(`${w.base}/labels`, w.admin.key, { title: "vip" });
const pricing = await made(`${w.base}/campaigns`, w.admin.key, {
  title: "Pricing help",
  message: "Questions about our plans?",
  inbox_id: website.id,
  sender_id: w.admin.id,
  trigger_rules: { url: "https://shop.example/pricing" },
});
const sale = await made(`${w.base}/campaigns`, w.admin.key, { title: "Sale", message: "20% off", inbox_id: api.id, audience: [{ type: "Label", id: vip.id }], scheduled_at: 2_000_000_000, enabled: false });
const welcome = await made(`${w.base}/campaigns`, w.admin.key, { title: "Welcome", message: "Hello", inbox_id: website.id, trigger_rules: { url: "https://shop.example/" } });
const theirInbox = await made(`${other.base}/inboxes`, other.admin.key, { name: "Theirs", channel: { type: "api" } });
const theirLabel = await made(`${other.base}/labels`, other.admin.key, { title: "theirs" });
await made(`${other.base}/campaigns`, other.admin.key, { title: "Theirs", message: "x", inbox_id: theirInbox.id, audience: [{ type: "Label", id: theirLabel.id }], scheduled_at: 2_000_000_000, enabled: false });

const inboxCampaigns = (base: string, inboxId: number) => `${base}/inboxes/${inboxId}/campaigns`;

describe("an inbox's campaigns", () => {
  it("lists the inbox's campaigns, oldest first, each as the campaign's own route shows it", async () => {
    const res = await get(inboxCampaigns(w.base, website.id), w.admin.key);
    expect(res.status).toBe(200);
    expect(res.body.map((c: { id: number }) => c.id)).toEqual([pricing.id, welcome.id]);
    expect(res.body[0]).toEqual((await get(`${w.base}/campaigns/${pricing.id}`, w.admin.key)).body);
    expect(res.body[0]).toMatchObject({ inbox_id: website.id, inbox: { id: website.id }, sender: { id: w.admin.id }, campaign_type: "ongoing" });
    const apiList = await get(inboxCampaigns(w.base, api.id), w.admin.key);
    expect(apiList.body).toEqual([(await get(`${w.base}/campaigns/${sale.id}`, w.admin.key)).body]);
  });

  it("answers an empty array for an inbox without campaigns", async () => {
    const res = await get(inboxCampaigns(w.base, quiet.id), w.admin.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it("is for administrators: an agent gets 403", async () => {
    const res = await get(inboxCampaigns(w.base, website.id), w.agent.key);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ description: expect.any(String), errors: expect.any(Array) });
  });

  it("answers 401 without a key", async () => {
    const res = await get(inboxCampaigns(w.base, website.id), null);
    expect(res.status).toBe(401);
  });

  it("never shows another account's inbox: 404 in its own account, 403 in the other", async () => {
    const foreign = await get(inboxCampaigns(w.base, theirInbox.id), w.admin.key);
    expect(foreign.status).toBe(404);
    expect(foreign.body.description).toMatch(/Inbox/);
    expect((await get(inboxCampaigns(other.base, website.id), w.admin.key)).status).toBe(403);
  });

  it("answers 404 naming an unknown inbox, and 422 for an id that is not one", async () => {
    const res = await get(inboxCampaigns(w.base, 999_999), w.admin.key);
    expect(res.status).toBe(404);
    expect(res.body.description).toMatch(/Inbox.*999999/);
    expect((await get(`${w.base}/inboxes/abc/campaigns`, w.admin.key)).status).toBe(422);
  });
});
