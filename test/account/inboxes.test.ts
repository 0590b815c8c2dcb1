import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createDb, schema } from "../../src/db/client";
import { createInbox, updateInbox } from "../../src/domain/inboxes/inboxes";
import type { AccountScope } from "../../src/domain/kernel/scope";
import { FORBIDDEN_TARGET_MESSAGE } from "../../src/domain/kernel/target-url";
import { jobScope } from "../../src/jobs/scope";
import { shardOf } from "../support/databases";
import { del, get, patch, post, put } from "../support/http";
import { createWorld } from "../support/world";

const world = await createWorld("Inboxes");
const other = await createWorld("Outsiders");
const inboxes = `${world.base}/inboxes`;

const mondayToFriday = [
  { day_of_week: 0, closed_all_day: true, open_all_day: false, open_hour: null, open_minutes: null, close_hour: null, close_minutes: null },
  ...[1, 2, 3, 4, 5].map((day) => ({
    day_of_week: day,
    closed_all_day: false,
    open_all_day: false,
    open_hour: 9,
    open_minutes: 0,
    close_hour: 17,
    close_minutes: 0,
  })),
  { day_of_week: 6, closed_all_day: true, open_all_day: false, open_hour: null, open_minutes: null, close_hour: null, close_minutes: null },
];

async function apiInbox(name = "Api inbox", channel: object = {}) {
  const res = await post(inboxes, world.admin.key, { name, channel: { type: "api", ...channel } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
}

async function widgetInbox(name = "Website") {
  const res = await post(inboxes, world.admin.key, { name, channel: { type: "web_widget", website_url: "https://shop.example" } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
}

describe("POST /inboxes", () => {
  it("creates an API inbox with Chatwoot's defaults and its secrets for the administrator", async () => {
    const res = await post(inboxes, world.admin.key, {
      name: "Support API",
      greeting_enabled: true,
      greeting_message: "Hello",
      timezone: "Europe/Berlin",
      channel: { type: "api", webhook_url: "https://hooks.example/in", hmac_mandatory: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      avatar_url: "",
      channel_id: expect.any(Number),
      name: "Support API",
      channel_type: "Channel::Api",
      greeting_enabled: true,
      greeting_message: "Hello",
      working_hours_enabled: false,
      enable_email_collect: true,
      csat_survey_enabled: false,
      csat_config: {},
      enable_auto_assignment: true,
      auto_assignment_config: {},
      out_of_office_message: null,
      working_hours: mondayToFriday,
      timezone: "Europe/Berlin",
      callback_webhook_url: null,
      allow_messages_after_resolved: true,
      lock_to_single_conversation: false,
      sender_name_type: "friendly",
      business_name: null,
      allowed_domains: null,
      widget_color: null,
      website_url: null,
      hmac_mandatory: true,
      welcome_title: null,
      welcome_tagline: null,
      selected_feature_flags: null,
      reply_time: null,
      messaging_service_sid: null,
      phone_number: null,
      provider: null,
      webhook_url: "https://hooks.example/in",
      additional_attributes: {},
      website_token: null,
      web_widget_script: null,
      inbox_identifier: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{24}$/),
      hmac_token: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{24}$/),
    });
    expect(res.body.inbox_identifier).not.toBe(res.body.hmac_token);
  });

  it("creates a website inbox with its widget fields", async () => {
    const res = await post(inboxes, world.admin.key, {
      inbox: {
        name: "Website",
        channel: {
          type: "web_widget",
          website_url: "https://shop.example",
          widget_color: "#FF0000",
          welcome_title: "Hi there",
          welcome_tagline: "We reply fast",
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Website",
      channel_type: "Channel::WebWidget",
      website_url: "https://shop.example",
      widget_color: "#FF0000",
      welcome_title: "Hi there",
      welcome_tagline: "We reply fast",
      reply_time: "in_a_few_minutes",
      selected_feature_flags: ["attachments", "emoji_picker", "end_conversation"],
      pre_chat_form_enabled: false,
      pre_chat_form_options: {},
      continuity_via_email: true,
      allowed_domains: "",
      hmac_mandatory: false,
      website_token: expect.stringMatching(/^\w{24}$/),
      hmac_token: expect.stringMatching(/^\w{24}$/),
    });
    expect(res.body.web_widget_script).toContain(res.body.website_token);
    expect(res.body).not.toHaveProperty("inbox_identifier");
    expect(res.body).not.toHaveProperty("webhook_url");
  });

  it("validates the inbox and its channel", async () => {
    const cases: Array<[object, string]> = [
      [{ channel: { type: "api" } }, "name"],
      [{ name: "x" }, "channel"],
      [{ name: "x", channel: { type: "email" } }, "channel.email"],
      [{ name: "x", channel: { type: "sms" } }, "channel.type"],
      [{ name: "x", channel: { type: "web_widget" } }, "channel.website_url"],
      [{ name: "x", channel: { type: "api", webhook_url: "ftp://files.example" } }, "channel.webhook_url"],
      [{ name: "x", channel: { type: "api", webhook_url: `https://a.example/${"p".repeat(2048)}` } }, "channel.webhook_url"],
      [{ name: "x", channel: { type: "web_widget", website_url: "https://a.example", widget_color: "red" } }, "channel.widget_color"],
      [{ name: "x", timezone: "Mars/Olympus", channel: { type: "api" } }, "timezone"],
      [{ name: "x", greeting_message: "g".repeat(10_001), channel: { type: "api" } }, "greeting_message"],
      [{ name: "x", out_of_office_message: "o".repeat(10_001), channel: { type: "api" } }, "out_of_office_message"],
      [{ name: "x", sender_name_type: "loud", channel: { type: "api" } }, "sender_name_type"],
    ];
    for (const [body, field] of cases) {
      const res = await post(inboxes, world.admin.key, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const names = (await get(inboxes, world.admin.key)).body.payload.map((i: { name: string }) => i.name);
    expect(names).not.toContain("x");
  });

  it("is for administrators of the account only", async () => {
    const body = { name: "Nope", channel: { type: "api" } };
    const agent = await post(inboxes, world.agent.key, body);
    expect(agent.status).toBe(403);
    expect(agent.body.errors[0].code).toBe("administrator_required");
    expect((await post(inboxes, other.admin.key, body)).status).toBe(403);
    expect((await post(inboxes, null, body)).status).toBe(401);
  });
});

describe("GET /inboxes", () => {
  it("shows administrators every inbox by name, agents only their own and without secrets", async () => {
    const zed = await apiInbox("zed inbox");
    const alpha = await apiInbox("Alpha inbox");
    await post(`${world.base}/inbox_members`, world.admin.key, { inbox_id: zed.id, user_ids: [world.agent.id] });

    const asAdmin = await get(inboxes, world.admin.key);
    expect(asAdmin.status).toBe(200);
    const names = asAdmin.body.payload.map((i: { name: string }) => i.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(asAdmin.body.payload.map((i: { id: number }) => i.id)).toEqual(expect.arrayContaining([zed.id, alpha.id]));

    const asAgent = await get(inboxes, world.agent.key);
    expect(asAgent.body.payload.map((i: { id: number }) => i.id)).toEqual([zed.id]);
    const seen = asAgent.body.payload[0];
    expect(seen).toMatchObject({ id: zed.id, name: "zed inbox", webhook_url: null });
    expect(seen).not.toHaveProperty("hmac_token");
    expect(seen.inbox_identifier).toBe(zed.inbox_identifier);

    expect((await get(inboxes, other.admin.key)).status).toBe(403);
    expect((await get(inboxes)).status).toBe(401);
  });

  it("shows one inbox to administrators and to its members; 403 to other agents; 404 for unknown ids", async () => {
    const inbox = await apiInbox("Members only");
    expect((await get(`${inboxes}/${inbox.id}`, world.admin.key)).body).toEqual(inbox);
    const denied = await get(`${inboxes}/${inbox.id}`, world.agent.key);
    expect(denied.status).toBe(403);
    expect(denied.body.errors[0].code).toBe("not_an_inbox_member");
    await post(`${world.base}/inbox_members`, world.admin.key, { inbox_id: inbox.id, user_ids: [world.agent.id] });
    expect((await get(`${inboxes}/${inbox.id}`, world.agent.key)).body).toMatchObject({ id: inbox.id, name: "Members only" });

    const foreign = (await post(`${other.base}/inboxes`, other.admin.key, { name: "Theirs", channel: { type: "api" } })).body;
    for (const id of [foreign.id, 999999]) {
      const res = await get(`${inboxes}/${id}`, world.admin.key);
      expect(res.status).toBe(404);
      expect(res.body.errors[0]).toMatchObject({ field: "id", code: "not_found" });
    }
  });
});

describe("PATCH/PUT /inboxes/:id", () => {
  it("changes inbox attributes and the channel's own attributes", async () => {
    const inbox = await apiInbox("Before");
    const res = await patch(`${inboxes}/${inbox.id}`, world.admin.key, {
      name: "After",
      enable_auto_assignment: "false",
      sender_name_type: "professional",
      business_name: "Acme Ltd",
      working_hours_enabled: true,
      out_of_office_message: "Closed",
      working_hours: [
        { day_of_week: 1, open_hour: 8, close_hour: 12, close_minutes: 30 },
        { day_of_week: 6, closed_all_day: false, open_all_day: true },
      ],
      channel: { webhook_url: "https://hooks.example/new", hmac_mandatory: true, website_url: "https://ignored.example" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: inbox.id,
      name: "After",
      enable_auto_assignment: false,
      sender_name_type: "professional",
      business_name: "Acme Ltd",
      working_hours_enabled: true,
      out_of_office_message: "Closed",
      webhook_url: "https://hooks.example/new",
      hmac_mandatory: true,
      website_url: null,
      inbox_identifier: inbox.inbox_identifier,
    });
    expect(res.body.working_hours[1]).toEqual({
      day_of_week: 1,
      closed_all_day: false,
      open_all_day: false,
      open_hour: 8,
      open_minutes: 0,
      close_hour: 12,
      close_minutes: 30,
    });
    expect(res.body.working_hours[6]).toMatchObject({ day_of_week: 6, closed_all_day: false, open_all_day: true, open_hour: 0, close_hour: 23 });
    expect(res.body.working_hours[2]).toEqual(mondayToFriday[2]);
    expect((await get(`${inboxes}/${inbox.id}`, world.admin.key)).body).toEqual(res.body);
  });

  it("updates a website channel with PUT", async () => {
    const inbox = await widgetInbox();
    const res = await put(`${inboxes}/${inbox.id}`, world.admin.key, {
      inbox: { channel: { widget_color: "#00ff00", reply_time: "in_a_day", selected_feature_flags: ["attachments"], pre_chat_form_enabled: true } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Website",
      widget_color: "#00ff00",
      reply_time: "in_a_day",
      selected_feature_flags: ["attachments"],
      pre_chat_form_enabled: true,
      website_token: inbox.website_token,
    });
  });

  it("refuses bad working hours and bad values without changing anything", async () => {
    const inbox = await apiInbox("Steady");
    const closesFirst = await patch(`${inboxes}/${inbox.id}`, world.admin.key, {
      name: "Changed",
      working_hours: [{ day_of_week: 2, open_hour: 18, close_hour: 9 }],
    });
    expect(closesFirst.status).toBe(422);
    expect(closesFirst.body.errors[0]).toMatchObject({ field: "working_hours[0].close_hour", code: "invalid_range" });
    const badDay = await patch(`${inboxes}/${inbox.id}`, world.admin.key, { working_hours: [{ day_of_week: 7 }] });
    expect(badDay.body.errors[0].field).toBe("working_hours[0].day_of_week");
    const badHour = await patch(`${inboxes}/${inbox.id}`, world.admin.key, { working_hours: [{ day_of_week: 1, open_hour: 25 }] });
    expect(badHour.body.errors[0].field).toBe("working_hours[0].open_hour");
    const blank = await patch(`${inboxes}/${inbox.id}`, world.admin.key, { name: "" });
    expect(blank.body.errors[0]).toMatchObject({ field: "name", code: "blank" });
    expect((await get(`${inboxes}/${inbox.id}`, world.admin.key)).body).toEqual(inbox);
  });

  it("is for administrators, and only for the account's inboxes", async () => {
    const inbox = await apiInbox("Guarded");
    await post(`${world.base}/inbox_members`, world.admin.key, { inbox_id: inbox.id, user_ids: [world.agent.id] });
    expect((await patch(`${inboxes}/${inbox.id}`, world.agent.key, { name: "Mine" })).status).toBe(403);
    expect((await patch(`${inboxes}/999999`, world.admin.key, { name: "Mine" })).status).toBe(404);
    expect((await patch(`${other.base}/inboxes/${inbox.id}`, other.admin.key, { name: "Mine" })).status).toBe(404);
  });
});

describe("an API inbox's webhook_url and the target policy", () => {
  const PRIVATE = ["http://localhost:3000/x", "http://127.0.0.1:4000/x", "http://[::1]/x", "http://169.254.169.254/latest", "http://10.0.0.8/", "http://192.168.1.20/in"];
  const refusal = { field: "channel.webhook_url", message: FORBIDDEN_TARGET_MESSAGE, code: "forbidden_host" };

  it("refuses a private or loopback callback when the inbox is created, as an account webhook's url is refused", async () => {
    for (const url of PRIVATE) {
      const res = await post(inboxes, world.admin.key, { name: "Sneaky", channel: { type: "api", webhook_url: url } });
      expect(res.status, url).toBe(422);
      expect(res.body.errors).toEqual([refusal]);
      // the same message and code as the webhooks API gives for the same URL
      const hook = await post(`${world.base}/webhooks`, world.admin.key, { url });
      expect(hook.body.errors).toEqual([{ ...refusal, field: "url" }]);
    }
    const wrapped = await post(inboxes, world.admin.key, { inbox: { name: "Sneaky", channel: { type: "api", webhook_url: PRIVATE[1] } } });
    expect(wrapped.body.errors).toEqual([refusal]);
    const names = (await get(inboxes, world.admin.key)).body.payload.map((i: { name: string }) => i.name);
    expect(names).not.toContain("Sneaky");
  });

  it("refuses one when an API inbox is changed, and changes nothing; a website inbox ignores the field", async () => {
    const inbox = await apiInbox("Callback kept", { webhook_url: "https://hooks.example/kept" });
    for (const url of PRIVATE) {
      const res = await patch(`${inboxes}/${inbox.id}`, world.admin.key, { name: "Changed", channel: { webhook_url: url } });
      expect(res.status, url).toBe(422);
      expect(res.body.errors).toEqual([refusal]);
    }
    expect((await get(`${inboxes}/${inbox.id}`, world.admin.key)).body).toEqual(inbox);
    // a public URL, an empty one (no callback) and null are fine
    for (const url of ["https://hooks.example/other", "", null]) {
      expect((await patch(`${inboxes}/${inbox.id}`, world.admin.key, { channel: { webhook_url: url } })).status).toBe(200);
    }
    // another channel's attributes are ignored (Chatwoot's rule), so there is nothing to refuse
    const website = await widgetInbox("Website with a stray field");
    const res = await patch(`${inboxes}/${website.id}`, world.admin.key, { channel: { webhook_url: PRIVATE[0] } });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty("webhook_url");
  });

  it("accepts loopback and private callbacks where the policy allows them (npm start), and nowhere else", async () => {
    const db = createDb(await shardOf(world.accountId));
    const [user] = await db.select().from(schema.users).where(eq(schema.users.id, world.admin.id));
    // the administrator, as the inboxes API would call the domain, under each policy
    const asAdministrator = (policy: string): AccountScope => ({
      ...jobScope(db, { ...env, WEBHOOK_TARGET_POLICY: policy }),
      accountId: world.accountId,
      actor: { type: "user", user },
      role: "administrator",
    });
    const local = asAdministrator("allow-private");
    const strict = asAdministrator("public");
    const created = await createInbox(local, { name: "Local callback" }, { type: "api", webhookUrl: "http://localhost:4000/hook" });
    expect(created.api?.webhookUrl).toBe("http://localhost:4000/hook");
    const updated = await updateInbox(local, created.inbox.id, {}, { webhookUrl: "http://192.168.1.20/in" });
    expect(updated.api?.webhookUrl).toBe("http://192.168.1.20/in");
    await expect(updateInbox(strict, created.inbox.id, {}, { webhookUrl: "http://127.0.0.1:4000/hook" })).rejects.toMatchObject({
      code: "invalid",
      errors: [refusal],
    });
    await expect(createInbox(strict, { name: "Strict" }, { type: "api", webhookUrl: "http://127.0.0.1:4000/hook" })).rejects.toMatchObject({ code: "invalid" });
  });
});

describe("DELETE /inboxes/:id", () => {
  it("deletes the inbox with its members and bot link, and leaves conversations alone", async () => {
    const inbox = await apiInbox("Doomed");
    await post(`${world.base}/inbox_members`, world.admin.key, { inbox_id: inbox.id, user_ids: [world.agent.id] });
    const bot = (await post(`${world.base}/agent_bots`, world.admin.key, { name: "Doomed bot" })).body;
    await post(`${inboxes}/${inbox.id}/set_agent_bot`, world.admin.key, { agent_bot: bot.id });
    const at = Date.now();
    await (await shardOf(world.accountId)).prepare(
      `INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, last_activity_at, created_at, updated_at)
       VALUES (?, 7001, ?, ?, 1, 1, ?, ?, ?)`,
    )
      .bind(world.accountId, crypto.randomUUID(), inbox.id, at, at, at)
      .run();

    expect((await del(`${inboxes}/${inbox.id}`, world.agent.key)).status).toBe(403);
    const res = await del(`${inboxes}/${inbox.id}`, world.admin.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect((await get(`${inboxes}/${inbox.id}`, world.admin.key)).status).toBe(404);
    expect((await get(`${world.base}/inbox_members/${inbox.id}`, world.admin.key)).status).toBe(404);
    const leftovers = await (await shardOf(world.accountId)).prepare(
      `SELECT (SELECT count(*) FROM inbox_members WHERE inbox_id = ?1) AS seats,
              (SELECT count(*) FROM agent_bot_inboxes WHERE inbox_id = ?1) AS bots,
              (SELECT count(*) FROM api_channels WHERE id = ?2) AS channels,
              (SELECT count(*) FROM conversations WHERE inbox_id = ?1) AS conversations`,
    )
      .bind(inbox.id, inbox.channel_id)
      .first();
    expect(leftovers).toEqual({ seats: 0, bots: 0, channels: 0, conversations: 1 });
    expect((await del(`${inboxes}/${inbox.id}`, world.admin.key)).status).toBe(404);
  });
});

describe("inbox agent bot", () => {
  it("connects the account's own bot or a system bot, and disconnects with null", async () => {
    const inbox = await apiInbox("Botted");
    const none = await get(`${inboxes}/${inbox.id}/agent_bot`, world.admin.key);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ agent_bot: null });

    const bot = (await post(`${world.base}/agent_bots`, world.admin.key, { name: "Own bot" })).body;
    const set = await post(`${inboxes}/${inbox.id}/set_agent_bot`, world.admin.key, { agent_bot: bot.id });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({});
    const shown = await get(`${inboxes}/${inbox.id}/agent_bot`, world.admin.key);
    expect(shown.body.agent_bot).toMatchObject({ id: bot.id, name: "Own bot", access_token: bot.access_token, system_bot: false });

    const system = (await post("/platform/api/v1/agent_bots", world.platformKey, { name: "Global bot" })).body;
    await post(`${inboxes}/${inbox.id}/set_agent_bot`, world.admin.key, { agent_bot: String(system.id) });
    const swapped = await get(`${inboxes}/${inbox.id}/agent_bot`, world.admin.key);
    expect(swapped.body.agent_bot).toMatchObject({ id: system.id, system_bot: true });
    expect(swapped.body.agent_bot).not.toHaveProperty("access_token");

    await post(`${inboxes}/${inbox.id}/set_agent_bot`, world.admin.key, { agent_bot: null });
    expect((await get(`${inboxes}/${inbox.id}/agent_bot`, world.admin.key)).body).toEqual({ agent_bot: null });
  });

  it("refuses another account's bot or an unknown bot on agent_bot, keeping the current one", async () => {
    const inbox = await apiInbox("Loyal");
    const bot = (await post(`${world.base}/agent_bots`, world.admin.key, { name: "Loyal bot" })).body;
    await post(`${inboxes}/${inbox.id}/set_agent_bot`, world.admin.key, { agent_bot: bot.id });
    const foreign = (await post(`${other.base}/agent_bots`, other.admin.key, { name: "Foreign bot" })).body;
    for (const id of [foreign.id, 999999]) {
      const res = await post(`${inboxes}/${inbox.id}/set_agent_bot`, world.admin.key, { agent_bot: id });
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ field: "agent_bot" });
    }
    expect((await post(`${inboxes}/${inbox.id}/set_agent_bot`, world.admin.key, { agent_bot: "abc" })).status).toBe(422);
    expect((await get(`${inboxes}/${inbox.id}/agent_bot`, world.admin.key)).body.agent_bot.id).toBe(bot.id);
  });

  it("lets members read the bot without its key; setting it is for administrators", async () => {
    const inbox = await apiInbox("Shared");
    const bot = (await post(`${world.base}/agent_bots`, world.admin.key, { name: "Shared bot" })).body;
    await post(`${inboxes}/${inbox.id}/set_agent_bot`, world.admin.key, { agent_bot: bot.id });
    expect((await get(`${inboxes}/${inbox.id}/agent_bot`, world.agent.key)).status).toBe(403);
    await post(`${world.base}/inbox_members`, world.admin.key, { inbox_id: inbox.id, user_ids: [world.agent.id] });
    const asAgent = await get(`${inboxes}/${inbox.id}/agent_bot`, world.agent.key);
    expect(asAgent.body.agent_bot).toMatchObject({ id: bot.id });
    expect(asAgent.body.agent_bot).not.toHaveProperty("access_token");
    expect((await post(`${inboxes}/${inbox.id}/set_agent_bot`, world.agent.key, { agent_bot: null })).status).toBe(403);
    expect((await post(`${inboxes}/999999/set_agent_bot`, world.admin.key, { agent_bot: null })).status).toBe(404);
  });
});

describe("GET /inboxes/:id/assignable_agents", () => {
  it("lists the inbox's members and every administrator", async () => {
    const inbox = await apiInbox("Assignable");
    const before = await get(`${inboxes}/${inbox.id}/assignable_agents`, world.admin.key);
    expect(before.status).toBe(200);
    expect(before.body.payload.map((a: { id: number }) => a.id)).toEqual([world.admin.id]);
    expect((await get(`${inboxes}/${inbox.id}/assignable_agents`, world.agent.key)).status).toBe(403);

    await post(`${world.base}/inbox_members`, world.admin.key, { inbox_id: inbox.id, user_ids: [world.agent.id] });
    const after = await get(`${inboxes}/${inbox.id}/assignable_agents`, world.agent.key);
    expect(after.body.payload).toEqual([
      expect.objectContaining({ id: world.admin.id, role: "administrator", account_id: world.accountId }),
      expect.objectContaining({ id: world.agent.id, role: "agent", email: world.agent.email }),
    ]);
    expect((await get(`${inboxes}/999999/assignable_agents`, world.admin.key)).status).toBe(404);
  });
});
