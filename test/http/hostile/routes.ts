/**
 * Every route of the three surfaces and /api/v2, with real ids from a world built through the API,
 * and the fields each route reads (from the route files and src/schemas). Groups let the table be
 * split across test files (each test file has its own database).
 */
import { createWorld, createUser } from "../../support/world";
import { call, get, patch, post } from "../../support/http";
import type { Route } from "./driver";
import { firstDelivery } from "../../support/deliveries";

async function made(path: string, key: string | null, body: unknown): Promise<any> {
  const res = await post(path, key, body);
  if (res.status !== 200) throw new Error(`setup ${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function buildWorld() {
  const world = await createWorld("Hostile");
  const { base, admin, agent, platformKey } = world;
  // its callback goes to the test network (which accepts everything) and fills the inbox's delivery log
  const inbox = await made(`${base}/inboxes`, admin.key, { name: "Support", channel: { type: "api", webhook_url: "https://hooks.example.com/inbox" } });
  // before the contact, whose contact_created leaves a delivery in its log
  const webhook = (await made(`${base}/webhooks`, admin.key, { url: "https://hooks.example.com/in" })).payload.webhook;
  const contact = (await made(`${base}/contacts`, admin.key, { name: "Customer", email: "customer@example.com", inbox_id: inbox.id })).payload.contact;
  const other = (await made(`${base}/contacts`, admin.key, { name: "Other", email: "other@example.com" })).payload.contact;
  const contactNote = await made(`${base}/contacts/${contact.id}/notes`, admin.key, { content: "Called" });
  const conversation = await made(`${base}/conversations`, admin.key, { inbox_id: inbox.id, contact_id: contact.id });
  // the bot serves the inbox just long enough to be sent the message (left connected, it would make the
  // visitor's conversation below pending)
  const bot = await made(`${base}/agent_bots`, admin.key, { name: "Helper", outgoing_url: "https://hooks.example.com/bot" });
  await made(`${base}/inboxes/${inbox.id}/set_agent_bot`, admin.key, { agent_bot: bot.id });
  const message = await made(`${base}/conversations/${conversation.id}/messages`, admin.key, { content: "hello" });
  const botDelivery = await firstDelivery(`${base}/agent_bots/${bot.id}/deliveries`, admin.key);
  await made(`${base}/inboxes/${inbox.id}/set_agent_bot`, admin.key, { agent_bot: null });
  const inboxDelivery = await firstDelivery(`${base}/inboxes/${inbox.id}/deliveries`, admin.key);
  // deleted by the table's DELETE /conversations/:id, apart from the conversation the other routes use
  const deletable = await made(`${base}/conversations`, admin.key, { inbox_id: inbox.id, contact_id: contact.id });
  const team = await made(`${base}/teams`, admin.key, { name: "Tier 1" });
  const label = await made(`${base}/labels`, admin.key, { title: "vip" });
  // a one-off campaign of the API inbox, due long after the walk
  const campaign = await made(`${base}/campaigns`, admin.key, { title: "Sale", message: "Spring sale", inbox_id: inbox.id, audience: [{ type: "Label", id: label.id }], scheduled_at: 4_000_000_000 });
  const canned = await made(`${base}/canned_responses`, admin.key, { short_code: "hi", content: "Hello!" });
  const definition = await made(`${base}/custom_attribute_definitions`, admin.key, {
    attribute_display_name: "Plan",
    attribute_key: "plan",
    attribute_model: 1,
  });
  const filter = await made(`${base}/custom_filters`, admin.key, { name: "Mine", query: { payload: [] } });
  const automationRule = (
    await made(`${base}/automation_rules`, admin.key, {
      name: "Tag",
      event_name: "conversation_created",
      active: false,
      conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"] }],
      actions: [{ action_name: "add_label", action_params: ["vip"] }],
    })
  ).payload[0];
  const macro = (await made(`${base}/macros`, admin.key, { name: "Close", visibility: "global", actions: [{ action_name: "add_label", action_params: ["vip"] }] })).payload;
  const assignmentPolicy = await made(`${base}/assignment_policies`, admin.key, { name: "Fair", fair_distribution_limit: 10 });
  const webhookDelivery = await firstDelivery(`${base}/webhooks/${webhook.id}/deliveries`, admin.key);
  const dashboardApp = await made(`${base}/dashboard_apps`, admin.key, { title: "CRM", content: [{ type: "frame", url: "https://crm.example.com" }] });
  const portal = await made(`${base}/portals`, admin.key, { name: "Docs", slug: "docs", config: { allowed_locales: ["en"], default_locale: "en" } });
  const category = (await made(`${base}/portals/docs/categories`, admin.key, { name: "Start", slug: "start" })).payload;
  const article = (await made(`${base}/portals/docs/articles`, admin.key, { title: "Reset password", content: "Steps", status: "published", category_id: category.id })).payload;
  // the website widget's API: a website inbox, a visitor the /widget page made, its conversation and a form message
  const website = await made(`${base}/inboxes`, admin.key, { name: "Site", channel: { type: "web_widget", website_url: "https://shop.example" } });
  const page = await get(`/widget?website_token=${website.website_token}`);
  const widgetToken: string = JSON.parse(/<script id="widget-globals" type="application\/json">(.*?)<\/script>/s.exec(page.body)![1]).authToken;
  const widgetQuery = `website_token=${website.website_token}`;
  const widgetFirst = await call("POST", `/api/v1/widget/messages?${widgetQuery}`, { body: { message: { content: "hello" } }, headers: { "x-auth-token": widgetToken } });
  if (widgetFirst.status !== 200) throw new Error(`setup widget message failed: ${widgetFirst.status} ${JSON.stringify(widgetFirst.body)}`);
  const widgetForm = await made(`${base}/conversations/${widgetFirst.body.conversation_id}/messages`, admin.key, {
    content: "Pick one",
    content_type: "input_select",
    content_attributes: { items: [{ title: "A", value: "a" }] },
  });
  // the public widget API addresses the API inbox by its identifier and a visitor by its source id
  const publicInbox = `/public/api/v1/inboxes/${inbox.inbox_identifier}`;
  const visitor = await made(`${publicInbox}/contacts`, null, { name: "Visitor" });
  const visitorConversation = await made(`${publicInbox}/contacts/${visitor.source_id}/conversations`, null, {});
  const visitorMessage = await made(`${publicInbox}/contacts/${visitor.source_id}/conversations/${visitorConversation.id}/messages`, null, { content: "hi" });
  // a conversation resolved in an inbox that sends CSAT surveys: its uuid opens the survey link's API
  await patch(`${base}/inboxes/${inbox.id}`, admin.key, { csat_survey_enabled: true });
  const surveyed = await made(`${publicInbox}/contacts/${visitor.source_id}/conversations`, null, {});
  await made(`${publicInbox}/contacts/${visitor.source_id}/conversations/${surveyed.id}/toggle_status`, null, {});
  // the platform surface works on its own account and user, so nothing it does reaches the account above
  const platformAccount = await made("/platform/api/v1/accounts", platformKey, { name: "Provisioned" });
  const platformUser = await createUser(platformKey, "Provisioned User");
  const platformBot = await made("/platform/api/v1/agent_bots", platformKey, { name: "Platform bot" });
  // the bot assigns the conversation to the administrator: a notification of the administrator's own
  await made(`${base}/conversations/${conversation.id}/assignments`, bot.access_token, { assignee_id: admin.id });
  const notification = (await get(`${base}/notifications`, admin.key)).body.data.payload[0] as { id: number; primary_actor_id: number };
  if (!notification) throw new Error("setup: no notification for the administrator");
  return {
    ...world,
    agent,
    inbox,
    contact,
    contactNote,
    other,
    conversation,
    deletable,
    message,
    team,
    label,
    canned,
    definition,
    filter,
    webhook,
    automationRule,
    macro,
    assignmentPolicy,
    campaign,
    webhookDelivery,
    inboxDelivery,
    botDelivery,
    dashboardApp,
    bot,
    portal,
    category,
    article,
    platformAccount,
    platformUser,
    platformBot,
    visitor,
    visitorConversation,
    visitorMessage,
    widgetToken,
    widgetQuery,
    widgetForm,
    surveyed,
    notification,
    agentSession: await signedInHeaders(agent.email),
  };
}

/** The headers of a sign-in (POST /auth/sign_in), for the route that only a signed-in client calls. */
async function signedInHeaders(email: string): Promise<Record<string, string>> {
  const res = await post("/auth/sign_in", null, { email, password: "Passw0rd!long" });
  if (res.status !== 200) throw new Error(`setup sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return Object.fromEntries(["access-token", "client", "uid"].map((name) => [name, res.headers.get(name)!]));
}

export type World = Awaited<ReturnType<typeof buildWorld>>;

export type Group = "account" | "inboxes" | "automation" | "contacts" | "conversations" | "help-center" | "platform" | "widget" | "widget-api" | "reports" | "notifications";

export function routeTable(w: World): Record<Group, Route[]> {
  const acc = "/api/v1/accounts/:account_id";
  const a = w.admin.key;
  const p = { account_id: w.accountId };
  const r = (method: Route["method"], path: string, params: Record<string, string | number>, extra: Partial<Route> = {}): Route => ({
    method,
    path: `${acc}${path}`,
    params: { ...p, ...params },
    key: a,
    ...extra,
  });
  const accountShape = { name: "s", locale: "s", domain: "s", support_email: "s", industry: "s", auto_resolve_after: "n", auto_resolve_ignore_waiting: "b" } as const;
  const agentShape = { email: "s", name: "s", role: "e", availability: "e", auto_offline: "b" } as const;
  const botShape = { name: "s", description: "s", outgoing_url: "s", avatar_url: "s", bot_type: "e", bot_config: "o" } as const;
  const inboxShape = {
    name: "s",
    channel: "o",
    greeting_enabled: "b",
    greeting_message: "s",
    timezone: "s",
    working_hours: "a",
    csat_config: "o",
    sender_name_type: "e",
    avatar_url: "s",
  } as const;
  const teamShape = { name: "s", description: "s", allow_auto_assign: "b" } as const;
  const members = { user_ids: "a" } as const;
  const inboxMembers = { inbox_id: "id", user_ids: "a" } as const;
  const labelShape = { title: "s", description: "s", color: "s", show_on_sidebar: "b" } as const;
  const definitionShape = {
    attribute_display_name: "s",
    attribute_key: "s",
    attribute_display_type: "e",
    attribute_model: "e",
    attribute_description: "s",
    attribute_values: "a",
    regex_pattern: "s",
    regex_cue: "s",
  } as const;
  const webhookShape = { url: "s", name: "s", subscriptions: "a", inbox_id: "id" } as const;
  const policyShape = {
    name: "s",
    description: "s",
    assignment_order: "e",
    conversation_priority: "e",
    fair_distribution_limit: "n",
    fair_distribution_window: "n",
    enabled: "b",
  } as const;
  const campaignShape = {
    title: "s",
    description: "s",
    message: "s",
    inbox_id: "id",
    sender_id: "id",
    enabled: "b",
    trigger_rules: "o",
    trigger_only_during_business_hours: "b",
    scheduled_at: "f",
    audience: "a",
  } as const;
  const campaignValid = { title: "Other", message: "Other sale", inbox_id: w.inbox.id, audience: [{ type: "Label", id: w.label.id }], scheduled_at: 4_000_000_000 };
  const macroShape = { name: "s", visibility: "e", actions: "a" } as const;
  const macroValid = { name: "Other", actions: [{ action_name: "resolve_conversation" }] };
  const ruleShape = { name: "s", description: "s", event_name: "e", active: "b", conditions: "a", actions: "a" } as const;
  const ruleValid = {
    name: "Other rule",
    event_name: "message_created",
    active: false,
    conditions: [{ attribute_key: "content", filter_operator: "contains", values: ["refund"] }],
    actions: [{ action_name: "add_label", action_params: ["vip"] }],
  };
  const contactShape = {
    name: "s",
    email: "s",
    phone_number: "s",
    identifier: "s",
    blocked: "b",
    avatar_url: "s",
    additional_attributes: "o",
    custom_attributes: "o",
  } as const;
  const conversationShape = {
    source_id: "s",
    inbox_id: "id",
    contact_id: "id",
    additional_attributes: "o",
    custom_attributes: "o",
    status: "e",
    assignee_id: "id",
    team_id: "id",
    snoozed_until: "f",
    message: "o",
  } as const;
  const messageShape = {
    content: "s",
    message_type: "e",
    private: "b",
    content_type: "e",
    content_attributes: "o",
    campaign_id: "id",
    template_params: "o",
    echo_id: "s",
    source_id: "s",
    sender_type: "e",
    sender_id: "id",
  } as const;
  const portalShape = { name: "s", slug: "s", custom_domain: "s", color: "s", header_text: "s", archived: "b", config: "o", inbox_id: "id" } as const;
  const categoryShape = { name: "s", slug: "s", locale: "s", description: "s", position: "n", icon: "s", parent_category_id: "id", associated_category_id: "id" } as const;
  const articleShape = {
    title: "s",
    slug: "s",
    position: "n",
    content: "s",
    description: "s",
    category_id: "id",
    author_id: "id",
    associated_article_id: "id",
    status: "e",
    locale: "s",
    meta: "o",
  } as const;
  const cid = { conversation_id: w.conversation.id };
  const slug = { portal_slug: w.portal.slug };

  return {
    account: [
      r("GET", "", {}),
      r("PATCH", "", {}, { body: accountShape }),
      r("PUT", "", {}, { body: accountShape }),
      r("GET", "/agents", {}),
      r("POST", "/agents", {}, { body: agentShape, valid: { email: "new.agent@example.com" } }),
      r("POST", "/agents/bulk_create", {}, { body: { emails: "a" }, valid: { emails: ["bulk.agent@example.com"] } }),
      r("PATCH", "/agents/:id", { id: w.agent.id }, { body: { name: "s", role: "e", availability: "e", auto_offline: "b" } }),
      r("PUT", "/agents/:id", { id: w.agent.id }, { body: { name: "s", role: "e", availability: "e", auto_offline: "b" } }),
      r("DELETE", "/agents/:id", { id: w.agent.id }),
      // lists of ids, repeated or comma-separated (bad ids: test/account/agent-app-calls.test.ts)
      r("GET", "/assignable_agents", {}, { query: { inbox_ids: "a", "inbox_ids[]": "a" } }),
      r("POST", "/captain/tasks/:task", { task: "rewrite" }, { body: { content: "s", operation: "s" } }),
      r("GET", "/captain/assistants", {}),
      r("GET", "/teams", {}),
      r("POST", "/teams", {}, { body: teamShape, valid: { name: "Other team" } }),
      r("GET", "/teams/:id/team_members", { id: w.team.id }),
      r("POST", "/teams/:id/team_members", { id: w.team.id }, { body: members, valid: { user_ids: [w.agent.id] } }),
      r("PATCH", "/teams/:id/team_members", { id: w.team.id }, { body: members, valid: { user_ids: [w.agent.id] } }),
      r("DELETE", "/teams/:id/team_members", { id: w.team.id }, { body: members, valid: { user_ids: [w.agent.id] } }),
      r("GET", "/teams/:id", { id: w.team.id }),
      r("PATCH", "/teams/:id", { id: w.team.id }, { body: teamShape }),
      r("PUT", "/teams/:id", { id: w.team.id }, { body: teamShape }),
      r("DELETE", "/teams/:id", { id: w.team.id }),
      r("GET", "/canned_responses", {}, { query: { search: "s" } }),
      r("POST", "/canned_responses", {}, { body: { short_code: "s", content: "s" }, valid: { short_code: "other", content: "Other" } }),
      r("PATCH", "/canned_responses/:id", { id: w.canned.id }, { body: { short_code: "s", content: "s" } }),
      r("PUT", "/canned_responses/:id", { id: w.canned.id }, { body: { short_code: "s", content: "s" } }),
      r("DELETE", "/canned_responses/:id", { id: w.canned.id }),
      r("GET", "/labels", {}),
      r("GET", "/labels/:id", { id: w.label.id }),
      r("POST", "/labels", {}, { body: labelShape, valid: { title: "other" } }),
      r("PATCH", "/labels/:id", { id: w.label.id }, { body: labelShape }),
      r("PUT", "/labels/:id", { id: w.label.id }, { body: labelShape }),
      r("DELETE", "/labels/:id", { id: w.label.id }),
      r("GET", "/custom_filters", {}, { query: { filter_type: "e" } }),
      r("GET", "/custom_filters/:id", { id: w.filter.id }),
      r("POST", "/custom_filters", {}, { body: { name: "s", filter_type: "e", query: "o" }, valid: { name: "Other", query: {} } }),
      r("PATCH", "/custom_filters/:id", { id: w.filter.id }, { body: { name: "s", filter_type: "e", query: "o" } }),
      r("PUT", "/custom_filters/:id", { id: w.filter.id }, { body: { name: "s", filter_type: "e", query: "o" } }),
      r("DELETE", "/custom_filters/:id", { id: w.filter.id }),
      { method: "GET", path: "/api/v1/profile", params: {}, key: a },
      {
        method: "PUT",
        path: "/api/v1/profile",
        params: {},
        key: a,
        body: { name: "s", display_name: "s", email: "s", message_signature: "s", ui_settings: "o", phone_number: "s", current_password: "s", password: "s" },
      },
      { method: "PATCH", path: "/api/v1/profile", params: {}, key: a, body: { name: "s", email: "s", ui_settings: "o", password: "s" } },
      // a user of its own: a reset the walk let through would end the administrator's key the other routes use
      { method: "POST", path: "/api/v1/profile/reset_access_token", params: {}, key: w.platformUser.key },
      { method: "PUT", path: "/api/v1/profile/set_active_account", params: {}, key: a, body: { account_id: "id" }, valid: { account_id: w.accountId } },
      {
        method: "POST",
        path: "/api/v1/profile/availability",
        params: {},
        key: a,
        body: { availability: "e", account_id: "id" },
        valid: { availability: "busy", account_id: w.accountId },
      },
      {
        method: "GET",
        path: "/api/v2/accounts/:account_id/reports/summary",
        params: p,
        key: a,
        query: { since: "f", until: "f", type: "e" },
      },
    ],
    inboxes: [
      r("GET", "/agent_bots", {}),
      r("POST", "/agent_bots", {}, { body: botShape, valid: { name: "Bot" } }),
      r("POST", "/agent_bots/:id/reset_access_token", { id: w.bot.id }),
      r("GET", "/agent_bots/:id", { id: w.bot.id }),
      r("PATCH", "/agent_bots/:id", { id: w.bot.id }, { body: botShape }),
      r("PUT", "/agent_bots/:id", { id: w.bot.id }, { body: botShape }),
      r("GET", "/agent_bots/:id/deliveries", { id: w.bot.id }, { query: { page: "n", status: "e", event: "s" } }),
      r("GET", "/agent_bots/:id/deliveries/:delivery_id", { id: w.bot.id, delivery_id: w.botDelivery.id }),
      r("POST", "/agent_bots/:id/deliveries/:delivery_id/redeliver", { id: w.bot.id, delivery_id: w.botDelivery.id }),
      r("DELETE", "/agent_bots/:id", { id: w.bot.id }),
      r("GET", "/inboxes", {}),
      r("POST", "/inboxes", {}, { body: inboxShape, valid: { name: "Other", channel: { type: "api" } } }),
      r("GET", "/inboxes/:id/assignable_agents", { id: w.inbox.id }),
      r("GET", "/inboxes/:id/agent_bot", { id: w.inbox.id }),
      r("POST", "/inboxes/:id/set_agent_bot", { id: w.inbox.id }, { body: { agent_bot: "id" } }),
      r("GET", "/inboxes/:id", { id: w.inbox.id }),
      r("PATCH", "/inboxes/:id", { id: w.inbox.id }, { body: inboxShape }),
      r("PUT", "/inboxes/:id", { id: w.inbox.id }, { body: inboxShape }),
      r("GET", "/inboxes/:id/deliveries", { id: w.inbox.id }, { query: { page: "n", status: "e", event: "s" } }),
      r("GET", "/inboxes/:id/deliveries/:delivery_id", { id: w.inbox.id, delivery_id: w.inboxDelivery.id }),
      r("POST", "/inboxes/:id/deliveries/:delivery_id/redeliver", { id: w.inbox.id, delivery_id: w.inboxDelivery.id }),
      r("DELETE", "/inboxes/:id", { id: w.inbox.id }),
      r("GET", "/inbox_members/:inbox_id", { inbox_id: w.inbox.id }),
      r("POST", "/inbox_members", {}, { body: inboxMembers, valid: { inbox_id: w.inbox.id, user_ids: [w.agent.id] } }),
      r("PATCH", "/inbox_members", {}, { body: inboxMembers, valid: { inbox_id: w.inbox.id, user_ids: [w.agent.id] } }),
      r("DELETE", "/inbox_members", {}, { body: inboxMembers, valid: { inbox_id: w.inbox.id, user_ids: [w.agent.id] } }),
      r("GET", "/assignment_policies", {}),
      r("POST", "/assignment_policies", {}, { body: policyShape, valid: { name: "Other" } }),
      r("GET", "/assignment_policies/:id", { id: w.assignmentPolicy.id }),
      r("PATCH", "/assignment_policies/:id", { id: w.assignmentPolicy.id }, { body: policyShape }),
      r("PUT", "/assignment_policies/:id", { id: w.assignmentPolicy.id }, { body: policyShape }),
      r("POST", "/assignment_policies/:id/inboxes", { id: w.assignmentPolicy.id }, { body: { inbox_id: "id" }, valid: { inbox_id: w.inbox.id } }),
      r("GET", "/assignment_policies/:id/inboxes", { id: w.assignmentPolicy.id }),
      r("DELETE", "/assignment_policies/:id/inboxes/:inbox_id", { id: w.assignmentPolicy.id, inbox_id: w.inbox.id }),
      r("POST", "/inboxes/:inbox_id/assignment_policy", { inbox_id: w.inbox.id }, { body: { assignment_policy_id: "id" }, valid: { assignment_policy_id: w.assignmentPolicy.id } }),
      r("GET", "/inboxes/:inbox_id/assignment_policy", { inbox_id: w.inbox.id }),
      r("DELETE", "/inboxes/:inbox_id/assignment_policy", { inbox_id: w.inbox.id }),
      r("DELETE", "/assignment_policies/:id", { id: w.assignmentPolicy.id }),
      r("GET", "/integrations/apps", {}),
      r("GET", "/integrations/apps/:id", { id: "webhook" }),
      r("POST", "/integrations/hooks", {}, { body: { app_id: "s", inbox_id: "id", status: "e", settings: "o" }, valid: { app_id: "webhook" } }),
      r("PATCH", "/integrations/hooks/:id", { id: 1 }, { body: { status: "e", settings: "o" } }),
      r("PUT", "/integrations/hooks/:id", { id: 1 }, { body: { status: "e", settings: "o" } }),
      r("DELETE", "/integrations/hooks/:id", { id: 1 }),
    ],
    automation: [
      r("GET", "/custom_attribute_definitions", {}, { query: { attribute_model: "e" } }),
      r("GET", "/custom_attribute_definitions/:id", { id: w.definition.id }),
      r("POST", "/custom_attribute_definitions", {}, { body: definitionShape, valid: { attribute_display_name: "Tier", attribute_key: "tier", attribute_model: 1 } }),
      r("PATCH", "/custom_attribute_definitions/:id", { id: w.definition.id }, { body: definitionShape }),
      r("PUT", "/custom_attribute_definitions/:id", { id: w.definition.id }, { body: definitionShape }),
      r("DELETE", "/custom_attribute_definitions/:id", { id: w.definition.id }),
      r("GET", "/webhooks", {}),
      r("POST", "/webhooks", {}, { body: webhookShape, valid: { url: "https://other.example.com/in" } }),
      r("PATCH", "/webhooks/:id", { id: w.webhook.id }, { body: webhookShape }),
      r("PUT", "/webhooks/:id", { id: w.webhook.id }, { body: webhookShape }),
      r("DELETE", "/webhooks/:id", { id: w.webhook.id }),
      r("GET", "/automation_rules", {}),
      r("POST", "/automation_rules", {}, { body: ruleShape, valid: ruleValid }),
      r("GET", "/automation_rules/:id", { id: w.automationRule.id }),
      r("PATCH", "/automation_rules/:id", { id: w.automationRule.id }, { body: ruleShape, valid: ruleValid }),
      r("PUT", "/automation_rules/:id", { id: w.automationRule.id }, { body: ruleShape, valid: ruleValid }),
      r("POST", "/automation_rules/:id/clone", { id: w.automationRule.id }),
      r("DELETE", "/automation_rules/:id", { id: w.automationRule.id }),
      r("POST", "/automation_rules/attach_file", {}),
      r("GET", "/macros", {}),
      r("POST", "/macros", {}, { body: macroShape, valid: macroValid }),
      r("POST", "/macros/attach_file", {}),
      r("GET", "/macros/:id", { id: w.macro.id }),
      r("PATCH", "/macros/:id", { id: w.macro.id }, { body: macroShape, valid: macroValid }),
      r("PUT", "/macros/:id", { id: w.macro.id }, { body: macroShape, valid: macroValid }),
      r("POST", "/macros/:id/execute", { id: w.macro.id }, { body: { conversation_ids: "a" }, valid: { conversation_ids: [w.conversation.id] } }),
      r("DELETE", "/macros/:id", { id: w.macro.id }),
      r("POST", "/webhooks/:id/reset_secret", { id: w.webhook.id }),
      r("GET", "/webhooks/:id/deliveries", { id: w.webhook.id }, { query: { page: "n", status: "e", event: "s" } }),
      r("GET", "/webhooks/:id/deliveries/:delivery_id", { id: w.webhook.id, delivery_id: w.webhookDelivery.id }),
      r("POST", "/webhooks/:id/deliveries/:delivery_id/redeliver", { id: w.webhook.id, delivery_id: w.webhookDelivery.id }),
      r("GET", "/dashboard_apps", {}),
      r("GET", "/dashboard_apps/:id", { id: w.dashboardApp.id }),
      r("POST", "/dashboard_apps", {}, { body: { title: "s", content: "a" }, valid: { title: "Other", content: [{ type: "frame", url: "https://other.example.com" }] } }),
      r("PATCH", "/dashboard_apps/:id", { id: w.dashboardApp.id }, { body: { title: "s", content: "a" } }),
      r("PUT", "/dashboard_apps/:id", { id: w.dashboardApp.id }, { body: { title: "s", content: "a" } }),
      r("DELETE", "/dashboard_apps/:id", { id: w.dashboardApp.id }),
      r("GET", "/campaigns", {}),
      r("POST", "/campaigns", {}, { body: campaignShape, valid: campaignValid }),
      r("GET", "/campaigns/:id", { id: w.campaign.id }),
      r("PATCH", "/campaigns/:id", { id: w.campaign.id }, { body: campaignShape }),
      r("PUT", "/campaigns/:id", { id: w.campaign.id }, { body: campaignShape }),
      r("DELETE", "/campaigns/:id", { id: w.campaign.id }),
      r("GET", "/inboxes/:inbox_id/campaigns", { inbox_id: w.inbox.id }),
    ],
    reports: [
      ...(
        [
          ["/reports", { metric: "e", type: "e", id: "id", since: "f", until: "f", group_by: "e", timezone_offset: "s", business_hours: "b" }],
          ["/reports/summary", { type: "e", id: "id", since: "f", until: "f", timezone_offset: "s", business_hours: "b" }],
          ["/reports/conversations", { type: "e", user_id: "id", page: "n" }],
          ...["agent", "team", "inbox", "label"].map((d) => [`/summary_reports/${d}`, { since: "f", until: "f", business_hours: "b" }] as const),
          ...["agents", "inboxes", "labels", "teams", "conversations_summary", "conversation_traffic"].map(
            (csv) => [`/reports/${csv}`, { since: "f", until: "f", timezone_offset: "s", business_hours: "b" }] as const,
          ),
          ["/summary_reports/channel", { since: "f", until: "f", business_hours: "b" }],
          ["/reports/bot_summary", { type: "e", id: "id", since: "f", until: "f", timezone_offset: "s", business_hours: "b" }],
          ["/reports/bot_metrics", { since: "f", until: "f", business_hours: "b" }],
          ["/reports/inbox_label_matrix", { since: "f", until: "f", "inbox_ids[]": "a", "label_ids[]": "a", business_hours: "b" }],
          ["/reports/first_response_time_distribution", { since: "f", until: "f", business_hours: "b" }],
          ["/reports/outgoing_messages_count", { group_by: "e", since: "f", until: "f", business_hours: "b" }],
        ] as const
      ).map(([path, query]) => ({ method: "GET" as const, path: `/api/v2/accounts/:account_id${path}`, params: p, key: a, query })),
      ...["", "/metrics", "/download"].map((path) =>
        r("GET", `/csat_survey_responses${path}`, {}, { query: { since: "f", until: "f", "user_ids[]": "a", inbox_id: "id", team_id: "id", rating: "a", page: "n", sort: "e" } }),
      ),
    ],
    contacts: [
      r("GET", "/contacts", {}, { query: { page: "n", sort: "e", labels: "a" } }),
      r("GET", "/contacts/search", {}, { query: { q: "s", page: "n", sort: "e" } }),
      r("GET", "/contacts/active", {}, { query: { page: "n" } }),
      // without a file every body is refused (nothing to import); POST /contacts/export is left out: an
      // accepted export runs on the queue after the request, under the walk's table fingerprint
      r("POST", "/contacts/import", {}),
      r("GET", "/contacts/imports", {}),
      r("GET", "/contacts/imports/:id", { id: w.contact.id }, { query: { page: "n" } }),
      r("GET", "/contacts/exports", {}),
      r("GET", "/contacts/exports/:id", { id: w.contact.id }),
      r("POST", "/contacts/filter", {}, { body: { payload: "a" }, query: { page: "n" }, valid: { payload: [{ attribute_key: "name", filter_operator: "equal_to", values: ["x"] }] } }),
      r("POST", "/contacts", {}, { body: { ...contactShape, inbox_id: "id", source_id: "s" } }),
      r("GET", "/contacts/:id", { id: w.contact.id }),
      r("PATCH", "/contacts/:id", { id: w.contact.id }, { body: contactShape }),
      r("PUT", "/contacts/:id", { id: w.contact.id }, { body: contactShape }),
      r("DELETE", "/contacts/:id", { id: w.other.id }),
      r("GET", "/contacts/:id/contactable_inboxes", { id: w.contact.id }),
      r("POST", "/contacts/:id/contact_inboxes", { id: w.contact.id }, { body: { inbox_id: "id", source_id: "s", hmac_verified: "b" }, valid: { inbox_id: w.inbox.id } }),
      r("POST", "/contacts/:id/destroy_custom_attributes", { id: w.contact.id }, { body: { custom_attributes: "a" }, valid: { custom_attributes: ["plan"] } }),
      r("GET", "/contacts/:id/conversations", { id: w.contact.id }),
      r("GET", "/contacts/:id/labels", { id: w.contact.id }),
      r("POST", "/contacts/:id/labels", { id: w.contact.id }, { body: { labels: "a" }, valid: { labels: ["vip"] } }),
      r("GET", "/contacts/:contact_id/notes", { contact_id: w.contact.id }),
      r("POST", "/contacts/:contact_id/notes", { contact_id: w.contact.id }, { body: { content: "s" } }),
      r("GET", "/contacts/:contact_id/notes/:id", { contact_id: w.contact.id, id: w.contactNote.id }),
      r("PATCH", "/contacts/:contact_id/notes/:id", { contact_id: w.contact.id, id: w.contactNote.id }, { body: { content: "s" } }),
      r("PUT", "/contacts/:contact_id/notes/:id", { contact_id: w.contact.id, id: w.contactNote.id }, { body: { content: "s" } }),
      r("DELETE", "/contacts/:contact_id/notes/:id", { contact_id: w.contact.id, id: w.contactNote.id }),
      r("GET", "/search", {}, { query: { q: "s", page: "n" } }),
      r("GET", "/search/contacts", {}, { query: { q: "s", page: "n" } }),
      r("GET", "/search/conversations", {}, { query: { q: "s", page: "n" } }),
      r("GET", "/search/messages", {}, { query: { q: "s", page: "n" } }),
      r("GET", "/search/articles", {}, { query: { q: "s", page: "n" } }),
      r("POST", "/actions/contact_merge", {}, { body: { base_contact_id: "id", mergee_contact_id: "id" }, valid: { base_contact_id: w.contact.id, mergee_contact_id: w.other.id } }),
    ],
    conversations: [
      r("POST", "/bulk_actions", {}, {
        body: { type: "e", ids: "a", fields: "o", labels: "o", snoozed_until: "f", action_name: "e" },
        valid: { type: "Conversation", ids: [w.conversation.id], fields: { status: "pending" }, labels: { add: ["bulk"] } },
      }),
      r("GET", "/conversations", {}, { query: { status: "e", inbox_id: "id", team_id: "id", page: "n", labels: "a", q: "s", cursor: "s", sort_by: "e" } }),
      r("GET", "/conversations/meta", {}, { query: { status: "e", inbox_id: "id", team_id: "id", q: "s" } }),
      r("POST", "/conversations/filter", {}, { body: { payload: "a", page: "n" }, query: { page: "n", cursor: "s" }, valid: { payload: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"] }] } }),
      r("POST", "/conversations", {}, { body: conversationShape, valid: { inbox_id: w.inbox.id, contact_id: w.contact.id } }),
      r("GET", "/conversations/:conversation_id", cid),
      r("PATCH", "/conversations/:conversation_id", cid, { body: { priority: "e", sla_policy_id: "id" } }),
      r("PUT", "/conversations/:conversation_id", cid, { body: { priority: "e", sla_policy_id: "id" } }),
      r("POST", "/conversations/:conversation_id/toggle_status", cid, { body: { status: "e", snoozed_until: "f" } }),
      r("POST", "/conversations/:conversation_id/toggle_priority", cid, { body: { priority: "e" } }),
      // assignee_id 0 unassigns (Chatwoot's agent apps send it), so 0 is no strict case here: checked as a number
      // (negative ids: test/account/agent-app-calls.test.ts)
      r("POST", "/conversations/:conversation_id/assignments", cid, { body: { assignee_id: "n", assignee_type: "e", team_id: "id" } }),
      r("GET", "/conversations/:conversation_id/labels", cid),
      r("POST", "/conversations/:conversation_id/labels", cid, { body: { labels: "a" }, valid: { labels: ["vip"] } }),
      r("POST", "/conversations/:conversation_id/custom_attributes", cid, { body: { custom_attributes: "o" }, valid: { custom_attributes: {} } }),
      r("POST", "/conversations/:conversation_id/mute", cid),
      r("POST", "/conversations/:conversation_id/unmute", cid),
      r("POST", "/conversations/:conversation_id/unread", cid),
      r("POST", "/conversations/:conversation_id/transcript", cid, { body: { email: "s" }, valid: { email: "reader@example.com" } }),
      r("POST", "/conversations/:conversation_id/update_last_seen", cid),
      r("GET", "/conversations/:conversation_id/messages", cid, { query: { before: "id", after: "id", cursor: "s" } }),
      r("POST", "/conversations/:conversation_id/messages", cid, { body: messageShape, valid: { content: "hi" } }),
      r("PATCH", "/conversations/:conversation_id/messages/:message_id", { ...cid, message_id: w.message.id }, { body: { status: "e", external_error: "s" } }),
      r("PUT", "/conversations/:conversation_id/messages/:message_id", { ...cid, message_id: w.message.id }, { body: { status: "e", external_error: "s" } }),
      r("DELETE", "/conversations/:conversation_id/messages/:message_id", { ...cid, message_id: w.message.id }),
      r("POST", "/conversations/:conversation_id/messages/:message_id/retry", { ...cid, message_id: w.message.id }),
      r("POST", "/conversations/:conversation_id/messages/:message_id/translate", { ...cid, message_id: w.message.id }),
      r("GET", "/conversations/:conversation_id/attachments", cid, { query: { page: "n" } }),
      r("DELETE", "/conversations/:conversation_id", { conversation_id: w.deletable.id }),
    ],
    "help-center": [
      r("GET", "/portals", {}),
      r("POST", "/portals", {}, { body: portalShape, valid: { name: "Other", slug: "other" } }),
      r("GET", "/portals/:portal_slug", slug, { query: { locale: "s" } }),
      r("PATCH", "/portals/:portal_slug", slug, { body: portalShape }),
      r("PUT", "/portals/:portal_slug", slug, { body: portalShape }),
      r("GET", "/portals/:portal_slug/categories", slug, { query: { locale: "s", page: "n" } }),
      r("POST", "/portals/:portal_slug/categories", slug, { body: categoryShape, valid: { name: "Other", slug: "other" } }),
      r("POST", "/portals/:portal_slug/categories/reorder", slug, { body: { positions_hash: "o" }, valid: { positions_hash: { [w.category.id]: 2 } } }),
      r("GET", "/portals/:portal_slug/categories/:id", { ...slug, id: w.category.id }),
      r("PATCH", "/portals/:portal_slug/categories/:id", { ...slug, id: w.category.id }, { body: categoryShape }),
      r("PUT", "/portals/:portal_slug/categories/:id", { ...slug, id: w.category.id }, { body: categoryShape }),
      r("GET", "/portals/:portal_slug/articles", slug, { query: { page: "n", status: "e", locale: "s", category_slug: "s", author_id: "id", query: "s" } }),
      r("POST", "/portals/:portal_slug/articles/reorder", slug, { body: { positions_hash: "o" }, valid: { positions_hash: { [w.article.id]: 1 } } }),
      r("POST", "/portals/:portal_slug/articles", slug, { body: articleShape, valid: { title: "Other", content: "Other" } }),
      r("GET", "/portals/:portal_slug/articles/:id", { ...slug, id: w.article.id }),
      r("PATCH", "/portals/:portal_slug/articles/:id", { ...slug, id: w.article.id }, { body: articleShape }),
      r("PUT", "/portals/:portal_slug/articles/:id", { ...slug, id: w.article.id }, { body: articleShape }),
      { method: "GET", path: "/public/api/v1/portals/:portal_slug", params: slug, key: null },
      { method: "GET", path: "/public/api/v1/portals/:portal_slug/categories", params: slug, key: null, query: { locale: "s", page: "n" } },
      { method: "GET", path: "/public/api/v1/portals/:portal_slug/articles", params: slug, key: null, query: { page: "n", locale: "s", category_slug: "s", query: "s" } },
      { method: "GET", path: "/public/api/v1/portals/:portal_slug/articles/:article_slug", params: { ...slug, article_slug: w.article.slug }, key: null },
      // the help-center site: HTML pages, whose failures are the 404 page
      ...siteRoutes(w),
      // deletes last: their strict cases must leave the objects in place for the routes above
      r("DELETE", "/portals/:portal_slug/articles/:id", { ...slug, id: w.article.id }),
      r("DELETE", "/portals/:portal_slug/categories/:id", { ...slug, id: w.category.id }),
      r("DELETE", "/portals/:portal_slug", slug),
    ],
    platform: platformRoutes(w),
    widget: widgetRoutes(w),
    "widget-api": websiteWidgetRoutes(w),
    notifications: [
      r("GET", "/conversations/:conversation_id/participants", cid),
      r("POST", "/conversations/:conversation_id/participants", cid, { body: members, valid: { user_ids: [w.admin.id] } }),
      r("PATCH", "/conversations/:conversation_id/participants", cid, { body: members, valid: { user_ids: [w.admin.id] } }),
      r("PUT", "/conversations/:conversation_id/participants", cid, { body: members, valid: { user_ids: [w.admin.id] } }),
      r("DELETE", "/conversations/:conversation_id/participants", cid, { body: members, valid: { user_ids: [w.admin.id] } }),
      r("GET", "/notifications", {}, { query: { includes: "a", "includes[]": "a", sort_order: "e", page: "n" } }),
      r("GET", "/notifications/unread_count", {}),
      r("POST", "/notifications/read_all", {}, { body: { primary_actor_type: "e", primary_actor_id: "id" }, valid: { primary_actor_type: "Conversation", primary_actor_id: w.notification.primary_actor_id } }),
      r("PATCH", "/notifications/:id", { id: w.notification.id }),
      r("POST", "/notifications/:id/unread", { id: w.notification.id }),
      r("POST", "/notifications/:id/snooze", { id: w.notification.id }, { body: { snoozed_until: "f" }, valid: { snoozed_until: 2_000_000_000 } }),
      r("GET", "/notification_settings", {}),
      r("PUT", "/notification_settings", {}, { body: { notification_settings: "o" }, valid: { notification_settings: { selected_email_flags: [] } } }),
      r("PATCH", "/notification_settings", {}, { body: { notification_settings: "o" }, valid: { notification_settings: { selected_push_flags: [] } } }),
      {
        method: "POST",
        path: "/api/v1/notification_subscriptions",
        params: {},
        key: a,
        body: { subscription_type: "e", subscription_attributes: "o" },
        valid: { subscription_type: "fcm", subscription_attributes: { push_token: "hostile-token" } },
      },
      { method: "DELETE", path: "/api/v1/notification_subscriptions", params: {}, key: a, body: { push_token: "s" }, valid: { push_token: "hostile-token" } },
      // deletes last: their strict cases must leave the notification in place for the routes above
      r("POST", "/notifications/destroy_all", {}, { body: { type: "e" }, valid: { type: "read" } }),
      r("DELETE", "/notifications/:id", { id: w.notification.id }),
    ],
  };
}

/** The public help-center site's pages (no key): path segments and the search's query as anyone may type them. */
function siteRoutes(w: World): Route[] {
  const ids = { portal_slug: w.portal.slug, locale: "en", article_slug: w.article.slug, category_slug: w.category.slug };
  const page = (path: string, extra: Partial<Route> = {}): Route => ({
    method: "GET",
    path,
    params: Object.fromEntries(Object.entries(ids).filter(([name]) => path.includes(`:${name}`))),
    key: null,
    page: true,
    ...extra,
  });
  return [
    page("/hc/:portal_slug"),
    page("/hc/:portal_slug/sitemap.xml"),
    page("/hc/:portal_slug/:locale"),
    page("/hc/:portal_slug/:locale/articles", { query: { query: "s", page: "n" } }),
    page("/hc/:portal_slug/:locale/categories/:category_slug"),
    page("/hc/:portal_slug/articles/:article_slug"),
  ];
}

/** The fields of a visitor's contact, as the public API and the website widget's API read them. */
const contactShape = {
  name: "s",
  email: "s",
  phone_number: "s",
  identifier: "s",
  identifier_hash: "s",
  avatar_url: "s",
  additional_attributes: "o",
  custom_attributes: "o",
} as const;

/** The public client API (no key) and the agents' live-room socket. */
function widgetRoutes(w: World): Route[] {
  const inbox = "/public/api/v1/inboxes/:inbox_identifier";
  const contact = `${inbox}/contacts/:contact_identifier`;
  const conversation = `${contact}/conversations/:conversation_id`;
  const ids = { inbox_identifier: w.inbox.inbox_identifier, contact_identifier: w.visitor.source_id, conversation_id: w.visitorConversation.id };
  const own = (path: string, params: Record<string, string | number>) => Object.fromEntries(Object.entries(params).filter(([name]) => path.includes(`:${name}`)));
  const pr = (method: Route["method"], path: string, extra: Partial<Route> = {}): Route => ({ method, path, key: null, ...extra, params: own(path, extra.params ?? ids) });
  return [
    pr("GET", inbox),
    pr("POST", `${inbox}/contacts`, { body: { ...contactShape, source_id: "s" }, valid: { name: "Another" } }),
    pr("GET", contact, { query: { identifier_hash: "s" } }),
    pr("PATCH", contact, { body: contactShape, valid: { name: "Renamed" } }),
    pr("POST", `${contact}/events`, { body: { name: "s", event_info: "o" }, valid: { name: "webwidget.triggered" } }),
    pr("GET", `${inbox}/campaigns`, { query: { url: "s" } }),
    pr("GET", `${contact}/conversations`),
    pr("POST", `${contact}/conversations`, { body: { custom_attributes: "o" }, valid: {} }),
    pr("GET", conversation),
    pr("POST", `${conversation}/toggle_typing`, { body: { typing_status: "e" }, query: { typing_status: "e" }, valid: { typing_status: "off" } }),
    pr("POST", `${conversation}/update_last_seen`),
    pr("GET", `${conversation}/live`, { query: { pubsub_token: "s" } }),
    pr("GET", `${conversation}/messages`, { query: { before: "id" } }),
    pr("POST", `${conversation}/messages`, { body: { content: "s", echo_id: "s" }, valid: { content: "hello" } }),
    pr("PATCH", `${conversation}/messages/:message_id`, {
      params: { ...ids, message_id: w.visitorMessage.id },
      body: { submitted_values: "a" },
      valid: { submitted_values: [{ value: "x" }] },
    }),
    pr("POST", `${conversation}/toggle_status`),
    // the CSAT survey link's API: the conversation uuid is the credential
    { method: "GET", path: "/public/api/v1/csat_survey/:conversation_uuid", params: { conversation_uuid: w.surveyed.uuid }, key: null },
    {
      method: "PUT",
      path: "/public/api/v1/csat_survey/:conversation_uuid",
      params: { conversation_uuid: w.surveyed.uuid },
      key: null,
      // the body may come wrapped in `message` (as Chatwoot's page sends it) or not; the walk sends it bare
      body: { submitted_values: "o" },
      valid: { submitted_values: { csat_survey_response: { rating: 5 } } },
    },
    // a signed file URL: no key, and never a 5xx whatever the path and the signature
    {
      method: "GET",
      path: "/files/:collection/:account_id/:file_id/:file_name",
      params: { collection: "attachments", account_id: w.accountId, file_id: 1, file_name: "x.pdf" },
      key: null,
      query: { expires: "n", signature: "s" },
    },
    { method: "GET", path: "/api/v1/live", params: {}, key: null, query: { ticket: "s" } },
    // the live account feed: a plain request is refused; subscriptions prove themselves on the socket
    { method: "GET", path: "/cable", params: {}, key: null },
    // the link of an e-mail confirmation: no key, the token is the credential
    { method: "GET", path: "/auth/confirmation", params: {}, key: null, query: { confirmation_token: "s" } },
    // sign-in and password reset: no key, the password or the mailed token is the credential
    {
      method: "POST",
      path: "/auth/sign_in",
      params: {},
      key: null,
      body: { email: "s", password: "s", mfa_token: "s", otp_code: "s", backup_code: "s", sso_auth_token: "s" },
      valid: { email: "nobody@example.com", password: "Wrong-passw0rd" },
    },
    { method: "POST", path: "/auth/password", params: {}, key: null, body: { email: "s" }, valid: { email: "nobody@example.com" } },
    {
      method: "PUT",
      path: "/auth/password",
      params: {},
      key: null,
      body: { reset_password_token: "s", password: "s", password_confirmation: "s" },
      valid: { reset_password_token: "no-such-token", password: "Passw0rd!new", password_confirmation: "Passw0rd!new" },
    },
    // a signed-in client's routes: validate_token takes the user's key too, sign_out only a sign-in's headers
    { method: "GET", path: "/auth/validate_token", params: {}, key: w.agent.key },
    { method: "DELETE", path: "/auth/sign_out", params: {}, key: null, headers: w.agentSession },
  ];
}

/**
 * The website widget's page and API (no key): `?website_token=` on every case, the visitor's token in
 * `X-Auth-Token`. The label of DELETE /labels/:label is free text (any value is Chatwoot's 204), so
 * it is sent as one fixed label rather than walked as an id.
 */
function websiteWidgetRoutes(w: World): Route[] {
  const wr = (method: Route["method"], path: string, extra: Partial<Route> = {}): Route => ({
    method,
    path: `/api/v1/widget${path}`,
    params: {},
    key: null,
    headers: { "x-auth-token": w.widgetToken },
    search: w.widgetQuery,
    ...extra,
  });
  return [
    { method: "GET", path: "/widget", params: {}, key: null, search: w.widgetQuery, query: { cw_conversation: "s", locale: "s" } },
    wr("POST", "/config"),
    wr("GET", "/inbox_members"),
    wr("GET", "/campaigns"),
    wr("GET", "/contact"),
    wr("PATCH", "/contact", { body: contactShape, valid: { name: "Renamed" } }),
    wr("PATCH", "/contact/set_user", { body: contactShape, valid: { identifier: "hostile-user", name: "Hostile" } }),
    wr("POST", "/contact/destroy_custom_attributes", { body: { custom_attributes: "a" }, valid: { custom_attributes: ["x"] } }),
    wr("GET", "/conversations"),
    wr("POST", "/conversations", { body: { contact: "o", message: "o", custom_attributes: "o" }, valid: { message: { content: "hi" } } }),
    wr("POST", "/conversations/update_last_seen"),
    wr("POST", "/conversations/toggle_typing", { body: { typing_status: "e" }, valid: { typing_status: "off" } }),
    wr("POST", "/conversations/transcript"),
    wr("GET", "/conversations/toggle_status"),
    wr("POST", "/conversations/set_custom_attributes", { body: { custom_attributes: "o" }, valid: { custom_attributes: {} } }),
    wr("POST", "/conversations/destroy_custom_attributes", { body: { custom_attribute: "a" }, valid: { custom_attribute: ["x"] } }),
    wr("GET", "/messages", { query: { before: "id", after: "id" } }),
    wr("POST", "/messages", { body: { message: "o" }, valid: { message: { content: "hello" } } }),
    wr("PATCH", "/messages/:id", { params: { id: w.widgetForm.id }, body: { contact: "o", message: "o" }, valid: { message: { submitted_values: [{ value: "a" }] } } }),
    wr("POST", "/events", { body: { name: "e", event_info: "o" }, valid: { name: "webwidget.triggered" } }),
    wr("POST", "/labels", { body: { label: "s" }, valid: { label: "vip" } }),
    wr("DELETE", "/labels/vip"),
    wr("POST", "/direct_uploads", { body: { blob: "o" } }),
  ];
}

function platformRoutes(w: World): Route[] {
  const k = w.platformKey;
  const accountShape = { name: "s", locale: "s", domain: "s", support_email: "s", status: "e", limits: "o", custom_attributes: "o", features: "o" } as const;
  const userShape = { name: "s", display_name: "s", email: "s", password: "s", custom_attributes: "o" } as const;
  const botShape = { name: "s", description: "s", outgoing_url: "s", avatar_url: "s", bot_type: "e", bot_config: "o", account_id: "id" } as const;
  const pr = (method: Route["method"], path: string, params: Record<string, string | number> = {}, extra: Partial<Route> = {}): Route => ({
    method,
    path: `/platform/api/v1${path}`,
    params,
    key: k,
    ...extra,
  });
  const acct = { id: w.platformAccount.id };
  const user = { id: w.platformUser.id };
  const bot = { id: w.platformBot.id };
  return [
    pr("GET", "/accounts"),
    pr("POST", "/accounts", {}, { body: accountShape, valid: { name: "Other" } }),
    pr("GET", "/accounts/:id", acct),
    pr("PATCH", "/accounts/:id", acct, { body: accountShape }),
    pr("PUT", "/accounts/:id", acct, { body: accountShape }),
    pr("GET", "/accounts/:account_id/account_users", { account_id: w.platformAccount.id }),
    pr("POST", "/accounts/:account_id/account_users", { account_id: w.platformAccount.id }, { body: { user_id: "id", role: "e" }, valid: { user_id: w.platformUser.id } }),
    pr("DELETE", "/accounts/:account_id/account_users", { account_id: w.platformAccount.id }, { body: { user_id: "id" }, valid: { user_id: w.platformUser.id } }),
    pr("POST", "/users", {}, { body: userShape, valid: { name: "Other", email: "other.user@example.com" } }),
    pr("GET", "/users/:id", user),
    pr("PATCH", "/users/:id", user, { body: userShape }),
    pr("PUT", "/users/:id", user, { body: userShape }),
    pr("GET", "/users/:id/login", user),
    pr("POST", "/users/:id/token", user),
    pr("GET", "/agent_bots"),
    pr("POST", "/agent_bots", {}, { body: botShape, valid: { name: "Other bot" } }),
    pr("GET", "/agent_bots/:id", bot),
    pr("PATCH", "/agent_bots/:id", bot, { body: botShape }),
    pr("PUT", "/agent_bots/:id", bot, { body: botShape }),
    pr("DELETE", "/agent_bots/:id/avatar", bot),
    pr("DELETE", "/agent_bots/:id", bot),
    pr("DELETE", "/users/:id", user),
    pr("DELETE", "/accounts/:id", acct),
  ];
}
