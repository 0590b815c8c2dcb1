/** Real answers match the schemas the API document gives for them (a sample of operations, and errors). */
import { Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { directory } from "../support/databases";
import { call, get, patch, post } from "../support/http";
import { createUser, createWorld } from "../support/world";
import { addInboxMember, createInbox } from "../support/fixtures";
import { publicInbox } from "../public/widget-support";
import { receiver } from "../support/receivers";
import { file, postForm, samples } from "../support/files";

const world = await createWorld("Contract Co");
const inboxId = await createInbox(world.accountId);
await addInboxMember(world.accountId, inboxId, world.agent.id);
const document = (await get("/openapi.json")).body;

/** `value` with every local $ref replaced by what it points at (the document's schemas have no cycles). */
function inline(value: any): any {
  if (Array.isArray(value)) return value.map(inline);
  if (value === null || typeof value !== "object") return value;
  if (typeof value.$ref === "string") {
    const target = value.$ref.slice(2).split("/").reduce((node: any, key: string) => node[key], document);
    return inline(target);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inline(v)]));
}

function documentedSchema(method: string, path: string, status: number) {
  const operation = document.paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${path} is not documented`);
  const response = inline(operation.responses[String(status)]);
  if (!response) throw new Error(`${method} ${path} documents no ${status}`);
  return response.content["application/json"].schema;
}

/** Checks one real answer against the document; answers the errors, none when it conforms. */
async function conforms(method: string, path: string, template: string, options: { key?: string | null; body?: unknown } = {}) {
  return conformsReply(method, template, await call(method, path, options));
}

/** Checks an answer already received (a form upload) against the document. */
function conformsReply(method: string, template: string, res: { status: number; body: any }) {
  const schema = documentedSchema(method, template, res.status);
  const result = new Validator(schema, "2020-12", false).validate(res.body);
  return { status: res.status, body: res.body, errors: result.errors.map((e) => `${e.instanceLocation} ${e.error}`) };
}

const A = "/api/v1/accounts/{account_id}";

describe("answers match their documented schemas", () => {
  it("contacts: create, show, list, search", async () => {
    const created = await conforms("POST", `${world.base}/contacts`, `${A}/contacts`, { key: world.admin.key, body: { name: "Doc Contact", email: "doc@example.com", inbox_id: inboxId } });
    expect(created).toMatchObject({ status: 200, errors: [] });
    const id = created.body.payload.contact.id;
    expect(await conforms("GET", `${world.base}/contacts/${id}`, `${A}/contacts/{id}`, { key: world.agent.key })).toMatchObject({ status: 200, errors: [] });
    expect(await conforms("GET", `${world.base}/contacts`, `${A}/contacts`, { key: world.agent.key })).toMatchObject({ status: 200, errors: [] });
    expect(await conforms("GET", `${world.base}/contacts/search?q=doc`, `${A}/contacts/search`, { key: world.agent.key })).toMatchObject({ status: 200, errors: [] });
  });

  it("contact notes", async () => {
    const ok = { status: 200, errors: [] };
    const contact = (await post(`${world.base}/contacts`, world.admin.key, { name: "Noted" })).body.payload.contact.id;
    const N = `${A}/contacts/{contact_id}/notes`;
    const note = await conforms("POST", `${world.base}/contacts/${contact}/notes`, N, { key: world.agent.key, body: { content: "Documented note" } });
    expect(note).toMatchObject(ok);
    expect(await conforms("GET", `${world.base}/contacts/${contact}/notes`, N, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("GET", `${world.base}/contacts/${contact}/notes/${note.body.id}`, `${N}/{id}`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("PATCH", `${world.base}/contacts/${contact}/notes/${note.body.id}`, `${N}/{id}`, { key: world.agent.key, body: { content: "Changed" } })).toMatchObject(ok);
    expect(await conforms("DELETE", `${world.base}/contacts/${contact}/notes/${note.body.id}`, `${N}/{id}`, { key: world.agent.key })).toMatchObject(ok);
  });

  it("conversations and messages: create, show, list", async () => {
    const contact = (await post(`${world.base}/contacts`, world.admin.key, { name: "Talker" })).body.payload.contact.id;
    const conversation = await conforms("POST", `${world.base}/conversations`, `${A}/conversations`, { key: world.agent.key, body: { inbox_id: inboxId, contact_id: contact } });
    expect(conversation).toMatchObject({ status: 200, errors: [] });
    const id = conversation.body.id;
    const path = `${world.base}/conversations/${id}/messages`;
    const template = `${A}/conversations/{conversation_id}/messages`;
    expect(await conforms("POST", path, template, { key: world.agent.key, body: { content: "Documented hello" } })).toMatchObject({ status: 200, errors: [] });
    expect(await conforms("GET", path, template, { key: world.agent.key })).toMatchObject({ status: 200, errors: [] });
    expect(await conforms("GET", `${world.base}/conversations/${id}`, `${A}/conversations/{conversation_id}`, { key: world.agent.key })).toMatchObject({ status: 200, errors: [] });
  });

  it("global search: all four kinds and each sub-route, with a hit of each kind", async () => {
    const ok = { status: 200, errors: [] };
    const contact = (await post(`${world.base}/contacts`, world.admin.key, { name: "Quokka Finder", email: "quokka@example.com" })).body.payload.contact.id;
    const conversation = (await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inboxId, contact_id: contact })).body.id;
    await post(`${world.base}/conversations/${conversation}/messages`, world.admin.key, { content: "A quokka question" });
    // assigned to the administrator by themselves: the agent gets no notification (a later test counts them)
    await post(`${world.base}/conversations/${conversation}/assignments`, world.admin.key, { assignee_id: world.admin.id });
    const slug = `quokka-${crypto.randomUUID().slice(0, 8)}`;
    await post(`${world.base}/portals`, world.admin.key, { name: "Quokka docs", slug });
    await post(`${world.base}/portals/${slug}/articles`, world.admin.key, { title: "Quokka care", content: "Feed it.", status: 1 });
    const all = await conforms("GET", `${world.base}/search?q=quokka`, `${A}/search`, { key: world.agent.key });
    expect(all).toMatchObject(ok);
    expect([all.body.payload.contacts.length, all.body.payload.conversations.length, all.body.payload.messages.length, all.body.payload.articles.length]).toEqual([1, 1, 1, 1]);
    for (const kind of ["contacts", "conversations", "messages", "articles"]) {
      expect(await conforms("GET", `${world.base}/search/${kind}?q=quokka`, `${A}/search/${kind}`, { key: world.agent.key })).toMatchObject(ok);
    }
    expect(await conforms("GET", `${world.base}/search?q=qu`, `${A}/search`, { key: world.agent.key })).toMatchObject({ status: 422, errors: [] });
  });

  it("platform accounts: create, show, list", async () => {
    const created = await conforms("POST", "/platform/api/v1/accounts", "/platform/api/v1/accounts", { key: world.platformKey, body: { name: "Doc Ltd" } });
    expect(created).toMatchObject({ status: 200, errors: [] });
    expect(await conforms("GET", `/platform/api/v1/accounts/${created.body.id}`, "/platform/api/v1/accounts/{id}", { key: world.platformKey })).toMatchObject({ status: 200, errors: [] });
    expect(await conforms("GET", "/platform/api/v1/accounts", "/platform/api/v1/accounts", { key: world.platformKey })).toMatchObject({ status: 200, errors: [] });
  });

  it("the service probe and the public API", async () => {
    expect(await conforms("GET", "/api", "/api")).toMatchObject({ status: 200, errors: [] });
    const inbox = await publicInbox(world.accountId);
    const visitor = await conforms("POST", `${inbox.base}/contacts`, "/public/api/v1/inboxes/{inbox_identifier}/contacts", { body: { name: "Public doc" } });
    expect(visitor).toMatchObject({ status: 200, errors: [] });
  });

  it("agents: list, create, update, remove", async () => {
    const ok = { status: 200, errors: [] };
    expect(await conforms("GET", `${world.base}/agents`, `${A}/agents`, { key: world.agent.key })).toMatchObject(ok);
    const created = await conforms("POST", `${world.base}/agents`, `${A}/agents`, { key: world.admin.key, body: { email: "documented.agent@example.com", name: "Doc Agent" } });
    expect(created).toMatchObject(ok);
    const id = created.body.id;
    expect(await conforms("PATCH", `${world.base}/agents/${id}`, `${A}/agents/{id}`, { key: world.admin.key, body: { role: "administrator" } })).toMatchObject(ok);
    expect(await conforms("DELETE", `${world.base}/agents/${id}`, `${A}/agents/{id}`, { key: world.admin.key })).toMatchObject(ok);
  });

  it("inboxes (both channels, as administrator and agent) and inbox members", async () => {
    const ok = { status: 200, errors: [] };
    const website = await conforms("POST", `${world.base}/inboxes`, `${A}/inboxes`, { key: world.admin.key, body: { name: "Doc site", channel: { type: "web_widget", website_url: "https://doc.example" } } });
    expect(website).toMatchObject(ok);
    expect(website.body.web_widget_script).toContain("websiteToken");
    const api = await conforms("POST", `${world.base}/inboxes`, `${A}/inboxes`, { key: world.admin.key, body: { name: "Doc API", channel: { type: "api", webhook_url: "https://hooks.example/doc" } } });
    expect(api).toMatchObject(ok);
    for (const key of [world.admin.key, world.agent.key]) expect(await conforms("GET", `${world.base}/inboxes`, `${A}/inboxes`, { key })).toMatchObject(ok);
    expect(await conforms("GET", `${world.base}/inboxes/${inboxId}`, `${A}/inboxes/{id}`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("PATCH", `${world.base}/inboxes/${website.body.id}`, `${A}/inboxes/{id}`, { key: world.admin.key, body: { greeting_enabled: true, channel: { reply_time: "in_a_day" } } })).toMatchObject(ok);
    expect(await conforms("GET", `${world.base}/inboxes/${inboxId}/assignable_agents`, `${A}/inboxes/{id}/assignable_agents`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("GET", `${world.base}/inboxes/${inboxId}/agent_bot`, `${A}/inboxes/{id}/agent_bot`, { key: world.agent.key })).toMatchObject(ok);
    const members = `${world.base}/inbox_members`;
    expect(await conforms("POST", members, `${A}/inbox_members`, { key: world.admin.key, body: { inbox_id: api.body.id, user_ids: [world.agent.id] } })).toMatchObject(ok);
    expect(await conforms("GET", `${members}/${api.body.id}`, `${A}/inbox_members/{inbox_id}`, { key: world.admin.key })).toMatchObject(ok);
    expect(await conforms("DELETE", members, `${A}/inbox_members`, { key: world.admin.key, body: { inbox_id: api.body.id, user_ids: [world.agent.id] } })).toMatchObject(ok);
    expect(await conforms("DELETE", `${world.base}/inboxes/${api.body.id}`, `${A}/inboxes/{id}`, { key: world.admin.key })).toMatchObject(ok);
  });

  it("teams and team members", async () => {
    const ok = { status: 200, errors: [] };
    const created = await conforms("POST", `${world.base}/teams`, `${A}/teams`, { key: world.admin.key, body: { name: "Doc team", description: null } });
    expect(created).toMatchObject(ok);
    const id = created.body.id;
    const members = `${world.base}/teams/${id}/team_members`;
    const template = `${A}/teams/{id}/team_members`;
    expect(await conforms("POST", members, template, { key: world.admin.key, body: { user_ids: [world.agent.id] } })).toMatchObject(ok);
    expect(await conforms("PATCH", members, template, { key: world.admin.key, body: { user_ids: [world.agent.id, world.admin.id] } })).toMatchObject(ok);
    expect(await conforms("GET", members, template, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("DELETE", members, template, { key: world.admin.key, body: { user_ids: [world.admin.id] } })).toMatchObject(ok);
    expect(await conforms("GET", `${world.base}/teams`, `${A}/teams`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("GET", `${world.base}/teams/${id}`, `${A}/teams/{id}`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("PATCH", `${world.base}/teams/${id}`, `${A}/teams/{id}`, { key: world.admin.key, body: { allow_auto_assign: false } })).toMatchObject(ok);
    expect(await conforms("DELETE", `${world.base}/teams/${id}`, `${A}/teams/{id}`, { key: world.admin.key })).toMatchObject(ok);
  });

  it("notifications, their settings and participants", async () => {
    const ok = { status: 200, errors: [] };
    const contact = await post(`${world.base}/contacts`, world.admin.key, { name: "Notified", email: "notified@example.com" });
    const conversation = await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inboxId, contact_id: contact.body.payload.contact.id });
    const c = `${world.base}/conversations/${conversation.body.id}`;
    const settings = `${A}/notification_settings`;
    expect(await conforms("GET", `${world.base}/notification_settings`, settings, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("PUT", `${world.base}/notification_settings`, settings, { key: world.agent.key, body: { notification_settings: { selected_push_flags: ["push_conversation_mention"] } } })).toMatchObject(ok);
    const participants = `${A}/conversations/{conversation_id}/participants`;
    expect(await conforms("POST", `${c}/participants`, participants, { key: world.admin.key, body: { user_ids: [world.agent.id] } })).toMatchObject(ok);
    expect(await conforms("GET", `${c}/participants`, participants, { key: world.admin.key })).toMatchObject(ok);
    const note = await post(`${c}/messages`, world.admin.key, { content: `[@Agent](mention://user/${world.agent.id}/Agent) look`, private: true });
    expect(note.status).toBe(200);
    const list = await conforms("GET", `${world.base}/notifications`, `${A}/notifications`, { key: world.agent.key });
    expect(list).toMatchObject(ok);
    expect(list.body.data.payload).toHaveLength(1);
    const id = list.body.data.payload[0].id;
    expect(await conforms("GET", `${world.base}/notifications/unread_count`, `${A}/notifications/unread_count`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("PATCH", `${world.base}/notifications/${id}`, `${A}/notifications/{id}`, { key: world.agent.key, body: {} })).toMatchObject(ok);
    expect(await conforms("POST", `${world.base}/notifications/${id}/snooze`, `${A}/notifications/{id}/snooze`, { key: world.agent.key, body: { snoozed_until: 2_000_000_000 } })).toMatchObject(ok);
    expect(await conforms("DELETE", `${c}/participants`, participants, { key: world.admin.key, body: { user_ids: [world.agent.id] } })).toMatchObject(ok);
    expect(await conforms("DELETE", `${world.base}/notifications/${id}`, `${A}/notifications/{id}`, { key: world.agent.key })).toMatchObject(ok);
  });

  it("labels and canned responses", async () => {
    const ok = { status: 200, errors: [] };
    const label = await conforms("POST", `${world.base}/labels`, `${A}/labels`, { key: world.admin.key, body: { title: "doc-label" } });
    expect(label).toMatchObject(ok);
    expect(await conforms("GET", `${world.base}/labels`, `${A}/labels`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("GET", `${world.base}/labels/${label.body.id}`, `${A}/labels/{id}`, { key: world.admin.key })).toMatchObject(ok);
    expect(await conforms("PATCH", `${world.base}/labels/${label.body.id}`, `${A}/labels/{id}`, { key: world.admin.key, body: { description: "Documented" } })).toMatchObject(ok);
    expect(await conforms("DELETE", `${world.base}/labels/${label.body.id}`, `${A}/labels/{id}`, { key: world.admin.key })).toMatchObject(ok);
    const canned = await conforms("POST", `${world.base}/canned_responses`, `${A}/canned_responses`, { key: world.agent.key, body: { short_code: "doc", content: "Documented reply" } });
    expect(canned).toMatchObject(ok);
    expect(await conforms("GET", `${world.base}/canned_responses?search=doc`, `${A}/canned_responses`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("PATCH", `${world.base}/canned_responses/${canned.body.id}`, `${A}/canned_responses/{id}`, { key: world.agent.key, body: { content: "Changed" } })).toMatchObject(ok);
    expect(await conforms("DELETE", `${world.base}/canned_responses/${canned.body.id}`, `${A}/canned_responses/{id}`, { key: world.agent.key })).toMatchObject(ok);
  });

  it("webhooks and their delivery log", async () => {
    const ok = { status: 200, errors: [] };
    const target = receiver();
    const created = await conforms("POST", `${world.base}/webhooks`, `${A}/webhooks`, { key: world.admin.key, body: { url: target.url, subscriptions: ["contact_created"] } });
    expect(created).toMatchObject(ok);
    const id = created.body.payload.webhook.id;
    expect(await conforms("GET", `${world.base}/webhooks`, `${A}/webhooks`, { key: world.admin.key })).toMatchObject(ok);
    expect(await conforms("PATCH", `${world.base}/webhooks/${id}`, `${A}/webhooks/{id}`, { key: world.admin.key, body: { name: "Documented hook" } })).toMatchObject(ok);
    expect(await conforms("POST", `${world.base}/webhooks/${id}/reset_secret`, `${A}/webhooks/{id}/reset_secret`, { key: world.admin.key })).toMatchObject(ok);

    await post(`${world.base}/contacts`, world.admin.key, { name: "Hooked" });
    await target.waitFor(1);
    const log = `${world.base}/webhooks/${id}/deliveries`;
    let page = await conforms("GET", log, `${A}/webhooks/{id}/deliveries`, { key: world.admin.key });
    for (let i = 0; i < 100 && page.body.payload[0]?.status !== "delivered"; i++) {
      await new Promise((r) => setTimeout(r, 20)); // the attempt is recorded just after the receiver answered
      page = await conforms("GET", log, `${A}/webhooks/{id}/deliveries`, { key: world.admin.key });
    }
    expect(page).toMatchObject(ok);
    expect(page.body.payload[0].status).toBe("delivered");
    const delivery = page.body.payload[0].id;
    const detail = await conforms("GET", `${log}/${delivery}`, `${A}/webhooks/{id}/deliveries/{delivery_id}`, { key: world.admin.key });
    expect(detail).toMatchObject(ok);
    expect(detail.body.payload.attempt_log).toHaveLength(1);
    expect(await conforms("POST", `${log}/${delivery}/redeliver`, `${A}/webhooks/{id}/deliveries/{delivery_id}/redeliver`, { key: world.admin.key })).toMatchObject({ status: 202, errors: [] });
    await target.waitFor(2);
    expect(await conforms("DELETE", `${world.base}/webhooks/${id}`, `${A}/webhooks/{id}`, { key: world.admin.key })).toMatchObject(ok);
  });

  it("automation rules and their files", async () => {
    const ok = { status: 200, errors: [] };
    const rules = `${world.base}/automation_rules`;
    const form = new FormData();
    form.append("attachment", file(samples.pdf(), "terms.pdf"));
    const upload = conformsReply("POST", `${A}/automation_rules/attach_file`, await postForm(`${rules}/attach_file`, world.admin.key, form));
    expect(upload).toMatchObject(ok);
    const rule = {
      name: "Documented rule",
      event_name: "conversation_created",
      conditions: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }],
      actions: [{ action_name: "send_attachment", action_params: [upload.body.blob_id] }],
    };
    const created = await conforms("POST", rules, `${A}/automation_rules`, { key: world.admin.key, body: rule });
    expect(created).toMatchObject(ok);
    const id = created.body.payload[0].id;
    expect(await conforms("GET", rules, `${A}/automation_rules`, { key: world.admin.key })).toMatchObject(ok);
    expect(await conforms("GET", `${rules}/${id}`, `${A}/automation_rules/{id}`, { key: world.admin.key })).toMatchObject(ok);
    expect(await conforms("PATCH", `${rules}/${id}`, `${A}/automation_rules/{id}`, { key: world.admin.key, body: { active: false, description: "Off" } })).toMatchObject(ok);
    const clone = await conforms("POST", `${rules}/${id}/clone`, `${A}/automation_rules/{id}/clone`, { key: world.admin.key });
    expect(clone).toMatchObject(ok);
    expect(await conforms("DELETE", `${rules}/${clone.body.payload.id}`, `${A}/automation_rules/{id}`, { key: world.admin.key })).toMatchObject(ok);
  });

  it("custom attribute definitions and saved filters (their deletes are a documented 204 without a body)", async () => {
    const ok = { status: 200, errors: [] };
    const definitions = `${world.base}/custom_attribute_definitions`;
    const definition = await conforms("POST", definitions, `${A}/custom_attribute_definitions`, {
      key: world.admin.key,
      body: { attribute_display_name: "Plan", attribute_key: "doc_plan", attribute_display_type: "list", attribute_model: "contact_attribute", attribute_values: ["gold", "silver"] },
    });
    expect(definition).toMatchObject(ok);
    const id = definition.body.id;
    expect(await conforms("GET", definitions, `${A}/custom_attribute_definitions`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("GET", `${definitions}/${id}`, `${A}/custom_attribute_definitions/{id}`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("PATCH", `${definitions}/${id}`, `${A}/custom_attribute_definitions/{id}`, { key: world.admin.key, body: { attribute_description: "Which plan" } })).toMatchObject(ok);
    expect((await call("DELETE", `${definitions}/${id}`, { key: world.admin.key })).status).toBe(204);
    expect(Object.keys(document.paths[`${A}/custom_attribute_definitions/{id}`].delete.responses).filter((s) => s.startsWith("2"))).toEqual(["204"]);

    const filters = `${world.base}/custom_filters`;
    const filter = await conforms("POST", filters, `${A}/custom_filters`, { key: world.agent.key, body: { name: "Open ones", filter_type: "conversation", query: { payload: [] } } });
    expect(filter).toMatchObject(ok);
    expect(await conforms("GET", filters, `${A}/custom_filters`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("GET", `${filters}/${filter.body.id}`, `${A}/custom_filters/{id}`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("PATCH", `${filters}/${filter.body.id}`, `${A}/custom_filters/{id}`, { key: world.agent.key, body: { name: "Renamed" } })).toMatchObject(ok);
    expect((await call("DELETE", `${filters}/${filter.body.id}`, { key: world.agent.key })).status).toBe(204);
  });

  it("agent bots: the account's (with and without the key) and the platform's", async () => {
    const ok = { status: 200, errors: [] };
    const bots = `${world.base}/agent_bots`;
    const created = await conforms("POST", bots, `${A}/agent_bots`, { key: world.admin.key, body: { name: "Doc bot", outgoing_url: "https://bot.example/hook" } });
    expect(created).toMatchObject(ok);
    expect(created.body.access_token).toEqual(expect.any(String));
    const id = created.body.id;
    expect(await conforms("GET", bots, `${A}/agent_bots`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("GET", `${bots}/${id}`, `${A}/agent_bots/{id}`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("PATCH", `${bots}/${id}`, `${A}/agent_bots/{id}`, { key: world.admin.key, body: { description: "Documented" } })).toMatchObject(ok);
    expect(await conforms("POST", `${bots}/${id}/reset_access_token`, `${A}/agent_bots/{id}/reset_access_token`, { key: world.admin.key })).toMatchObject(ok);
    expect(await conforms("POST", `${world.base}/inboxes/${inboxId}/set_agent_bot`, `${A}/inboxes/{id}/set_agent_bot`, { key: world.admin.key, body: { agent_bot: id } })).toMatchObject(ok);
    expect(await conforms("GET", `${world.base}/inboxes/${inboxId}/agent_bot`, `${A}/inboxes/{id}/agent_bot`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("POST", `${world.base}/inboxes/${inboxId}/set_agent_bot`, `${A}/inboxes/{id}/set_agent_bot`, { key: world.admin.key, body: { agent_bot: null } })).toMatchObject(ok);
    expect(await conforms("DELETE", `${bots}/${id}`, `${A}/agent_bots/{id}`, { key: world.admin.key })).toMatchObject(ok);

    const P = "/platform/api/v1/agent_bots";
    const system = await conforms("POST", P, P, { key: world.platformKey, body: { name: "Platform doc bot", outgoing_url: "https://bot.example/platform" } });
    expect(system).toMatchObject(ok);
    expect(await conforms("GET", P, P, { key: world.platformKey })).toMatchObject(ok);
    expect(await conforms("GET", `${P}/${system.body.id}`, `${P}/{id}`, { key: world.platformKey })).toMatchObject(ok);
    expect(await conforms("PATCH", `${P}/${system.body.id}`, `${P}/{id}`, { key: world.platformKey, body: { avatar_url: "https://bot.example/a.png" } })).toMatchObject(ok);
    expect(await conforms("DELETE", `${P}/${system.body.id}/avatar`, `${P}/{id}/avatar`, { key: world.platformKey })).toMatchObject(ok);
    expect(await conforms("GET", bots, `${A}/agent_bots`, { key: world.agent.key })).toMatchObject(ok); // with a system bot
    expect(await conforms("DELETE", `${P}/${system.body.id}`, `${P}/{id}`, { key: world.platformKey })).toMatchObject(ok);
  });

  it("the account, the profile, and the platform API's users and account users", async () => {
    const ok = { status: 200, errors: [] };
    expect(await conforms("GET", world.base, A, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("PATCH", world.base, A, { key: world.admin.key, body: { name: "Contract Co", support_email: "help@contract.example" } })).toMatchObject(ok);
    expect(await conforms("GET", "/api/v1/profile", "/api/v1/profile", { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("PATCH", "/api/v1/profile", "/api/v1/profile", { key: world.agent.key, body: { display_name: "Doc", message_signature: "-- Doc" } })).toMatchObject(ok);

    const U = "/platform/api/v1/users";
    const user = await conforms("POST", U, U, { key: world.platformKey, body: { name: "Platform Doc", email: "platform.doc@example.com" } });
    expect(user).toMatchObject(ok);
    const id = user.body.id;
    expect(await conforms("GET", `${U}/${id}`, `${U}/{id}`, { key: world.platformKey })).toMatchObject(ok);
    expect(await conforms("PATCH", `${U}/${id}`, `${U}/{id}`, { key: world.platformKey, body: { display_name: "PD" } })).toMatchObject(ok);
    expect(await conforms("GET", `${U}/${id}/login`, `${U}/{id}/login`, { key: world.platformKey })).toMatchObject(ok);
    expect(await conforms("POST", `${U}/${id}/token`, `${U}/{id}/token`, { key: world.platformKey })).toMatchObject(ok);

    const account = (await post("/platform/api/v1/accounts", world.platformKey, { name: "Members Ltd" })).body.id;
    const members = `/platform/api/v1/accounts/${account}/account_users`;
    const template = "/platform/api/v1/accounts/{account_id}/account_users";
    expect(await conforms("POST", members, template, { key: world.platformKey, body: { user_id: id, role: "administrator" } })).toMatchObject(ok);
    expect(await conforms("GET", members, template, { key: world.platformKey })).toMatchObject(ok);
    expect(await conforms("GET", `${U}/${id}`, `${U}/{id}`, { key: world.platformKey })).toMatchObject(ok); // with an account
    expect(await conforms("DELETE", members, template, { key: world.platformKey, body: { user_id: id } })).toMatchObject(ok);
    expect(await conforms("DELETE", `${U}/${id}`, `${U}/{id}`, { key: world.platformKey })).toMatchObject(ok);
    expect(await conforms("DELETE", `/platform/api/v1/accounts/${account}`, "/platform/api/v1/accounts/{id}", { key: world.platformKey })).toMatchObject(ok);
  });

  it("an e-mail change and its confirmation link", async () => {
    const ok = { status: 200, errors: [] };
    const user = await createUser(world.platformKey, "Mover");
    const wanted = "mover.new@example.com";
    expect(await conforms("PUT", "/api/v1/profile", "/api/v1/profile", { key: user.key, body: { email: wanted, current_password: "Passw0rd!long" } })).toMatchObject(ok);
    const mail = await directory().prepare("SELECT body FROM outgoing_emails WHERE kind = 'email_confirmation' AND recipients = ?").bind(JSON.stringify([wanted])).first<{ body: string }>();
    const token = /confirmation_token=([0-9a-f]+)/.exec(mail!.body)![1];
    expect(await conforms("GET", `/auth/confirmation?confirmation_token=${token}`, "/auth/confirmation")).toMatchObject(ok);
    expect(await conforms("GET", `/auth/confirmation?confirmation_token=${token}`, "/auth/confirmation")).toMatchObject({ status: 422, errors: [] });
  });

  it("help center: portals, categories and articles, and the public help center", async () => {
    const ok = { status: 200, errors: [] };
    const portals = `${world.base}/portals`;
    expect(await conforms("POST", portals, `${A}/portals`, { key: world.admin.key, body: { name: "Doc portal", slug: "doc-portal", config: { allowed_locales: ["en", "fr"] } } })).toMatchObject(ok);
    const portal = `${portals}/doc-portal`;
    const P = `${A}/portals/{portal_slug}`;
    const parent = await conforms("POST", `${portal}/categories`, `${P}/categories`, { key: world.admin.key, body: { name: "Start", slug: "start" } });
    expect(parent).toMatchObject(ok);
    const child = await conforms("POST", `${portal}/categories`, `${P}/categories`, { key: world.admin.key, body: { name: "Deeper", slug: "deeper", parent_category_id: parent.body.payload.id } });
    expect(child).toMatchObject(ok);
    expect(child.body.payload.parent_category).toBeTruthy();
    const article = await conforms("POST", `${portal}/articles`, `${P}/articles`, {
      key: world.admin.key,
      body: { title: "Documented guide", slug: "documented-guide", content: "A guide to the documented API", category_id: child.body.payload.id, author_id: world.agent.id, status: 1 },
    });
    expect(article).toMatchObject(ok);
    const id = article.body.payload.id;
    const draft = await conforms("POST", `${portal}/articles`, `${P}/articles`, { key: world.admin.key, body: { title: "Draft", content: "x" } });
    expect(draft).toMatchObject(ok);
    expect(await conforms("GET", portals, `${A}/portals`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("GET", portal, P, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("PATCH", portal, P, { key: world.admin.key, body: { header_text: "Help" } })).toMatchObject(ok);
    expect(await conforms("GET", `${portal}/categories`, `${P}/categories`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("GET", `${portal}/categories/${child.body.payload.id}`, `${P}/categories/{id}`, { key: world.admin.key })).toMatchObject(ok);
    expect(await conforms("PATCH", `${portal}/categories/${child.body.payload.id}`, `${P}/categories/{id}`, { key: world.admin.key, body: { description: "Deeper" } })).toMatchObject(ok);
    expect(await conforms("GET", `${portal}/articles`, `${P}/articles`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("GET", `${portal}/articles?query=guide`, `${P}/articles`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("GET", `${portal}/articles/${id}`, `${P}/articles/{id}`, { key: world.admin.key })).toMatchObject(ok);
    expect(await conforms("PATCH", `${portal}/articles/${id}`, `${P}/articles/{id}`, { key: world.admin.key, body: { description: "Short" } })).toMatchObject(ok);
    expect(await conforms("POST", `${portal}/articles/reorder`, `${P}/articles/reorder`, { key: world.admin.key, body: { positions_hash: { [id]: 2, [draft.body.payload.id]: 1 } } })).toMatchObject(ok);

    const hc = "/public/api/v1/portals/doc-portal";
    const H = "/public/api/v1/portals/{portal_slug}";
    expect(await conforms("GET", hc, H)).toMatchObject(ok);
    expect(await conforms("GET", `${hc}/categories`, `${H}/categories`)).toMatchObject(ok);
    const found = await conforms("GET", `${hc}/articles?query=guide`, `${H}/articles`);
    expect(found).toMatchObject(ok);
    expect(found.body.payload[0].snippet).toContain("<mark>");
    expect(await conforms("GET", `${hc}/articles`, `${H}/articles`)).toMatchObject(ok);
    expect(await conforms("GET", `${hc}/articles/documented-guide`, `${H}/articles/{article_slug}`)).toMatchObject(ok);

    expect(await conforms("DELETE", `${portal}/articles/${id}`, `${P}/articles/{id}`, { key: world.admin.key })).toMatchObject(ok);
    expect(await conforms("DELETE", `${portal}/categories/${child.body.payload.id}`, `${P}/categories/{id}`, { key: world.admin.key })).toMatchObject(ok);
    expect(await conforms("DELETE", portal, P, { key: world.admin.key })).toMatchObject(ok);
  });

  it("the public widget API: inbox, visitor, conversations, messages (a form answered, files)", async () => {
    const ok = { status: 200, errors: [] };
    const I = "/public/api/v1/inboxes/{inbox_identifier}";
    const V = `${I}/contacts/{contact_identifier}`;
    const C = `${V}/conversations/{conversation_id}`;
    const website = await publicInbox(world.accountId, "Channel::WebWidget");
    expect(await conforms("GET", website.base, I)).toMatchObject(ok);
    const inbox = await publicInbox(world.accountId);
    await addInboxMember(world.accountId, inbox.id, world.agent.id);
    expect(await conforms("GET", inbox.base, I)).toMatchObject(ok);
    const created = await conforms("POST", `${inbox.base}/contacts`, `${I}/contacts`, { body: { name: "Visiting doc", email: "visiting.doc@example.com" } });
    expect(created).toMatchObject(ok);
    const base = `${inbox.base}/contacts/${created.body.source_id}`;
    expect(await conforms("GET", base, V)).toMatchObject(ok);
    expect(await conforms("PATCH", base, V, { body: { phone_number: "+15550100", custom_attributes: { plan: "gold" } } })).toMatchObject(ok);
    expect(await conforms("POST", `${base}/events`, `${V}/events`, { body: { name: "webwidget.triggered", event_info: { browser: "Firefox" } } })).toMatchObject(ok);
    const conversation = await conforms("POST", `${base}/conversations`, `${V}/conversations`, { body: {} });
    expect(conversation).toMatchObject(ok);
    const path = `${base}/conversations/${conversation.body.id}`;
    expect(await conforms("POST", `${path}/messages`, `${C}/messages`, { body: { content: "Hello from the widget", echo_id: "echo-1" } })).toMatchObject(ok);
    const form = new FormData();
    form.append("content", "With a file");
    form.append("attachments[]", file(samples.png(), "shot.png", "image/png"));
    const withFile = conformsReply("POST", `${C}/messages`, await postForm(`${path}/messages`, null, form));
    expect(withFile).toMatchObject(ok);
    expect(withFile.body.attachments).toHaveLength(1);
    const select = await post(`${world.base}/conversations/${conversation.body.id}/messages`, world.agent.key, {
      content: "Pick one",
      content_type: "input_select",
      content_attributes: { items: [{ title: "Yes", value: "yes" }] },
    });
    expect(await conforms("PATCH", `${path}/messages/${select.body.id}`, `${C}/messages/{message_id}`, { body: { submitted_values: [{ title: "Yes", value: "yes" }] } })).toMatchObject(ok);
    expect(await conforms("GET", `${path}/messages`, `${C}/messages`)).toMatchObject(ok);
    expect(await conforms("GET", `${base}/conversations`, `${V}/conversations`)).toMatchObject(ok);
    expect(await conforms("GET", path, C)).toMatchObject(ok);
    expect(await conforms("POST", `${path}/toggle_typing`, `${C}/toggle_typing`, { body: { typing_status: "on" } })).toMatchObject(ok);
    expect(await conforms("POST", `${path}/update_last_seen`, `${C}/update_last_seen`)).toMatchObject(ok);
    expect(await conforms("POST", `${path}/toggle_status`, `${C}/toggle_status`)).toMatchObject(ok);
  });

  it("reports v2 and CSAT survey responses (with an answered survey)", async () => {
    const ok = { status: 200, errors: [] };
    const inbox = await publicInbox(world.accountId);
    await patch(`${world.base}/inboxes/${inbox.id}`, world.admin.key, { csat_survey_enabled: true });
    const v = (await post(`${inbox.base}/contacts`, null, { name: "Rater", email: "rater@example.com" })).body;
    const path = `${inbox.base}/contacts/${v.source_id}/conversations/${(await post(`${inbox.base}/contacts/${v.source_id}/conversations`, null, {})).body.id}`;
    const displayId = (await get(path)).body.id;
    await post(`${world.base}/conversations/${displayId}/assignments`, world.admin.key, { assignee_id: world.agent.id });
    await post(`${world.base}/conversations/${displayId}/toggle_status`, world.admin.key, { status: "resolved" });
    const survey = (await get(`${path}/messages`)).body.find((m: { content_type: string }) => m.content_type === "input_csat");
    expect(survey).toBeTruthy();
    expect((await patch(`${path}/messages/${survey.id}`, null, { submitted_values: [{ csat_survey_response: { rating: 4, feedback_message: "Good" } }] })).status).toBe(200);

    const csat = `${world.base}/csat_survey_responses`;
    const list = await conforms("GET", csat, `${A}/csat_survey_responses`, { key: world.admin.key });
    expect(list).toMatchObject(ok);
    expect(list.body).toHaveLength(1);
    expect(await conforms("GET", `${csat}/metrics`, `${A}/csat_survey_responses/metrics`, { key: world.admin.key })).toMatchObject(ok);

    const R = "/api/v2/accounts/{account_id}";
    const v2 = `/api/v2/accounts/${world.accountId}`;
    const now = Math.floor(Date.now() / 1000);
    const window = `since=${now - 86_400}&until=${now + 3_600}`;
    expect(await conforms("GET", `${v2}/reports?${window}&metric=conversations_count`, `${R}/reports`, { key: world.admin.key })).toMatchObject(ok);
    expect(await conforms("GET", `${v2}/reports?${window}&metric=avg_resolution_time&group_by=hour`, `${R}/reports`, { key: world.admin.key })).toMatchObject(ok);
    expect(await conforms("GET", `${v2}/reports/summary?${window}`, `${R}/reports/summary`, { key: world.admin.key })).toMatchObject(ok);
    expect(await conforms("GET", `${v2}/reports/conversations?type=account`, `${R}/reports/conversations`, { key: world.admin.key })).toMatchObject(ok);
    const agents = await conforms("GET", `${v2}/reports/conversations?type=agent`, `${R}/reports/conversations`, { key: world.admin.key });
    expect(agents).toMatchObject(ok);
    expect(agents.body.length).toBeGreaterThan(0);
    for (const dimension of ["agent", "team", "inbox", "label", "channel"]) {
      expect(await conforms("GET", `${v2}/summary_reports/${dimension}?${window}`, `${R}/summary_reports/${dimension}`, { key: world.admin.key })).toMatchObject(ok);
    }
    for (const report of ["bot_summary", "bot_metrics", "inbox_label_matrix", "first_response_time_distribution", "outgoing_messages_count?group_by=label"]) {
      const path = report.split("?")[0];
      expect(await conforms("GET", `${v2}/reports/${report}${report.includes("?") ? "&" : "?"}${window}`, `${R}/reports/${path}`, { key: world.admin.key })).toMatchObject(ok);
    }
  });

  it("conversation lists, counts, filter and actions, with the assignee answers and attachments", async () => {
    const ok = { status: 200, errors: [] };
    const C = `${A}/conversations/{conversation_id}`;
    const contact = (await post(`${world.base}/contacts`, world.admin.key, { name: "Actor" })).body.payload.contact.id;
    const id = (await post(`${world.base}/conversations`, world.agent.key, { inbox_id: inboxId, contact_id: contact })).body.id;
    const path = `${world.base}/conversations/${id}`;
    const form = new FormData();
    form.append("content", "A file");
    form.append("attachments[]", file(samples.png(), "shot.png", "image/png"));
    expect((await postForm(`${path}/messages`, world.agent.key, form)).status).toBe(200);
    expect(await conforms("GET", `${path}/attachments`, `${C}/attachments`, { key: world.agent.key })).toMatchObject(ok);
    for (const query of ["", "?status=all", "?assignee_type=me", "?page=1"]) {
      expect(await conforms("GET", `${world.base}/conversations${query}`, `${A}/conversations`, { key: world.agent.key })).toMatchObject(ok);
    }
    expect(await conforms("GET", `${world.base}/conversations/meta`, `${A}/conversations/meta`, { key: world.agent.key })).toMatchObject(ok);
    const filter = { payload: [{ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null }] };
    expect(await conforms("POST", `${world.base}/conversations/filter`, `${A}/conversations/filter`, { key: world.agent.key, body: filter })).toMatchObject(ok);
    expect(await conforms("PATCH", path, C, { key: world.agent.key, body: { priority: "high" } })).toMatchObject(ok);
    expect(await conforms("POST", `${path}/toggle_status`, `${C}/toggle_status`, { key: world.agent.key, body: { status: "snoozed", snoozed_until: Math.floor(Date.now() / 1000) + 3_600 } })).toMatchObject(ok);
    expect(await conforms("POST", `${path}/toggle_status`, `${C}/toggle_status`, { key: world.agent.key, body: { status: "open" } })).toMatchObject(ok);
    const assign = (body: unknown) => conforms("POST", `${path}/assignments`, `${C}/assignments`, { key: world.admin.key, body });
    expect(await assign({ assignee_id: world.agent.id })).toMatchObject(ok);
    const team = (await post(`${world.base}/teams`, world.admin.key, { name: "Assignable" })).body.id;
    expect(await assign({ team_id: team })).toMatchObject(ok);
    expect(await assign({ assignee_id: null })).toMatchObject(ok);
    expect(await conforms("POST", `${path}/custom_attributes`, `${C}/custom_attributes`, { key: world.agent.key, body: { custom_attributes: { plan: "gold" } } })).toMatchObject(ok);
    expect(await conforms("POST", `${path}/unread`, `${C}/unread`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("POST", `${path}/update_last_seen`, `${C}/update_last_seen`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("POST", `${path}/toggle_typing_status`, `${C}/toggle_typing_status`, { key: world.agent.key, body: { typing_status: "on" } })).toMatchObject(ok);
    expect(await conforms("POST", `${path}/live_ticket`, `${C}/live_ticket`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("DELETE", path, C, { key: world.admin.key })).toMatchObject(ok);
  });

  it("dashboard apps, integration apps, and a contact delete", async () => {
    const ok = { status: 200, errors: [] };
    const apps = `${world.base}/dashboard_apps`;
    const created = await conforms("POST", apps, `${A}/dashboard_apps`, { key: world.admin.key, body: { title: "CRM", content: [{ type: "frame", url: "https://crm.example/frame" }] } });
    expect(created).toMatchObject(ok);
    const id = created.body.id;
    expect(await conforms("GET", apps, `${A}/dashboard_apps`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("GET", `${apps}/${id}`, `${A}/dashboard_apps/{id}`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("PATCH", `${apps}/${id}`, `${A}/dashboard_apps/{id}`, { key: world.admin.key, body: { title: "CRM 2" } })).toMatchObject(ok);
    expect(await conforms("DELETE", `${apps}/${id}`, `${A}/dashboard_apps/{id}`, { key: world.admin.key })).toMatchObject(ok);
    expect(await conforms("GET", `${world.base}/integrations/apps`, `${A}/integrations/apps`, { key: world.agent.key })).toMatchObject(ok);
    expect(await conforms("GET", `${world.base}/integrations/apps/dashboard_apps`, `${A}/integrations/apps/{id}`, { key: world.agent.key })).toMatchObject(ok);
    // a hook is never created here: the documented 422
    expect(await conforms("POST", `${world.base}/integrations/hooks`, `${A}/integrations/hooks`, { key: world.admin.key, body: { app_id: "slack" } })).toMatchObject({ status: 422, errors: [] });
    const contact = (await post(`${world.base}/contacts`, world.admin.key, { name: "Leaving" })).body.payload.contact.id;
    expect(await conforms("DELETE", `${world.base}/contacts/${contact}`, `${A}/contacts/{id}`, { key: world.admin.key })).toMatchObject(ok);
  });

  it("campaigns (both types), the widget's campaign list and a triggered campaign", async () => {
    const admin = world.admin.key;
    const site = (await post(`${world.base}/inboxes`, admin, { name: "Site", channel: { type: "web_widget", website_url: "https://site.example" } })).body;
    const label = (await post(`${world.base}/labels`, admin, { title: "campaign-doc" })).body;
    const ongoing = await conforms("POST", `${world.base}/campaigns`, `${A}/campaigns`, {
      key: admin,
      body: { title: "On pricing", message: "Hi", inbox_id: site.id, sender_id: world.admin.id, trigger_rules: { url: "https://site.example/pricing", time_on_page: 3 } },
    });
    expect(ongoing).toMatchObject({ status: 200, errors: [] });
    const oneOff = await conforms("POST", `${world.base}/campaigns`, `${A}/campaigns`, {
      key: admin,
      body: { title: "Sale", message: "Sale", inbox_id: inboxId, audience: [{ type: "Label", id: label.id }], scheduled_at: 4_000_000_000 },
    });
    expect(oneOff).toMatchObject({ status: 200, errors: [] });
    expect(await conforms("GET", `${world.base}/campaigns`, `${A}/campaigns`, { key: admin })).toMatchObject({ status: 200, errors: [] });
    expect(await conforms("GET", `${world.base}/campaigns/${oneOff.body.id}`, `${A}/campaigns/{id}`, { key: admin })).toMatchObject({ status: 200, errors: [] });
    expect(await conforms("PATCH", `${world.base}/campaigns/${oneOff.body.id}`, `${A}/campaigns/{id}`, { key: admin, body: { enabled: false } })).toMatchObject({ status: 200, errors: [] });
    const pub = `/public/api/v1/inboxes/${site.website_token}`;
    const listed = await conforms("GET", `${pub}/campaigns?url=https://site.example/pricing`, "/public/api/v1/inboxes/{inbox_identifier}/campaigns");
    expect(listed).toMatchObject({ status: 200, errors: [] });
    expect(listed.body).toHaveLength(1);
    const visitor = (await post(`${pub}/contacts`, null, {})).body;
    const triggered = await conforms("POST", `${pub}/contacts/${visitor.source_id}/events`, "/public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/events", {
      body: { name: "campaign.triggered", event_info: { campaign_id: ongoing.body.id } },
    });
    expect(triggered).toMatchObject({ status: 200, errors: [] });
    expect(await conforms("DELETE", `${world.base}/campaigns/${oneOff.body.id}`, `${A}/campaigns/{id}`, { key: admin })).toMatchObject({ status: 200, errors: [] });
  });

  it("errors: 401, 403, 404 and 422 all have the documented error body", async () => {
    expect(await conforms("GET", `${world.base}/contacts`, `${A}/contacts`, { key: null })).toMatchObject({ status: 401, errors: [] });
    expect(await conforms("DELETE", `${world.base}/contacts/1`, `${A}/contacts/{id}`, { key: world.agent.key })).toMatchObject({ status: 403, errors: [] });
    expect(await conforms("GET", `${world.base}/contacts/999999`, `${A}/contacts/{id}`, { key: world.agent.key })).toMatchObject({ status: 404, errors: [] });
    expect(await conforms("POST", `${world.base}/contacts`, `${A}/contacts`, { key: world.agent.key, body: { email: "nope" } })).toMatchObject({ status: 422, errors: [] });
  });

  it("fails an answer that breaks its schema (the check can fail)", () => {
    const schema = documentedSchema("GET", `${A}/contacts/{id}`, 200);
    const broken = { payload: { id: "seven", name: null } };
    expect(new Validator(schema, "2020-12", false).validate(broken).valid).toBe(false);
  });
});
