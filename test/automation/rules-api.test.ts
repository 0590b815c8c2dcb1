/**
 * The automation rules API: administrators' CRUD and clone, the specification's create answer, and every
 * save-time refusal with the path of the offending value.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { createRule } from "../../src/domain/automation/rules";
import { systemScope } from "../../src/domain/kernel/scope";
import { createWebhook } from "../../src/domain/settings/webhooks";
import { jobScope } from "../../src/jobs/scope";
import { createContact, defineConversationAttribute, createTeam } from "../support/fixtures";
import { del, get, patch, post, put } from "../support/http";
import { createWorld } from "../support/world";
import { shardOf } from "../support/databases";

const world = await createWorld("Rules Co");
const { base, admin, agent } = world;
const other = await createWorld("Other Rules Co");
await post(`${base}/inboxes`, admin.key, { name: "Support", channel: { type: "api" } });
const bot = (await post(`${base}/agent_bots`, admin.key, { name: "Helper" })).body;
await post(`${base}/labels`, admin.key, { title: "vip" });
const teamId = await createTeam(world.accountId, "Billing", [agent.id]);
await defineConversationAttribute(world.accountId, "plan_tier", 6, ["gold", "silver"]);
await defineConversationAttribute(world.accountId, "seats", 1);
await createContact(world.accountId);

const valid = {
  name: "Tag VIPs",
  description: "Label conversations from our biggest customers",
  event_name: "conversation_created",
  conditions: [
    { attribute_key: "email", filter_operator: "contains", values: ["@bigcorp.com"], query_operator: "and" },
    { attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator: null },
  ],
  actions: [
    { action_name: "add_label", action_params: ["vip"] },
    { action_name: "assign_team", action_params: [teamId] },
  ],
};

describe("create, read, update, delete, clone", () => {
  it("creates a rule and answers the specification's payload array with every record field", async () => {
    const res = await post(`${base}/automation_rules`, admin.key, valid);
    expect(res.status).toBe(200);
    expect(res.body.payload).toHaveLength(1);
    const rule = res.body.payload[0];
    expect(rule).toMatchObject({
      id: expect.any(Number),
      account_id: world.accountId,
      name: "Tag VIPs",
      description: valid.description,
      event_name: "conversation_created",
      active: true,
      actions: valid.actions,
    });
    // query operators are stored upper-cased, the last one empty
    expect(rule.conditions.map((c: any) => c.query_operator)).toEqual(["AND", null]);
    expect(Math.abs(rule.created_on - Date.now() / 1000)).toBeLessThan(60);
    expect(Number.isInteger(rule.created_on)).toBe(true);
  });

  it("lists, shows, updates with PATCH and PUT, clones and deletes", async () => {
    const created = (await post(`${base}/automation_rules`, admin.key, { ...valid, name: "Second" })).body.payload[0];
    const list = await get(`${base}/automation_rules`, admin.key);
    expect(list.status).toBe(200);
    expect(list.body.payload.map((r: any) => r.name)).toContain("Second");

    expect((await get(`${base}/automation_rules/${created.id}`, admin.key)).body.payload).toEqual(created);
    const patched = await patch(`${base}/automation_rules/${created.id}`, admin.key, { name: "Renamed", active: false });
    expect(patched.status).toBe(200);
    expect(patched.body.payload).toMatchObject({ name: "Renamed", active: false, conditions: created.conditions });
    const replaced = await put(`${base}/automation_rules/${created.id}`, admin.key, {
      event_name: "message_created",
      conditions: [{ attribute_key: "content", filter_operator: "contains", values: ["refund"] }],
      actions: [{ action_name: "add_private_note", action_params: ["Refund requested"] }],
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.payload).toMatchObject({ event_name: "message_created", actions: [{ action_name: "add_private_note" }] });

    const clone = await post(`${base}/automation_rules/${created.id}/clone`, admin.key);
    expect(clone.status).toBe(200);
    expect(clone.body.payload.id).not.toBe(created.id);
    expect(clone.body.payload).toMatchObject({ name: "Renamed", event_name: "message_created", conditions: replaced.body.payload.conditions, actions: replaced.body.payload.actions });
    expect(clone.body.payload.webhook_secret).not.toBe(replaced.body.payload.webhook_secret);

    expect((await del(`${base}/automation_rules/${created.id}`, admin.key)).status).toBe(200);
    expect((await get(`${base}/automation_rules/${created.id}`, admin.key)).status).toBe(404);
    expect((await get(`${base}/automation_rules/${clone.body.payload.id}`, admin.key)).status).toBe(200);
  });

  it("accepts the body wrapped under automation_rule, as Rails clients send it", async () => {
    const res = await post(`${base}/automation_rules`, admin.key, { automation_rule: { ...valid, name: "Wrapped" } });
    expect(res.status).toBe(200);
    expect(res.body.payload[0].name).toBe("Wrapped");
  });
});

describe("who may", () => {
  it("refuses agents (403), bot keys (403) and requests without a key (401)", async () => {
    const rule = (await post(`${base}/automation_rules`, admin.key, valid)).body.payload[0];
    for (const key of [agent.key, bot.access_token]) {
      expect((await get(`${base}/automation_rules`, key)).status).toBe(403);
      expect((await post(`${base}/automation_rules`, key, valid)).status).toBe(403);
      expect((await patch(`${base}/automation_rules/${rule.id}`, key, { name: "x" })).status).toBe(403);
      expect((await post(`${base}/automation_rules/${rule.id}/clone`, key)).status).toBe(403);
      expect((await del(`${base}/automation_rules/${rule.id}`, key)).status).toBe(403);
    }
    const missing = await get(`${base}/automation_rules`, null);
    expect(missing.status).toBe(401);
    expect(missing.body.errors[0].code).toBe("missing_key");
  });

  it("answers 404 for another account's rule, through the caller's own account", async () => {
    const theirs = (await post(`${other.base}/automation_rules`, other.admin.key, { ...valid, actions: [{ action_name: "resolve_conversation", action_params: [] }] })).body.payload[0];
    for (const [method, extra] of [["GET", ""], ["PATCH", ""], ["PUT", ""], ["DELETE", ""], ["POST", "/clone"]] as const) {
      const path = `${base}/automation_rules/${theirs.id}${extra}`;
      const res = method === "GET" ? await get(path, admin.key) : method === "DELETE" ? await del(path, admin.key) : method === "POST" ? await post(path, admin.key) : await patch(path, admin.key, { name: "Mine" });
      expect(res.status, `${method} ${extra}`).toBe(404);
    }
    expect((await get(`${other.base}/automation_rules/${theirs.id}`, other.admin.key)).body.payload.name).toBe(valid.name);
  });
});

describe("save-time validation", () => {
  const cond = (over: Record<string, unknown>, query_operator: string | null = null) => ({ attribute_key: "status", filter_operator: "equal_to", values: ["open"], query_operator, ...over });
  const act = (action_name: string, action_params: unknown[] = []) => ({ action_name, action_params });
  const refused = async (body: Record<string, unknown>, field: string, code?: string) => {
    const res = await post(`${base}/automation_rules`, admin.key, { ...valid, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    const entry = res.body.errors.find((e: any) => e.field === field);
    expect(entry, JSON.stringify(res.body.errors)).toBeDefined();
    if (code) expect(entry.code).toBe(code);
    expect(typeof res.body.description).toBe("string");
  };

  it.each([
    ["a missing name", { name: undefined }, "name"],
    ["a blank name", { name: "  " }, "name"],
    ["an unknown event", { event_name: "contact_created" }, "event_name"],
    ["no conditions", { conditions: [] }, "conditions"],
    ["no actions", { actions: [] }, "actions"],
  ])("refuses %s", async (_, body, field) => refused(body, field));

  it.each([
    ["an unknown key", [cond({ attribute_key: "shoe_size" })], "conditions[0].attribute_key", "unsupported_key"],
    ["an unknown operator", [cond({ filter_operator: "resembles" })], "conditions[0].filter_operator", "invalid_value"],
    ["an operator the key does not take", [cond({}, "AND"), cond({ attribute_key: "status", filter_operator: "contains", values: ["op"] })], "conditions[1].filter_operator", "operator_not_allowed"],
    ["starts_with on email", [cond({ attribute_key: "email", filter_operator: "starts_with", values: ["a"] })], "conditions[0].filter_operator", "operator_not_allowed"],
    ["a status that does not exist", [cond({ values: ["closed"] })], "conditions[0].values[0]", "invalid_value"],
    ["a priority that does not exist", [cond({ attribute_key: "priority", values: ["critical"] })], "conditions[0].values[0]", "invalid_value"],
    ["a message type that does not exist", [cond({ attribute_key: "message_type", values: ["sms"] })], "conditions[0].values[0]", "invalid_value"],
    ["an agent of another account", [cond({ attribute_key: "assignee_id", values: [999999] })], "conditions[0].values[0]", "not_found"],
    ["an inbox of another account", [cond({ attribute_key: "inbox_id", values: [999999] })], "conditions[0].values[0]", "not_found"],
    ["a label that does not exist", [cond({ attribute_key: "labels", values: ["nope"] })], "conditions[0].values[0]", "not_found"],
    ["no values", [cond({ values: [] })], "conditions[0].values", "invalid_type"],
    ["values that are not a list", [cond({ values: "open" })], "conditions[0].values", "invalid_type"],
    ["a list value the attribute does not have", [cond({ attribute_key: "plan_tier", values: ["bronze"] })], "conditions[0].values[0]", "invalid_value"],
    ["a word for a number attribute", [cond({ attribute_key: "seats", filter_operator: "is_greater_than", values: ["many"] })], "conditions[0].values[0]", "invalid_type"],
    ["attribute_changed without from/to", [cond({ filter_operator: "attribute_changed", values: ["open"] })], "conditions[0].values", "invalid_type"],
    ["attribute_changed to an unknown status", [cond({ filter_operator: "attribute_changed", values: { from: ["open"], to: ["gone"] } })], "conditions[0].values.to[0]", "invalid_value"],
    ["attribute_changed on a contact key", [cond({ attribute_key: "email", filter_operator: "attribute_changed", values: { from: [], to: [] } })], "conditions[0].filter_operator", "operator_not_allowed"],
    ["a missing query operator between conditions", [cond({}), cond({})], "conditions[0].query_operator", "required"],
    ["a query operator that is neither AND nor OR", [cond({}, "XOR"), cond({})], "conditions[0].query_operator", "invalid_value"],
    ["a query operator on the last condition", [cond({}, "AND"), cond({}, "OR")], "conditions[1].query_operator", "not_allowed"],
    ["a custom attribute type the key is not", [cond({ attribute_key: "seats", custom_attribute_type: "contact_attribute", filter_operator: "is_present", values: [] })], "conditions[0].attribute_key", "unsupported_key"],
  ])("refuses %s", async (_, conditions, field, code) => refused({ conditions }, field, code));

  it.each([
    ["an unknown action", [act("launch_rocket")], "actions[0].action_name", "unsupported_action"],
    ["send_attachment with a file the account lacks", [act("send_attachment", [999999])], "actions[0].action_params[0]", "not_found"],
    ["send_attachment without a file", [act("send_attachment")], "actions[0].action_params", "required"],
    ["assign_agent without an agent", [act("assign_agent")], "actions[0].action_params", "required"],
    ["assign_agent to another account's user", [act("assign_agent", [other.admin.id])], "actions[0].action_params[0]", "not_found"],
    ["assign_team to a team of another account", [act("assign_team", [999999])], "actions[0].action_params[0]", "not_found"],
    ["add_label with a blank label", [act("add_label", ["vip", "  "])], "actions[0].action_params[1]", "blank"],
    ["remove_label with a label longer than a label may be", [act("remove_label", ["x".repeat(256)])], "actions[0].action_params[0]", "too_long"],
    ["remove_label with nothing", [act("remove_label")], "actions[0].action_params", "required"],
    ["send_message without text", [act("send_message", [""])], "actions[0].action_params[0]", "blank"],
    ["send_webhook_event to a private address", [act("send_webhook_event", ["http://10.0.0.1/hook"])], "actions[0].action_params[0]", "forbidden_host"],
    ["send_webhook_event to something that is not a URL", [act("send_webhook_event", ["ftp://x"])], "actions[0].action_params[0]", "invalid_format"],
    ["change_status to an unknown status", [act("change_status", ["closed"])], "actions[0].action_params[0]", "invalid_value"],
    ["change_priority to an unknown priority", [act("change_priority", ["asap"])], "actions[0].action_params[0]", "invalid_value"],
    ["parameters for resolve_conversation", [act("resolve_conversation", ["now"])], "actions[0].action_params", "too_many"],
    ["send_email_to_team without a message", [act("send_email_to_team", [{ team_ids: [teamId] }])], "actions[0].action_params[0].message", "required"],
    ["send_email_to_team to a team of another account", [act("send_email_to_team", [{ team_ids: [999999], message: "Hi" }])], "actions[0].action_params[0].team_ids[0]", "not_found"],
    ["send_email_transcript to a bad address", [act("send_email_transcript", ["ok@example.com, not-an-address"])], "actions[0].action_params[0]", "invalid_format"],
  ])("refuses %s", async (_, actions, field, code) => refused({ actions }, field, code));

  it("takes add_label and remove_label with labels the account has no Label record for (labels are free-form tags)", async () => {
    const res = await post(`${base}/automation_rules`, admin.key, { ...valid, actions: [act("add_label", ["vip", "ghost"]), act("remove_label", ["Never Made"])] });
    expect(res.status).toBe(200);
    expect(res.body.payload[0].actions).toEqual([act("add_label", ["vip", "ghost"]), act("remove_label", ["Never Made"])]);
  });

  it.each(["public", "allow-private"])("judges a send_webhook_event receiver as an account webhook under the %s target policy", async (policy) => {
    const scope = systemScope(jobScope(createDb(await shardOf(world.accountId)), { ...env, WEBHOOK_TARGET_POLICY: policy }), world.accountId);
    const url = `http://127.0.0.1:4000/hook-${policy}`;
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => "accepted",
        (e: { errors?: Array<{ code: string }> }) => e.errors?.map((x) => x.code).join(","),
      );
    const asWebhook = await outcome(createWebhook(scope, { url }));
    const asRule = await outcome(createRule(scope, { name: `Hook ${policy}`, eventName: "conversation_created", conditions: valid.conditions, actions: [act("send_webhook_event", [url])] }));
    expect([asWebhook, asRule]).toEqual(policy === "allow-private" ? ["accepted", "accepted"] : ["forbidden_host", "forbidden_host"]);
  });

  it("reports every problem of a rule at once, and stores nothing", async () => {
    const before = (await get(`${base}/automation_rules`, admin.key)).body.payload.length;
    const res = await post(`${base}/automation_rules`, admin.key, {
      ...valid,
      conditions: [cond({ filter_operator: "bogus" }, "AND"), cond({ attribute_key: "nope" })],
      actions: [act("assign_agent", ["x"]), act("launch_rocket")],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.field).sort()).toEqual(
      ["actions[0].action_params[0]", "actions[1].action_name", "conditions[0].filter_operator", "conditions[1].attribute_key"].sort(),
    );
    expect((await get(`${base}/automation_rules`, admin.key)).body.payload.length).toBe(before);
  });

  it("checks an update against the whole rule", async () => {
    const rule = (await post(`${base}/automation_rules`, admin.key, valid)).body.payload[0];
    const res = await patch(`${base}/automation_rules/${rule.id}`, admin.key, { conditions: [cond({ values: ["closed"] })] });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe("conditions[0].values[0]");
    expect((await get(`${base}/automation_rules/${rule.id}`, admin.key)).body.payload.conditions).toEqual(rule.conditions);
  });

  it("accepts every operator on a key that takes it, custom attributes included", async () => {
    const res = await post(`${base}/automation_rules`, admin.key, {
      ...valid,
      conditions: [
        cond({ attribute_key: "phone_number", filter_operator: "starts_with", values: ["+49"] }, "OR"),
        cond({ attribute_key: "assignee_id", filter_operator: "is_present", values: [] }, "or"),
        cond({ attribute_key: "team_id", filter_operator: "is_not_present" }, "AND"),
        cond({ attribute_key: "seats", filter_operator: "is_greater_than", values: [10] }, "AND"),
        cond({ attribute_key: "mail_subject", filter_operator: "does_not_contain", values: ["spam"] }, "AND"),
        cond({ attribute_key: "labels", filter_operator: "equal_to", values: ["VIP"] }, "AND"),
        cond({ attribute_key: "priority", filter_operator: "attribute_changed", values: { from: [null], to: ["urgent"] } }, "AND"),
        cond({ attribute_key: "assignee_id", filter_operator: "not_equal_to", values: [agent.id] }),
      ],
      actions: [
        act("assign_agent", ["nil"]),
        act("assign_team", [0]),
        act("change_priority", ["nil"]),
        act("send_webhook_event", ["https://hooks.example.com/automation"]),
        act("send_email_transcript", ["{{contact.email}}, boss@example.com"]),
        act("send_email_to_team", [{ team_ids: [teamId], message: "Look" }]),
        act("mute_conversation"),
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
