/**
 * /campaigns through HTTP: Chatwoot's shapes and fields, the type derived from the inbox (website →
 * ongoing without a schedule, API → one_off at scheduled_at), validation against the account (inbox,
 * sender, labels, URL rule, times), what changes once a campaign is completed, and that every route is
 * an administrator's.
 */
import { describe, expect, it } from "vitest";
import { del, get, made, patch, post, put } from "../support/http";
import { createWorld } from "../support/world";
import { shardOf } from "../support/databases";

const w = await createWorld("Campaign Co");
const other = await createWorld("Campaign Elsewhere");
const campaigns = `${w.base}/campaigns`;

const website = await made(`${w.base}/inboxes`, w.admin.key, { name: "Website", channel: { type: "web_widget", website_url: "https://shop.example" } });
const api = await made(`${w.base}/inboxes`, w.admin.key, { name: "App", channel: { type: "api" } });
const vip = await made(`${w.base}/labels`, w.admin.key, { title: "vip" });
const theirInbox = await made(`${other.base}/inboxes`, other.admin.key, { name: "Theirs", channel: { type: "api" } });
const theirLabel = await made(`${other.base}/labels`, other.admin.key, { title: "theirs" });

const ongoing = { title: "Pricing help", message: "Questions about our plans?", inbox_id: website.id, sender_id: w.admin.id, trigger_rules: { url: "https://shop.example/pricing", time_on_page: 10 } };
const oneOff = { title: "Spring sale", message: "20% off this week", inbox_id: api.id, audience: [{ type: "Label", id: vip.id }], scheduled_at: 2_000_000_000 };

describe("campaign type from the inbox", () => {
  it("makes a website inbox's campaign ongoing, with no schedule and no audience shown", async () => {
    const res = await post(campaigns, w.admin.key, { campaign: { ...ongoing, scheduled_at: 2_000_000_000, description: "On the pricing page" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: "Pricing help",
      description: "On the pricing page",
      message: "Questions about our plans?",
      account_id: w.accountId,
      inbox_id: website.id,
      inbox: { id: website.id, channel_type: "Channel::WebWidget" },
      sender_id: w.admin.id,
      sender: { id: w.admin.id, role: "administrator" },
      campaign_type: "ongoing",
      campaign_status: "active",
      enabled: true,
      trigger_rules: { url: "https://shop.example/pricing", time_on_page: 10 },
      trigger_only_during_business_hours: false,
      sent_count: 0,
      audience_count: null,
    });
    expect(res.body.id).toBe(res.body.display_id);
    expect(res.body).not.toHaveProperty("scheduled_at");
    expect(res.body).not.toHaveProperty("audience");
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await get(`${campaigns}/${res.body.id}`, w.admin.key)).body).toEqual(res.body);
  });

  it("makes an API inbox's campaign one_off, due now when no time is given", async () => {
    const scheduled = await post(campaigns, w.admin.key, oneOff);
    expect(scheduled.status).toBe(200);
    expect(scheduled.body).toMatchObject({ campaign_type: "one_off", scheduled_at: 2_000_000_000, audience: [{ type: "Label", id: vip.id }], trigger_rules: {} });
    const before = Math.floor(Date.now() / 1000);
    const now = await post(campaigns, w.admin.key, { ...oneOff, scheduled_at: undefined, enabled: false });
    expect(now.body.scheduled_at).toBeGreaterThanOrEqual(before - 1);
    expect(now.body.scheduled_at).toBeLessThanOrEqual(before + 5);
    // an ISO date is taken as Chatwoot's dashboard sends it
    const iso = await post(campaigns, w.admin.key, { ...oneOff, scheduled_at: "2033-05-18T03:33:20Z", enabled: false });
    expect(iso.body.scheduled_at).toBe(2_000_000_000);
  });

  it("derives the type again when the inbox changes", async () => {
    const created = (await post(campaigns, w.admin.key, { ...oneOff, enabled: false })).body;
    const moved = await patch(`${campaigns}/${created.id}`, w.admin.key, { inbox_id: website.id, trigger_rules: { url: "https://shop.example/" } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ campaign_type: "ongoing", inbox_id: website.id });
    expect(moved.body).not.toHaveProperty("scheduled_at");
  });

  it("refuses a channel campaigns do not serve with the specification's error body", async () => {
    const id = (await made(`${w.base}/inboxes`, w.admin.key, { name: "Odd", channel: { type: "api" } })).id;
    // a channel this build does not create, as an inbox of another kind would be stored
    await (await shardOf(w.accountId)).prepare("UPDATE inboxes SET channel_type = 'Channel::Email' WHERE id = ?").bind(id).run();
    const res = await post(campaigns, w.admin.key, { ...oneOff, inbox_id: id });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ description: expect.any(String), errors: [{ field: "inbox_id", code: "unsupported_inbox", message: expect.any(String) }] });
  });
});

describe("validation", () => {
  it("refuses bad bodies with one entry per problem, creating nothing", async () => {
    const before = (await get(campaigns, w.admin.key)).body;
    const cases: Array<[unknown, string, string?]> = [
      [{}, "title"],
      [{ ...oneOff, title: "" }, "title", "blank"],
      [{ ...oneOff, message: "   " }, "message", "blank"],
      [{ ...oneOff, inbox_id: undefined }, "inbox_id", "required"],
      [{ ...oneOff, inbox_id: theirInbox.id }, "inbox_id", "not_found"],
      [{ ...oneOff, inbox_id: 99_999_999 }, "inbox_id", "not_found"],
      [{ ...oneOff, sender_id: other.admin.id }, "sender_id", "not_an_agent"],
      [{ ...oneOff, audience: [{ type: "Label", id: theirLabel.id }] }, "audience[0].id", "not_found"],
      [{ ...oneOff, audience: [{ type: "Contact", id: vip.id }] }, "audience[0].type"],
      [{ ...oneOff, audience: [] }, "audience", "required"],
      [{ ...oneOff, scheduled_at: "next tuesday" }, "scheduled_at"],
      [{ ...oneOff, scheduled_at: 1e20 }, "scheduled_at"],
      [{ ...oneOff, enabled: "maybe" }, "enabled"],
      [{ ...ongoing, trigger_rules: {} }, "trigger_rules.url", "required"],
      [{ ...ongoing, trigger_rules: { url: "shop.example/pricing" } }, "trigger_rules.url", "invalid_url"],
      [{ ...ongoing, trigger_rules: { url: "https://shop.example/(a+)+$" } }, "trigger_rules.url", "invalid_url"],
      // three wildcards would let one long page URL take seconds to match (a trailing / counts as one)
      [{ ...ongoing, trigger_rules: { url: "https://shop.example/*/a/*/" } }, "trigger_rules.url", "invalid_url"],
      // named parts, escaped-backslash groups and repeated groups would backtrack the same way
      [{ ...ongoing, trigger_rules: { url: "https://shop.example/:a-:b-:c-:d-:e/x" } }, "trigger_rules.url", "invalid_url"],
      [{ ...ongoing, trigger_rules: { url: "https://shop.example/\\\\(a+)+" } }, "trigger_rules.url", "invalid_url"],
      [{ ...ongoing, trigger_rules: { url: "https://shop.example/{a*}+x" } }, "trigger_rules.url", "invalid_url"],
      [{ ...ongoing, trigger_rules: { url: "https://shop.example/pricing", time_on_page: -1 } }, "trigger_rules.time_on_page"],
    ];
    for (const [body, field, code] of cases) {
      const res = await post(campaigns, w.admin.key, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field), JSON.stringify(body)).toContain(field);
      if (code) expect(res.body.errors.find((e: { field: string }) => e.field === field).code).toBe(code);
    }
    expect((await get(campaigns, w.admin.key)).body).toEqual(before);
  });

  it("updates the fields given; a bad update changes nothing", async () => {
    const created = (await post(campaigns, w.admin.key, ongoing)).body;
    const updated = await put(`${campaigns}/${created.id}`, w.admin.key, { title: "Renamed", enabled: false, trigger_only_during_business_hours: true, sender_id: null });
    expect(updated.body).toMatchObject({ title: "Renamed", enabled: false, trigger_only_during_business_hours: true, sender: null, message: ongoing.message });
    const refused = await patch(`${campaigns}/${created.id}`, w.admin.key, { sender_id: other.agent.id, title: "Never" });
    expect(refused.status).toBe(422);
    expect((await get(`${campaigns}/${created.id}`, w.admin.key)).body).toEqual(updated.body);
  });

  it("refuses any change to a completed campaign", async () => {
    const created = (await post(campaigns, w.admin.key, { ...oneOff, enabled: false })).body;
    await (await shardOf(w.accountId)).prepare("UPDATE campaigns SET campaign_status = 1 WHERE account_id = ? AND display_id = ?").bind(w.accountId, created.id).run();
    const res = await patch(`${campaigns}/${created.id}`, w.admin.key, { title: "Again" });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ field: "campaign_status", code: "completed" });
  });

  it("deletes a campaign", async () => {
    const created = (await post(campaigns, w.admin.key, ongoing)).body;
    expect((await del(`${campaigns}/${created.id}`, w.admin.key)).status).toBe(200);
    const gone = await get(`${campaigns}/${created.id}`, w.admin.key);
    expect(gone.status).toBe(404);
    expect(gone.body.errors[0]).toMatchObject({ field: "id", code: "not_found" });
    expect((await del(`${campaigns}/${created.id}`, w.admin.key)).status).toBe(404);
  });
});

describe("the inbox's campaigns", () => {
  it("go with a deleted inbox", async () => {
    const inbox = await made(`${w.base}/inboxes`, w.admin.key, { name: "Short-lived", channel: { type: "api" } });
    const created = (await post(campaigns, w.admin.key, { ...oneOff, inbox_id: inbox.id })).body;
    expect((await del(`${w.base}/inboxes/${inbox.id}`, w.admin.key)).status).toBe(200);
    expect((await get(`${campaigns}/${created.id}`, w.admin.key)).status).toBe(404);
  });
});

describe("who may", () => {
  it("lets agents do nothing (Chatwoot's policy), and changes nothing for them", async () => {
    const created = (await post(campaigns, w.admin.key, ongoing)).body;
    const before = (await get(campaigns, w.admin.key)).body;
    for (const res of [
      await get(campaigns, w.agent.key),
      await post(campaigns, w.agent.key, ongoing),
      await get(`${campaigns}/${created.id}`, w.agent.key),
      await patch(`${campaigns}/${created.id}`, w.agent.key, { title: "Agent's" }),
      await put(`${campaigns}/${created.id}`, w.agent.key, { title: "Agent's" }),
      await del(`${campaigns}/${created.id}`, w.agent.key),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe("administrator_required");
    }
    expect((await get(campaigns, w.admin.key)).body).toEqual(before);
  });

  it("keeps accounts apart and needs a key", async () => {
    const theirs = (await post(`${other.base}/campaigns`, other.admin.key, { ...oneOff, inbox_id: theirInbox.id, audience: [{ type: "Label", id: theirLabel.id }] })).body;
    // the same display id may exist in both accounts: each reads its own
    const mine = await get(`${campaigns}/${theirs.id}`, w.admin.key);
    if (mine.status === 200) expect(mine.body.account_id).toBe(w.accountId);
    else expect(mine.status).toBe(404);
    const foreign = await get(`${other.base}/campaigns/${theirs.id}`, w.admin.key);
    expect(foreign.status).toBe(403);
    expect((await patch(`${other.base}/campaigns/${theirs.id}`, w.admin.key, { title: "Mine" })).status).toBe(403);
    expect((await del(`${other.base}/campaigns/${theirs.id}`, w.admin.key)).status).toBe(403);
    const missing = await get(campaigns, null);
    expect(missing.status).toBe(401);
    expect(missing.body.errors[0].code).toBe("missing_key");
    expect((await post(campaigns, null, ongoing)).status).toBe(401);
    expect((await get(`${other.base}/campaigns/${theirs.id}`, other.admin.key)).body.title).toBe("Spring sale");
  });

  it("lists the account's campaigns in display order", async () => {
    const list = await get(campaigns, w.admin.key);
    expect(list.status).toBe(200);
    const ids = list.body.map((c: { id: number }) => c.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    expect(list.body.every((c: { account_id: number }) => c.account_id === w.accountId)).toBe(true);
  });
});
