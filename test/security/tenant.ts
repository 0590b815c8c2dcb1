/**
 * TEST SETUP for the tenancy audit: one account with an object of every kind, created through the API
 * as a client would (nothing here is asserted), and a snapshot of everything its administrator can read,
 * to prove that a refused request changed nothing.
 */
import { type Reply, call, get, post, put } from "../support/http";
import { addToAccount, createUser, createWorld } from "../support/world";
import { firstDelivery } from "../support/deliveries";

function must(res: Reply, what: string) {
  if (res.status !== 200) throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export type Tenant = Awaited<ReturnType<typeof buildTenant>>;

/**
 * An account with an administrator, an agent (member of `inboxId` only), a second agent (member of
 * nothing), and one object of every kind. `conversations` conversations are opened in `inboxId`: give
 * the other account more of them, so that its highest display id does not exist here.
 */
export async function buildTenant(name: string, slug: string, conversations = 1) {
  const world = await createWorld(name);
  const { base, admin, agent } = world;
  const outsider = await createUser(world.platformKey, `${name} Outsider`);
  await addToAccount(world.platformKey, world.accountId, outsider.id, "agent");
  const a = admin.key;

  // its callback (on the test network, which accepts everything) leaves deliveries in the inbox's log
  const inbox = must(
    await post(`${base}/inboxes`, a, { name: `${name} Support`, channel: { type: "api", webhook_url: `https://${slug}.example.com/inbox-callback` } }),
    "inbox",
  );
  const otherInbox = must(await post(`${base}/inboxes`, a, { name: `${name} Sales`, channel: { type: "api" } }), "inbox 2");
  must(await post(`${base}/inbox_members`, a, { inbox_id: inbox.id, user_ids: [agent.id] }), "inbox member");
  // an e-mail inbox: its address and forwarding address are the account's in the directory
  const emailInbox = must(await post(`${base}/inboxes`, a, { name: `${name} Mail`, channel: { type: "email", email: `${slug}-support@example.com`, smtp_password: "tenant-secret" } }), "e-mail inbox");
  const team = must(await post(`${base}/teams`, a, { name: `${name} Team` }), "team");
  must(await post(`${base}/teams/${team.id}/team_members`, a, { user_ids: [agent.id] }), "team member");
  const bot = must(await post(`${base}/agent_bots`, a, { name: `${name} Bot`, outgoing_url: `https://${slug}.example.com/bot` }), "agent bot");
  const canned = must(await post(`${base}/canned_responses`, a, { short_code: `${slug}-hi`, content: "Hello" }), "canned response");
  const label = must(await post(`${base}/labels`, a, { title: `${slug}-vip`, description: "VIP" }), "label");
  const definition = must(
    await post(`${base}/custom_attribute_definitions`, a, { attribute_display_name: "Tier", attribute_key: `${slug}_tier`, attribute_model: "contact_attribute" }),
    "custom attribute definition",
  );
  const filterQuery = { payload: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }] };
  const adminFilter = must(await post(`${base}/custom_filters`, a, { name: "Admin's open", query: filterQuery }), "custom filter");
  const agentFilter = must(await post(`${base}/custom_filters`, agent.key, { name: "Agent's open", query: filterQuery }), "custom filter 2");
  // subscribed to contact_created, so the contact below leaves a delivery in its log
  const webhook = must(
    await post(`${base}/webhooks`, a, { url: `https://${slug}.example.com/hook`, inbox_id: inbox.id, subscriptions: ["webwidget_triggered", "contact_created"] }),
    "webhook",
  ).payload.webhook;
  // inactive, so that it never acts on the events the audit causes (which would change the snapshot)
  const automationRule = must(
    await post(`${base}/automation_rules`, a, {
      name: `${name} rule`,
      event_name: "conversation_created",
      active: false,
      conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"] }],
      actions: [{ action_name: "add_label", action_params: [`${slug}-vip`] }],
    }),
    "automation rule",
  ).payload[0];
  const globalMacro = must(
    await post(`${base}/macros`, a, { name: `${name} macro`, visibility: "global", actions: [{ action_name: "add_label", action_params: [`${slug}-vip`] }] }),
    "global macro",
  ).payload;
  const agentMacro = must(await post(`${base}/macros`, agent.key, { name: "Agent's macro", actions: [{ action_name: "resolve_conversation" }] }), "personal macro").payload;
  const assignmentPolicy = must(await post(`${base}/assignment_policies`, a, { name: `${name} policy`, fair_distribution_limit: 5 }), "assignment policy");
  must(await post(`${base}/assignment_policies/${assignmentPolicy.id}/inboxes`, a, { inbox_id: inbox.id }), "policy's inbox");
  // a one-off campaign of the API inbox, due long after the audit
  const campaign = must(
    await post(`${base}/campaigns`, a, { title: `${name} sale`, message: "Spring sale", inbox_id: inbox.id, audience: [{ type: "Label", id: label.id }], scheduled_at: 4_000_000_000 }),
    "campaign",
  );
  const dashboardApp = must(
    await post(`${base}/dashboard_apps`, a, { title: "CRM", content: [{ type: "frame", url: `https://${slug}.example.com/crm` }] }),
    "dashboard app",
  );

  const contact = must(await post(`${base}/contacts`, a, { name: `${name} Customer`, email: `customer@${slug}.example.com`, custom_attributes: { [`${slug}_tier`]: "gold" } }), "contact").payload.contact;
  const mergee = must(await post(`${base}/contacts`, a, { name: `${name} Duplicate`, email: `duplicate@${slug}.example.com` }), "contact 2").payload.contact;
  must(await post(`${base}/contacts/${contact.id}/labels`, a, { labels: [`${slug}-vip`] }), "contact label");
  const contactInbox = must(await post(`${base}/contacts/${contact.id}/contact_inboxes`, a, { inbox_id: inbox.id, source_id: `${slug}-source` }), "contact inbox");
  const contactNote = must(await post(`${base}/contacts/${contact.id}/notes`, a, { content: `${name} note` }), "contact note");

  // a contact import (of the customer as it is: it changes nothing) and an export, finished before
  // anything is compared (their work runs on the queue)
  const importForm = new FormData();
  importForm.append("import_file", new File([new TextEncoder().encode(`name,email\n${name} Customer,customer@${slug}.example.com\n`)], "contacts.csv"));
  const contactImport = must(await call("POST", `${base}/contacts/import`, { key: a, rawBody: importForm }), "contact import");
  const contactExport = must(await post(`${base}/contacts/export`, a, {}), "contact export");
  for (const path of [`contacts/imports/${contactImport.id}`, `contacts/exports/${contactExport.id}`]) {
    for (let i = 0; (await get(`${base}/${path}`, a)).body.status !== "completed"; i++) {
      if (i > 200) throw new Error(`${path} did not complete`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const conversationIds: number[] = [];
  for (let i = 0; i < conversations; i++) {
    const conversation = must(await post(`${base}/conversations`, a, { inbox_id: inbox.id, contact_id: contact.id }), "conversation");
    conversationIds.push(conversation.id);
  }
  const conversationId = conversationIds.at(-1)!;
  const message = must(await post(`${base}/conversations/${conversationId}/messages`, a, { content: `${name} secret`, message_type: "outgoing" }), "message");
  // the agent mentions the administrator in a private note: a notification of the administrator's own,
  // and the administrator a participant
  must(await put(`${base}/notification_settings`, a, { notification_settings: { selected_push_flags: ["push_conversation_mention"] } }), "notification settings");
  must(await post(`${base}/conversations/${conversationId}/messages`, agent.key, { content: `[@Admin](mention://user/${admin.id}/Admin) ${name} note`, private: true }), "mention");
  const notification = must(await get(`${base}/notifications`, a), "notifications").data.payload[0] as { id: number; primary_actor_id: number };
  must(await post(`${base}/conversations/${conversationId}/labels`, a, { labels: [`${slug}-vip`] }), "conversation label");
  const fileForm = new FormData();
  fileForm.append("content", `${name} file`);
  fileForm.append("attachments[]", new File([new TextEncoder().encode("%PDF-1.7\nsecret")], "secret.pdf"));
  const fileMessage = must(await call("POST", `${base}/conversations/${conversationId}/messages`, { key: a, rawBody: fileForm }), "message with a file");
  // a conversation in the inbox the agent is not a member of, outside the agent's team
  const hidden = must(await post(`${base}/conversations`, a, { inbox_id: otherInbox.id, contact_id: mergee.id }), "hidden conversation");
  // the bot serves that inbox just long enough to be sent the hidden message (left connected, it would
  // make later conversations there pending)
  must(await post(`${base}/inboxes/${otherInbox.id}/set_agent_bot`, a, { agent_bot: bot.id }), "bot connection");
  must(await post(`${base}/conversations/${hidden.id}/messages`, a, { content: `${name} hidden`, message_type: "outgoing" }), "hidden message");

  const delivery = await firstDelivery(`${base}/webhooks/${webhook.id}/deliveries`, a);
  const inboxDelivery = await firstDelivery(`${base}/inboxes/${inbox.id}/deliveries`, a);
  const botDelivery = await firstDelivery(`${base}/agent_bots/${bot.id}/deliveries`, a);
  must(await post(`${base}/inboxes/${otherInbox.id}/set_agent_bot`, a, { agent_bot: null }), "bot disconnection");

  const portalSlug = `${slug}-help`;
  const portal = must(await post(`${base}/portals`, a, { name: `${name} Help`, slug: portalSlug }), "portal");
  const category = must(await post(`${base}/portals/${portalSlug}/categories`, a, { name: "Guides", slug: `${slug}-guides` }), "category").payload;
  const article = must(
    await post(`${base}/portals/${portalSlug}/articles`, a, { title: `${name} published`, slug: `${slug}-published`, content: "Public text", category_id: category.id, status: "published" }),
    "article",
  ).payload;
  const draft = must(
    await post(`${base}/portals/${portalSlug}/articles`, a, { title: `${name} draft`, slug: `${slug}-draft`, content: "Secret draft text", category_id: category.id, status: "draft" }),
    "draft article",
  ).payload;

  // a website inbox and a visitor its /widget page made (no conversation, so that B's display ids stay beyond A's)
  const website = must(await post(`${base}/inboxes`, a, { name: `${name} Site`, channel: { type: "web_widget", website_url: `https://${slug}.example.com` } }), "website inbox");
  const page = await get(`/widget?website_token=${website.website_token}`);
  const widgetToken = JSON.parse(/<script id="widget-globals" type="application\/json">(.*?)<\/script>/s.exec(page.body)![1]).authToken as string;

  return {
    ...world,
    name,
    website,
    widgetToken,
    slug,
    outsider,
    inbox,
    otherInbox,
    emailInbox,
    team,
    bot,
    botKey: bot.access_token as string,
    canned,
    label,
    definition,
    adminFilter,
    agentFilter,
    webhook,
    automationRule,
    globalMacro,
    agentMacro,
    assignmentPolicy,
    campaign,
    contactImport,
    contactExport,
    delivery,
    inboxDelivery,
    botDelivery,
    dashboardApp,
    contact,
    mergee,
    contactInbox,
    contactNote,
    conversationId,
    hiddenConversationId: hidden.id as number,
    message,
    notification,
    fileMessage,
    portal,
    portalSlug,
    category,
    article,
    draft,
  };
}

/** Everything the tenant's administrator (and its agent, for its own custom filter) can read. */
export function snapshotPaths(t: Tenant): Array<[string, string]> {
  const b = t.base;
  const c = `${b}/conversations/${t.conversationId}`;
  const p = `${b}/portals/${t.portalSlug}`;
  return [
    [b, t.admin.key],
    [`${b}/agents`, t.admin.key],
    [`${b}/agent_bots`, t.admin.key],
    [`${b}/inboxes`, t.admin.key],
    [`${b}/inboxes/${t.inbox.id}/agent_bot`, t.admin.key],
    [`${b}/inboxes/${t.emailInbox.id}`, t.admin.key],
    [`${b}/inbox_members/${t.inbox.id}`, t.admin.key],
    [`${b}/inbox_members/${t.otherInbox.id}`, t.admin.key],
    [`${b}/teams`, t.admin.key],
    [`${b}/teams/${t.team.id}/team_members`, t.admin.key],
    [`${b}/canned_responses`, t.admin.key],
    [`${b}/labels`, t.admin.key],
    [`${b}/custom_attribute_definitions?attribute_model=contact_attribute`, t.admin.key],
    [`${b}/custom_filters`, t.admin.key],
    [`${b}/custom_filters`, t.agent.key],
    [`${b}/webhooks`, t.admin.key],
    [`${b}/automation_rules`, t.admin.key],
    [`${b}/macros`, t.admin.key],
    [`${b}/macros`, t.agent.key],
    [`${b}/assignment_policies`, t.admin.key],
    [`${b}/inboxes/${t.inbox.id}/assignment_policy`, t.admin.key],
    [`${b}/dashboard_apps`, t.admin.key],
    [`${b}/campaigns`, t.admin.key],
    [`${b}/contacts/${t.contact.id}`, t.admin.key],
    [`${b}/contacts/${t.mergee.id}`, t.admin.key],
    [`${b}/contacts/${t.contact.id}/labels`, t.admin.key],
    [`${b}/contacts/${t.contact.id}/notes`, t.admin.key],
    // (contactable_inboxes is left out: it suggests a fresh source_id on every read)
    [`${b}/conversations?status=all`, t.admin.key],
    [c, t.admin.key],
    [`${c}/messages`, t.admin.key],
    [`${c}/labels`, t.admin.key],
    [`${c}/attachments`, t.admin.key],
    [`${c}/participants`, t.admin.key],
    [`${b}/notifications?includes[]=read&includes[]=snoozed`, t.admin.key],
    [p, t.admin.key],
    [`${p}/categories`, t.admin.key],
    [`${p}/articles`, t.admin.key],
  ];
}

export async function snapshot(t: Tenant): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [path, key] of snapshotPaths(t)) {
    const res = await get(path, key);
    out[`${path} as ${key === t.admin.key ? "admin" : "agent"}`] = { status: res.status, body: withoutFileSignatures(res.body) };
  }
  return out;
}

/**
 * A file URL's signed expiry moves on at every whole hour (src/domain/attachments/signing.ts), so two reads on either side of an
 * hour's turn differ there while nothing stored did: the snapshot keeps the URL without its query.
 */
function withoutFileSignatures(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body), (key, value) => (key.endsWith("_url") && typeof value === "string" && value.includes("/files/") ? value.split("?")[0] : value));
}

/** One request, for the tables. */
export type Case = { method: string; path: string; body?: unknown };
export const send = (key: string | null, c: Case) => call(c.method, c.path, { key, body: c.body });

/**
 * Every route below /api/v1/accounts/:account_id (src/routes/account/**) and the v2 reports, addressed at
 * `t`'s own objects with a valid body. `admin`: administrators only. `bot`: on the agent-bot allow-list.
 */
export type Route = Case & { name: string; admin?: boolean; bot?: boolean };

/**
 * The website widget's routes that act for a visitor (/api/v1/widget/*, with the tenant's website
 * token), each with a body it accepts. inbox_members, campaigns and config serve the website without a
 * visitor (config makes one), so they are not about whose visitor a token is.
 */
export function widgetCatalogue(t: Tenant): Route[] {
  const w = (method: string, path: string, body?: unknown): Route => ({ name: `${method} /api/v1/widget${path}`, method, path: `/api/v1/widget${path}?website_token=${t.website.website_token}`, body });
  return [
    w("GET", "/contact"),
    w("PATCH", "/contact", { name: "Taken over" }),
    w("PATCH", "/contact/set_user", { identifier: "intruder", name: "Intruder" }),
    w("POST", "/contact/destroy_custom_attributes", { custom_attributes: ["x"] }),
    w("GET", "/conversations"),
    w("POST", "/conversations", { message: { content: "intruding" } }),
    w("POST", "/conversations/update_last_seen", {}),
    w("POST", "/conversations/toggle_typing", { typing_status: "on" }),
    w("POST", "/conversations/transcript", {}),
    w("GET", "/conversations/toggle_status"),
    w("POST", "/conversations/set_custom_attributes", { custom_attributes: { x: 1 } }),
    w("POST", "/conversations/destroy_custom_attributes", { custom_attribute: ["x"] }),
    w("GET", "/messages"),
    w("POST", "/messages", { message: { content: "intruding" } }),
    w("PATCH", `/messages/${t.message.id}`, { message: { submitted_values: [{ value: "x" }] } }),
    w("POST", "/events", { name: "webwidget.triggered" }),
    w("POST", "/labels", { label: t.label.title }),
    w("DELETE", `/labels/${t.label.title}`),
    w("POST", "/direct_uploads", {}),
  ];
}

export function catalogue(t: Tenant): Route[] {
  const b = t.base;
  const c = `${b}/conversations/${t.conversationId}`;
  const p = `${b}/portals/${t.portalSlug}`;
  const r = (method: string, path: string, body?: unknown, flags: { admin?: boolean; bot?: boolean } = {}): Route => ({
    name: `${method} ${path.slice(b.length) || "/"}`,
    method,
    path,
    body,
    ...flags,
  });
  const admin = { admin: true };
  const bot = { bot: true };
  return [
    // account
    r("GET", b),
    r("PATCH", b, { name: "Renamed" }, admin),
    r("PUT", b, { name: "Renamed" }, admin),
    // agents
    r("GET", `${b}/agents`),
    r("POST", `${b}/agents`, { name: "New", email: `new.${t.slug}@example.com`, role: "agent" }, admin),
    r("PATCH", `${b}/agents/${t.agent.id}`, { name: "Renamed" }, admin),
    r("PUT", `${b}/agents/${t.agent.id}`, { name: "Renamed" }, admin),
    r("DELETE", `${b}/agents/${t.agent.id}`, undefined, admin),
    r("POST", `${b}/agents/bulk_create`, { emails: [`bulk.${t.slug}@example.com`] }, admin),
    // agent bots
    r("GET", `${b}/agent_bots`),
    r("POST", `${b}/agent_bots`, { name: "Another bot" }, admin),
    r("POST", `${b}/agent_bots/${t.bot.id}/reset_access_token`, undefined, admin),
    r("GET", `${b}/agent_bots/${t.bot.id}`),
    r("PATCH", `${b}/agent_bots/${t.bot.id}`, { name: "Renamed" }, admin),
    r("PUT", `${b}/agent_bots/${t.bot.id}`, { name: "Renamed" }, admin),
    r("DELETE", `${b}/agent_bots/${t.bot.id}`, undefined, admin),
    r("GET", `${b}/agent_bots/${t.bot.id}/deliveries`, undefined, admin),
    r("GET", `${b}/agent_bots/${t.bot.id}/deliveries/${t.botDelivery.id}`, undefined, admin),
    r("POST", `${b}/agent_bots/${t.bot.id}/deliveries/${t.botDelivery.id}/redeliver`, undefined, admin),
    // inboxes
    r("GET", `${b}/inboxes`),
    r("POST", `${b}/inboxes`, { name: "Another", channel: { type: "api" } }, admin),
    r("GET", `${b}/inboxes/${t.inbox.id}/assignable_agents`),
    r("GET", `${b}/assignable_agents?inbox_ids[]=${t.inbox.id}`),
    r("GET", `${b}/inboxes/${t.inbox.id}/agent_bot`),
    r("POST", `${b}/inboxes/${t.inbox.id}/set_agent_bot`, { agent_bot: t.bot.id }, admin),
    r("GET", `${b}/inboxes/${t.inbox.id}`),
    r("PATCH", `${b}/inboxes/${t.inbox.id}`, { name: "Renamed" }, admin),
    r("PUT", `${b}/inboxes/${t.inbox.id}`, { name: "Renamed" }, admin),
    r("DELETE", `${b}/inboxes/${t.inbox.id}`, undefined, admin),
    r("GET", `${b}/inboxes/${t.inbox.id}/deliveries`, undefined, admin),
    r("GET", `${b}/inboxes/${t.inbox.id}/deliveries/${t.inboxDelivery.id}`, undefined, admin),
    r("POST", `${b}/inboxes/${t.inbox.id}/deliveries/${t.inboxDelivery.id}/redeliver`, undefined, admin),
    // inbox members
    r("GET", `${b}/inbox_members/${t.inbox.id}`),
    r("POST", `${b}/inbox_members`, { inbox_id: t.inbox.id, user_ids: [t.outsider.id] }, admin),
    r("PATCH", `${b}/inbox_members`, { inbox_id: t.inbox.id, user_ids: [t.outsider.id] }, admin),
    r("DELETE", `${b}/inbox_members`, { inbox_id: t.inbox.id, user_ids: [t.agent.id] }, admin),
    // teams
    r("GET", `${b}/teams`),
    r("POST", `${b}/teams`, { name: "Another team" }, admin),
    r("GET", `${b}/teams/${t.team.id}/team_members`),
    r("POST", `${b}/teams/${t.team.id}/team_members`, { user_ids: [t.outsider.id] }, admin),
    r("PATCH", `${b}/teams/${t.team.id}/team_members`, { user_ids: [t.outsider.id] }, admin),
    r("DELETE", `${b}/teams/${t.team.id}/team_members`, { user_ids: [t.agent.id] }, admin),
    r("GET", `${b}/teams/${t.team.id}`),
    r("PATCH", `${b}/teams/${t.team.id}`, { name: "Renamed" }, admin),
    r("PUT", `${b}/teams/${t.team.id}`, { name: "Renamed" }, admin),
    r("DELETE", `${b}/teams/${t.team.id}`, undefined, admin),
    // canned responses (any member)
    r("GET", `${b}/canned_responses`),
    r("POST", `${b}/canned_responses`, { short_code: "another", content: "x" }),
    r("PATCH", `${b}/canned_responses/${t.canned.id}`, { content: "changed" }),
    r("PUT", `${b}/canned_responses/${t.canned.id}`, { content: "changed" }),
    r("DELETE", `${b}/canned_responses/${t.canned.id}`),
    // labels
    r("GET", `${b}/labels`),
    r("GET", `${b}/labels/${t.label.id}`, undefined, admin),
    r("POST", `${b}/labels`, { title: "another" }, admin),
    r("PATCH", `${b}/labels/${t.label.id}`, { description: "changed" }, admin),
    r("PUT", `${b}/labels/${t.label.id}`, { description: "changed" }, admin),
    r("DELETE", `${b}/labels/${t.label.id}`, undefined, admin),
    // custom attribute definitions (any member)
    r("GET", `${b}/custom_attribute_definitions`),
    r("GET", `${b}/custom_attribute_definitions/${t.definition.id}`),
    r("POST", `${b}/custom_attribute_definitions`, { attribute_display_name: "Other", attribute_key: "other_key" }),
    r("PATCH", `${b}/custom_attribute_definitions/${t.definition.id}`, { attribute_description: "changed" }),
    r("PUT", `${b}/custom_attribute_definitions/${t.definition.id}`, { attribute_description: "changed" }),
    r("DELETE", `${b}/custom_attribute_definitions/${t.definition.id}`),
    // custom filters (each user's own)
    r("GET", `${b}/custom_filters`),
    r("GET", `${b}/custom_filters/${t.adminFilter.id}`),
    r("POST", `${b}/custom_filters`, { name: "Another", query: { payload: [] } }),
    r("PATCH", `${b}/custom_filters/${t.adminFilter.id}`, { name: "Changed" }),
    r("PUT", `${b}/custom_filters/${t.adminFilter.id}`, { name: "Changed" }),
    r("DELETE", `${b}/custom_filters/${t.adminFilter.id}`),
    // webhooks (administrators)
    r("GET", `${b}/webhooks`, undefined, admin),
    r("POST", `${b}/webhooks`, { url: "https://another.example.com/hook" }, admin),
    r("PATCH", `${b}/webhooks/${t.webhook.id}`, { name: "Changed" }, admin),
    r("PUT", `${b}/webhooks/${t.webhook.id}`, { name: "Changed" }, admin),
    r("DELETE", `${b}/webhooks/${t.webhook.id}`, undefined, admin),
    // automation rules (administrators)
    r("GET", `${b}/automation_rules`, undefined, admin),
    r(
      "POST",
      `${b}/automation_rules`,
      { name: "Another rule", event_name: "message_created", active: false, conditions: [{ attribute_key: "content", filter_operator: "contains", values: ["x"] }], actions: [{ action_name: "resolve_conversation" }] },
      admin,
    ),
    r("GET", `${b}/automation_rules/${t.automationRule.id}`, undefined, admin),
    r("PATCH", `${b}/automation_rules/${t.automationRule.id}`, { name: "Changed" }, admin),
    r("PUT", `${b}/automation_rules/${t.automationRule.id}`, { name: "Changed" }, admin),
    r("POST", `${b}/automation_rules/${t.automationRule.id}/clone`, undefined, admin),
    r("DELETE", `${b}/automation_rules/${t.automationRule.id}`, undefined, admin),
    r("POST", `${b}/automation_rules/attach_file`, undefined, admin),
    // assignment policies and their inboxes (administrators)
    r("GET", `${b}/assignment_policies`, undefined, admin),
    r("POST", `${b}/assignment_policies`, { name: "Another policy" }, admin),
    r("GET", `${b}/assignment_policies/${t.assignmentPolicy.id}`, undefined, admin),
    r("PATCH", `${b}/assignment_policies/${t.assignmentPolicy.id}`, { enabled: false }, admin),
    r("PUT", `${b}/assignment_policies/${t.assignmentPolicy.id}`, { enabled: false }, admin),
    r("GET", `${b}/assignment_policies/${t.assignmentPolicy.id}/inboxes`, undefined, admin),
    r("POST", `${b}/assignment_policies/${t.assignmentPolicy.id}/inboxes`, { inbox_id: t.otherInbox.id }, admin),
    r("DELETE", `${b}/assignment_policies/${t.assignmentPolicy.id}/inboxes/${t.inbox.id}`, undefined, admin),
    r("GET", `${b}/inboxes/${t.inbox.id}/assignment_policy`, undefined, admin),
    r("POST", `${b}/inboxes/${t.otherInbox.id}/assignment_policy`, { assignment_policy_id: t.assignmentPolicy.id }, admin),
    r("DELETE", `${b}/inboxes/${t.inbox.id}/assignment_policy`, undefined, admin),
    r("DELETE", `${b}/assignment_policies/${t.assignmentPolicy.id}`, undefined, admin),
    // campaigns (administrators)
    r("GET", `${b}/campaigns`, undefined, admin),
    r("POST", `${b}/campaigns`, { title: "Another", message: "x", inbox_id: t.inbox.id, audience: [{ type: "Label", id: t.label.id }], scheduled_at: 4_000_000_000 }, admin),
    r("GET", `${b}/campaigns/${t.campaign.id}`, undefined, admin),
    r("GET", `${b}/inboxes/${t.inbox.id}/campaigns`, undefined, admin),
    r("PATCH", `${b}/campaigns/${t.campaign.id}`, { title: "Changed" }, admin),
    r("PUT", `${b}/campaigns/${t.campaign.id}`, { title: "Changed" }, admin),
    r("DELETE", `${b}/campaigns/${t.campaign.id}`, undefined, admin),
    // macros (any member's routes; who may change which macro is the domain's, test/account/macros.test.ts)
    r("GET", `${b}/macros`),
    r("POST", `${b}/macros`, { name: "Another macro", actions: [{ action_name: "resolve_conversation" }] }),
    r("POST", `${b}/macros/attach_file`),
    r("GET", `${b}/macros/${t.globalMacro.id}`),
    r("PATCH", `${b}/macros/${t.globalMacro.id}`, { name: "Changed" }),
    r("PUT", `${b}/macros/${t.globalMacro.id}`, { name: "Changed" }),
    r("POST", `${b}/macros/${t.globalMacro.id}/execute`, { conversation_ids: [t.conversationId] }),
    r("DELETE", `${b}/macros/${t.globalMacro.id}`),
    r("POST", `${b}/webhooks/${t.webhook.id}/reset_secret`, undefined, admin),
    r("GET", `${b}/webhooks/${t.webhook.id}/deliveries`, undefined, admin),
    r("GET", `${b}/webhooks/${t.webhook.id}/deliveries/${t.delivery.id}`, undefined, admin),
    r("POST", `${b}/webhooks/${t.webhook.id}/deliveries/${t.delivery.id}/redeliver`, undefined, admin),
    // integrations
    r("GET", `${b}/integrations/apps`),
    r("GET", `${b}/integrations/apps/webhook`),
    r("POST", `${b}/integrations/hooks`, { app_id: "webhook" }, admin),
    r("PATCH", `${b}/integrations/hooks/1`, { status: "enabled" }, admin),
    r("PUT", `${b}/integrations/hooks/1`, { status: "enabled" }, admin),
    r("DELETE", `${b}/integrations/hooks/1`, undefined, admin),
    // dashboard apps
    r("GET", `${b}/dashboard_apps`),
    r("GET", `${b}/dashboard_apps/${t.dashboardApp.id}`),
    r("POST", `${b}/dashboard_apps`, { title: "Another", content: [{ type: "frame", url: "https://x.example.com" }] }, admin),
    r("PATCH", `${b}/dashboard_apps/${t.dashboardApp.id}`, { title: "Changed" }, admin),
    r("PUT", `${b}/dashboard_apps/${t.dashboardApp.id}`, { title: "Changed" }, admin),
    r("DELETE", `${b}/dashboard_apps/${t.dashboardApp.id}`, undefined, admin),
    // conversations
    r("GET", `${b}/conversations?status=all`),
    r("GET", `${b}/conversations/meta?status=all`),
    r("POST", `${b}/conversations/filter`, { payload: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }] }),
    r("POST", `${b}/conversations`, { inbox_id: t.inbox.id, contact_id: t.contact.id }, bot),
    r("GET", c),
    r("DELETE", c, undefined, admin),
    r("GET", `${c}/attachments`),
    r("PATCH", c, { priority: "high" }, bot),
    r("PUT", c, { priority: "high" }, bot),
    r("POST", `${c}/toggle_status`, { status: "resolved" }, bot),
    r("POST", `${c}/toggle_priority`, { priority: "urgent" }, bot),
    r("POST", `${c}/assignments`, { assignee_id: t.admin.id }, bot),
    r("GET", `${c}/labels`),
    r("POST", `${c}/labels`, { labels: [] }),
    r("POST", `${c}/custom_attributes`, { custom_attributes: { hacked: true } }, bot),
    r("POST", `${c}/mute`),
    r("POST", `${c}/unmute`),
    r("POST", `${c}/unread`),
    r("POST", `${c}/transcript`, { email: `transcript@${t.slug}.example.com` }),
    r("POST", `${c}/update_last_seen`),
    r("POST", `${c}/toggle_typing_status`, { typing_status: "off" }),
    r("POST", `${c}/live_ticket`),
    r("GET", `${c}/participants`),
    r("POST", `${c}/participants`, { user_ids: [t.admin.id] }),
    r("PATCH", `${c}/participants`, { user_ids: [t.admin.id] }),
    r("PUT", `${c}/participants`, { user_ids: [t.admin.id] }),
    r("DELETE", `${c}/participants`, { user_ids: [t.admin.id] }),
    // notifications: the caller's own
    r("GET", `${b}/notifications`),
    r("GET", `${b}/notifications/unread_count`),
    r("POST", `${b}/notifications/read_all`, {}),
    r("POST", `${b}/notifications/destroy_all`, { type: "read" }),
    r("PATCH", `${b}/notifications/${t.notification.id}`, {}),
    r("POST", `${b}/notifications/${t.notification.id}/unread`),
    r("POST", `${b}/notifications/${t.notification.id}/snooze`, { snoozed_until: 2_000_000_000 }),
    r("DELETE", `${b}/notifications/${t.notification.id}`),
    r("GET", `${b}/notification_settings`),
    r("PUT", `${b}/notification_settings`, { notification_settings: { selected_email_flags: [] } }),
    r("PATCH", `${b}/notification_settings`, { notification_settings: { selected_email_flags: [] } }),
    // messages
    r("GET", `${c}/messages`),
    r("POST", `${c}/messages`, { content: "injected" }, bot),
    r("PATCH", `${c}/messages/${t.message.id}`, { status: "failed" }),
    r("PUT", `${c}/messages/${t.message.id}`, { status: "failed" }),
    r("DELETE", `${c}/messages/${t.message.id}`),
    r("POST", `${c}/messages/${t.message.id}/retry`),
    r("POST", `${c}/messages/${t.message.id}/translate`, { target_language: "en" }),
    // contacts (any member; DELETE, merge, import and export for administrators)
    r("GET", `${b}/contacts`),
    r("GET", `${b}/contacts/search?q=customer`),
    r("GET", `${b}/contacts/active`),
    r("POST", `${b}/contacts/filter`, { payload: [{ attribute_key: "name", filter_operator: "contains", values: ["Customer"], query_operator: null }] }),
    r("POST", `${b}/contacts/import`, undefined, admin),
    r("GET", `${b}/contacts/imports`, undefined, admin),
    r("GET", `${b}/contacts/imports/${t.contactImport.id}`, undefined, admin),
    r("POST", `${b}/contacts/export`, {}, admin),
    r("GET", `${b}/contacts/exports`, undefined, admin),
    r("GET", `${b}/contacts/exports/${t.contactExport.id}`, undefined, admin),
    r("POST", `${b}/contacts`, { name: "Another", email: `another.${t.slug}@example.com` }),
    r("GET", `${b}/contacts/${t.contact.id}`),
    r("PATCH", `${b}/contacts/${t.contact.id}`, { name: "Changed" }),
    r("PUT", `${b}/contacts/${t.contact.id}`, { name: "Changed" }),
    r("DELETE", `${b}/contacts/${t.contact.id}`, undefined, admin),
    r("GET", `${b}/contacts/${t.contact.id}/contactable_inboxes`),
    r("POST", `${b}/contacts/${t.contact.id}/contact_inboxes`, { inbox_id: t.otherInbox.id }),
    r("POST", `${b}/contacts/${t.contact.id}/destroy_custom_attributes`, { custom_attributes: [`${t.slug}_tier`] }),
    r("GET", `${b}/contacts/${t.contact.id}/conversations`),
    r("GET", `${b}/contacts/${t.contact.id}/labels`),
    r("POST", `${b}/contacts/${t.contact.id}/labels`, { labels: [] }),
    r("GET", `${b}/contacts/${t.contact.id}/notes`),
    r("POST", `${b}/contacts/${t.contact.id}/notes`, { content: "Another note" }),
    r("GET", `${b}/contacts/${t.contact.id}/notes/${t.contactNote.id}`),
    r("PATCH", `${b}/contacts/${t.contact.id}/notes/${t.contactNote.id}`, { content: "Changed" }),
    r("PUT", `${b}/contacts/${t.contact.id}/notes/${t.contactNote.id}`, { content: "Changed" }),
    r("DELETE", `${b}/contacts/${t.contact.id}/notes/${t.contactNote.id}`),
    r("POST", `${b}/actions/contact_merge`, { base_contact_id: t.contact.id, mergee_contact_id: t.mergee.id }, admin),
    // bulk actions (any member; deleting contacts is an administrator's)
    r("POST", `${b}/bulk_actions`, { type: "Conversation", ids: [t.conversationId], fields: { status: "resolved" }, labels: { add: ["bulk"] } }),
    r("POST", `${b}/bulk_actions`, { type: "Contact", ids: [t.contact.id], action_name: "assign_labels", labels: { add: ["bulk"] } }),
    r("POST", `${b}/bulk_actions`, { type: "Contact", ids: [t.mergee.id], action_name: "delete" }, admin),
    // help center
    r("GET", `${b}/portals`),
    r("POST", `${b}/portals`, { name: "Another", slug: `${t.slug}-another` }, admin),
    r("GET", p),
    r("PATCH", p, { name: "Changed" }, admin),
    r("PUT", p, { name: "Changed" }, admin),
    r("DELETE", p, undefined, admin),
    r("GET", `${p}/categories`),
    r("POST", `${p}/categories`, { name: "Another", slug: "another" }, admin),
    r("GET", `${p}/categories/${t.category.id}`, undefined, admin),
    r("PATCH", `${p}/categories/${t.category.id}`, { name: "Changed" }, admin),
    r("PUT", `${p}/categories/${t.category.id}`, { name: "Changed" }, admin),
    r("POST", `${p}/categories/reorder`, { positions_hash: { [t.category.id]: 3 } }, admin),
    r("DELETE", `${p}/categories/${t.category.id}`, undefined, admin),
    r("GET", `${p}/articles`),
    r("POST", `${p}/articles`, { title: "Another", content: "x" }, admin),
    r("POST", `${p}/articles/reorder`, { positions_hash: { [t.article.id]: 5 } }, admin),
    r("GET", `${p}/articles/${t.draft.id}`, undefined, admin),
    r("PATCH", `${p}/articles/${t.draft.id}`, { status: "published" }, admin),
    r("PUT", `${p}/articles/${t.draft.id}`, { status: "published" }, admin),
    r("DELETE", `${p}/articles/${t.draft.id}`, undefined, admin),
    // reports (v2)
    r("GET", `/api/v2/accounts/${t.accountId}/reports/summary`, undefined, admin),
    r("GET", `/api/v2/accounts/${t.accountId}/reports?metric=conversations_count&type=inbox&id=${t.inbox.id}`, undefined, admin),
    r("GET", `/api/v2/accounts/${t.accountId}/reports/conversations?type=agent`, undefined, admin),
    ...["agent", "team", "inbox", "label"].map((d) => r("GET", `/api/v2/accounts/${t.accountId}/summary_reports/${d}`, undefined, admin)),
    ...["agents", "inboxes", "labels", "teams", "conversations_summary", "conversation_traffic"].map((csv) =>
      r("GET", `/api/v2/accounts/${t.accountId}/reports/${csv}`, undefined, admin),
    ),
    r("GET", `/api/v2/accounts/${t.accountId}/summary_reports/channel`, undefined, admin),
    r("GET", `/api/v2/accounts/${t.accountId}/reports/bot_summary?type=inbox&id=${t.inbox.id}`, undefined, admin),
    r("GET", `/api/v2/accounts/${t.accountId}/reports/bot_metrics`, undefined, admin),
    r("GET", `/api/v2/accounts/${t.accountId}/reports/inbox_label_matrix?inbox_ids[]=${t.inbox.id}`, undefined, admin),
    r("GET", `/api/v2/accounts/${t.accountId}/reports/first_response_time_distribution`, undefined, admin),
    r("GET", `/api/v2/accounts/${t.accountId}/reports/outgoing_messages_count?group_by=inbox`, undefined, admin),
    // CSAT
    // global search (any member; conversations and messages by the caller's reach)
    r("GET", `${b}/search?q=customer`),
    r("GET", `${b}/search/contacts?q=customer`),
    r("GET", `${b}/search/conversations?q=customer`),
    r("GET", `${b}/search/messages?q=customer`),
    r("GET", `${b}/search/articles?q=customer`),
    r("GET", `${b}/csat_survey_responses`, undefined, admin),
    r("GET", `${b}/csat_survey_responses/metrics`, undefined, admin),
    r("GET", `${b}/csat_survey_responses/download`, undefined, admin),
    // Captain is not offered: every method answers 404 not_offered, after authentication
    r("GET", `${b}/captain/assistants`),
    r("POST", `${b}/captain/tasks/rewrite`, { content: "hi" }),
    r("PUT", `${b}/captain/assistants/1`, { name: "x" }),
    r("PATCH", `${b}/captain/assistants/1`, { name: "x" }),
    r("DELETE", `${b}/captain/assistants/1`),
  ];
}

/**
 * Every MCP tool (src/mcp/tools.ts) addressed at `t`'s own objects with valid arguments: the tools are
 * routes by another transport, so the audit walks them too.
 */
export function mcpCatalogue(t: Tenant): Array<{ tool: string; args: Record<string, unknown> }> {
  const conversation_id = t.conversationId;
  return [
    { tool: "search", args: { q: t.name } },
    { tool: "list_conversations", args: { status: "all" } },
    { tool: "read_conversation", args: { conversation_id } },
    { tool: "reply", args: { conversation_id, content: "injected" } },
    { tool: "add_private_note", args: { conversation_id, content: "injected" } },
    { tool: "assign", args: { conversation_id, assignee_id: t.admin.id } },
    { tool: "set_labels", args: { conversation_id, labels: [] } },
    { tool: "change_status", args: { conversation_id, status: "resolved" } },
    { tool: "set_priority", args: { conversation_id, priority: "urgent" } },
    { tool: "read_contact", args: { contact_id: t.contact.id } },
    { tool: "update_contact", args: { contact_id: t.contact.id, name: "Changed" } },
    { tool: "search_help_center", args: { portal_slug: t.portalSlug, query: "Public" } },
    { tool: "read_article", args: { portal_slug: t.portalSlug, article_slug: t.article.slug } },
    { tool: "list_canned_responses", args: {} },
    { tool: "handoff", args: { conversation_id } },
  ];
}
