/**
 * Ongoing campaigns as a website's widget meets them, through the public API: the list for a page URL
 * (Chatwoot's widget's matching rule), business hours, and `campaign.triggered` opening the visitor's
 * first conversation with the campaign's message, from its sender, for that visitor only.
 */
import { describe, expect, it } from "vitest";
import { get, made, patch, post } from "../support/http";
import { createWorld } from "../support/world";
import { shardOf } from "../support/databases";
import { pageMatchesRule } from "../../src/domain/campaigns/url-rules";

const w = await createWorld("Widget Campaigns");
const website = await made(`${w.base}/inboxes`, w.admin.key, { name: "Website", channel: { type: "web_widget", website_url: "https://shop.example" } });
const pub = `/public/api/v1/inboxes/${website.website_token}`;
const campaign = (body: Record<string, unknown>) =>
  made(`${w.base}/campaigns`, w.admin.key, { title: "C", message: "Hello from us", inbox_id: website.id, sender_id: w.admin.id, ...body });

const pricing = await campaign({ title: "Pricing", message: "Questions about pricing?", trigger_rules: { url: "https://shop.example/pricing", time_on_page: 5 } });
const docs = await campaign({ title: "Docs", message: "Stuck in the docs?", trigger_rules: { url: "https://shop.example/docs/" } });
const anyShop = await campaign({ title: "Any", message: "Hi!", trigger_rules: { url: "https://{*.}?shop.example/*" }, sender_id: null });
const disabled = await campaign({ title: "Off", enabled: false, trigger_rules: { url: "https://shop.example/pricing" } });
const hoursOnly = await campaign({ title: "Office", trigger_rules: { url: "https://shop.example/pricing" }, trigger_only_during_business_hours: true });

const listed = async (url?: string) => {
  const res = await get(`${pub}/campaigns${url === undefined ? "" : `?url=${encodeURIComponent(url)}`}`);
  expect(res.status).toBe(200);
  return (res.body as Array<{ id: number }>).map((c) => c.id).sort((a, b) => a - b);
};
const ids = (...cs: Array<{ id: number }>) => cs.map((c) => c.id).sort((a, b) => a - b);

describe("the widget's campaign list", () => {
  it("lists the enabled campaigns whose URL rule matches the page, in Chatwoot's widget shape", async () => {
    expect(await listed("https://shop.example/pricing")).toEqual(ids(pricing, anyShop, hoursOnly));
    expect(await listed("https://shop.example/pricing/")).toEqual(ids(pricing, anyShop, hoursOnly));
    expect(await listed("https://shop.example/docs/install?step=2#top")).toEqual(ids(docs, anyShop));
    expect(await listed("https://blog.shop.example/post")).toEqual(ids(anyShop));
    expect(await listed("https://elsewhere.example/pricing")).toEqual([]);
    expect(await listed("not a url")).toEqual([]);
    // without a page, every enabled campaign (Chatwoot's widget then matches them itself)
    expect(await listed()).toEqual(ids(pricing, docs, anyShop, hoursOnly));
    expect(await listed()).not.toContain(disabled.id);

    const shown = (await get(`${pub}/campaigns?url=${encodeURIComponent("https://shop.example/pricing")}`)).body;
    expect(shown.find((c: { id: number }) => c.id === pricing.id)).toEqual({
      id: pricing.id,
      trigger_rules: { url: "https://shop.example/pricing", time_on_page: 5 },
      trigger_only_during_business_hours: false,
      message: "Questions about pricing?",
      sender: { name: "Widget Campaigns Admin", avatar_url: "" },
    });
    expect(shown.find((c: { id: number }) => c.id === anyShop.id).sender).toBeNull();
  });

  it("matches as Chatwoot's widget does", () => {
    expect(pageMatchesRule("https://shop.example/pricing", "https://shop.example/pricing/")).toBe(true);
    expect(pageMatchesRule("https://shop.example/pricing/", "https://shop.example/pricing/annual?x=1")).toBe(true);
    expect(pageMatchesRule("https://*.shop.example/pricing", "https://app.shop.example/pricing")).toBe(true);
    expect(pageMatchesRule("https://shop.example/pricing", "https://shop.example/pricing-old")).toBe(false);
    expect(pageMatchesRule("https://shop.example/pricing", "https://evil.example/?https://shop.example/pricing")).toBe(false);
  });

  it("leaves out the campaigns limited to business hours while the inbox is closed", async () => {
    const closed = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day_of_week: day, closed_all_day: true }));
    const open = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day_of_week: day, open_all_day: true, closed_all_day: false }));
    await patch(`${w.base}/inboxes/${website.id}`, w.admin.key, { working_hours_enabled: true, working_hours: closed, timezone: "Pacific/Kiritimati" });
    expect(await listed("https://shop.example/pricing")).toEqual(ids(pricing, anyShop));
    await patch(`${w.base}/inboxes/${website.id}`, w.admin.key, { working_hours: open });
    expect(await listed("https://shop.example/pricing")).toEqual(ids(pricing, anyShop, hoursOnly));
    await patch(`${w.base}/inboxes/${website.id}`, w.admin.key, { working_hours_enabled: false });
  });

  it("answers 404 for an unknown inbox, and lists nothing of an API inbox", async () => {
    const unknown = await get("/public/api/v1/inboxes/no-such-inbox/campaigns");
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].field).toBe("inbox_identifier");
    const api = await made(`${w.base}/inboxes`, w.admin.key, { name: "App", channel: { type: "api" } });
    const label = await made(`${w.base}/labels`, w.admin.key, { title: "widgetless" });
    await made(`${w.base}/campaigns`, w.admin.key, { title: "One-off", message: "x", inbox_id: api.id, audience: [{ type: "Label", id: label.id }], scheduled_at: 2_000_000_000 });
    expect((await get(`/public/api/v1/inboxes/${api.inbox_identifier}/campaigns`)).body).toEqual([]);
  });
});

describe("a triggered campaign", () => {
  const trigger = (sourceId: string, eventInfo: Record<string, unknown>) => post(`${pub}/contacts/${sourceId}/events`, null, { name: "campaign.triggered", event_info: eventInfo });

  it("opens the visitor's first conversation with the campaign's message, from its sender", async () => {
    const visitor = await made(`${pub}/contacts`, null, { name: "Visitor" });
    const res = await trigger(visitor.source_id, { campaign_id: pricing.id, referer: "https://shop.example/pricing" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ event: "campaign.triggered", name: "campaign.triggered", conversation_id: expect.any(Number) });
    const displayId = res.body.conversation_id;

    const conversations = (await get(`${pub}/contacts/${visitor.source_id}/conversations`)).body;
    expect(conversations.map((c: { id: number }) => c.id)).toEqual([displayId]);
    const messages = (await get(`${pub}/contacts/${visitor.source_id}/conversations/${displayId}/messages`)).body;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ content: "Questions about pricing?", message_type: 1 });
    expect(messages[0].sender).toMatchObject({ id: w.admin.id });

    const stored = await (await shardOf(w.accountId)).prepare("SELECT campaign_id, additional_attributes FROM conversations WHERE account_id = ? AND display_id = ?")
      .bind(w.accountId, displayId)
      .first<{ campaign_id: number; additional_attributes: string }>();
    const row = await (await shardOf(w.accountId)).prepare("SELECT id FROM campaigns WHERE account_id = ? AND display_id = ?").bind(w.accountId, pricing.id).first<{ id: number }>();
    expect(stored!.campaign_id).toBe(row!.id);
    expect(JSON.parse(stored!.additional_attributes)).toEqual({ referer: "https://shop.example/pricing" });
    const agentView = (await get(`${w.base}/conversations/${displayId}`, w.admin.key)).body;
    expect(agentView.meta.sender.id).toBe(visitor.id);
    expect((await get(`${w.base}/campaigns/${pricing.id}`, w.admin.key)).body.sent_count).toBe(1);

    // as Chatwoot: no campaign into a contact inbox that has a conversation already
    const again = await trigger(visitor.source_id, { campaign_id: docs.id });
    expect(again.status).toBe(200);
    expect(again.body.conversation_id).toBeNull();
    expect((await get(`${pub}/contacts/${visitor.source_id}/conversations`)).body).toHaveLength(1);
  });

  it("a campaign without a sender speaks for nobody", async () => {
    const visitor = await made(`${pub}/contacts`, null, {});
    const res = await trigger(visitor.source_id, { campaign_id: anyShop.id });
    const messages = (await get(`${pub}/contacts/${visitor.source_id}/conversations/${res.body.conversation_id}/messages`)).body;
    expect(messages[0]).toMatchObject({ content: "Hi!", message_type: 1 });
  });

  it("refuses unknown, disabled and foreign campaigns and bad ids, opening nothing", async () => {
    const visitor = await made(`${pub}/contacts`, null, {});
    const elsewhere = await createWorld("Campaign Thief");
    const theirSite = await made(`${elsewhere.base}/inboxes`, elsewhere.admin.key, { name: "Theirs", channel: { type: "web_widget", website_url: "https://theirs.example" } });
    const theirs = await made(`${elsewhere.base}/campaigns`, elsewhere.admin.key, { title: "T", message: "Theirs", inbox_id: theirSite.id, trigger_rules: { url: "https://theirs.example/" } });
    for (const [info, status, field] of [
      [{ campaign_id: 999_999 }, 404, "event_info.campaign_id"],
      [{ campaign_id: disabled.id }, 404, "event_info.campaign_id"],
      [{ campaign_id: theirs.id + 10_000 }, 404, "event_info.campaign_id"],
      [{}, 422, "event_info.campaign_id"],
      [{ campaign_id: "abc" }, 422, "event_info.campaign_id"],
      [{ campaign_id: -1 }, 422, "event_info.campaign_id"],
    ] as const) {
      const res = await trigger(visitor.source_id, info);
      expect(res.status, JSON.stringify(info)).toBe(status);
      expect(res.body.errors[0].field).toBe(field);
    }
    // the other account's campaign through its own widget works for its own visitor only
    const theirVisitor = await made(`/public/api/v1/inboxes/${theirSite.website_token}/contacts`, null, {});
    expect((await post(`${pub}/contacts/${theirVisitor.source_id}/events`, null, { name: "campaign.triggered", event_info: { campaign_id: pricing.id } })).status).toBe(404);
    expect((await get(`${pub}/contacts/${visitor.source_id}/conversations`)).body).toEqual([]);
  });

  it("refuses a campaign limited to business hours while the inbox is closed", async () => {
    const closed = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day_of_week: day, closed_all_day: true }));
    await patch(`${w.base}/inboxes/${website.id}`, w.admin.key, { working_hours_enabled: true, working_hours: closed });
    const visitor = await made(`${pub}/contacts`, null, {});
    const res = await trigger(visitor.source_id, { campaign_id: hoursOnly.id });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].code).toBe("outside_business_hours");
    expect((await get(`${pub}/contacts/${visitor.source_id}/conversations`)).body).toEqual([]);
    await patch(`${w.base}/inboxes/${website.id}`, w.admin.key, { working_hours_enabled: false });
  });

  it("waits for the inbox's bot only when the campaign has no sender (Chatwoot's rule)", async () => {
    const site = await made(`${w.base}/inboxes`, w.admin.key, { name: "Bot site", channel: { type: "web_widget", website_url: "https://bot.example" } });
    const bot = await made(`${w.base}/agent_bots`, w.admin.key, { name: "Greeter", outgoing_url: "https://bot.example/hook" });
    expect((await post(`${w.base}/inboxes/${site.id}/set_agent_bot`, w.admin.key, { agent_bot: bot.id })).status).toBe(200);
    const botPub = `/public/api/v1/inboxes/${site.website_token}`;
    const rules = { trigger_rules: { url: "https://bot.example/" } };
    const spoken = await made(`${w.base}/campaigns`, w.admin.key, { title: "S", message: "From a person", inbox_id: site.id, sender_id: w.admin.id, ...rules });
    const silent = await made(`${w.base}/campaigns`, w.admin.key, { title: "N", message: "From nobody", inbox_id: site.id, ...rules });
    const statusAfter = async (campaignId: number) => {
      const v = await made(`${botPub}/contacts`, null, {});
      const res = await post(`${botPub}/contacts/${v.source_id}/events`, null, { name: "campaign.triggered", event_info: { campaign_id: campaignId } });
      return (await get(`${w.base}/conversations/${res.body.conversation_id}`, w.admin.key)).body.status;
    };
    expect(await statusAfter(spoken.id)).toBe("open");
    expect(await statusAfter(silent.id)).toBe("pending");
  });

  it("opens a conversation only for the visitor who triggered it", async () => {
    const a = await made(`${pub}/contacts`, null, { name: "A" });
    const b = await made(`${pub}/contacts`, null, { name: "B" });
    const res = await trigger(a.source_id, { campaign_id: docs.id });
    expect((await get(`${pub}/contacts/${b.source_id}/conversations`)).body).toEqual([]);
    expect((await get(`${pub}/contacts/${b.source_id}/conversations/${res.body.conversation_id}`)).status).toBe(404);
    expect((await get(`${pub}/contacts/${a.source_id}/conversations/${res.body.conversation_id}`)).status).toBe(200);
  });
});
