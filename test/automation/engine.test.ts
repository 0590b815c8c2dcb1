/**
 * The engine on the real events queue: rules run on the events they name, their actions change the
 * conversation through the same domain functions as the routes (events, activity messages), their own
 * changes never trigger rules, a redelivered event acts once, and a failing action is recorded and skipped.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDb } from "../../src/db/client";
import { runAutomationForEvent } from "../../src/jobs/automation";
import { hmacSha256Hex } from "../../src/domain/identity/keys";
import { addInboxMember, createContact, createTeam } from "../support/fixtures";
import { get, post } from "../support/http";
import { createWorld } from "../support/world";
import { shardOf } from "../support/databases";

afterEach(() => vi.restoreAllMocks());

async function setup(name: string) {
  const world = await createWorld(name);
  const { base, admin } = world;
  const inbox = (await post(`${base}/inboxes`, admin.key, { name: "Support", channel: { type: "api" } })).body;
  await post(`${base}/labels`, admin.key, { title: "vip" });
  await post(`${base}/labels`, admin.key, { title: "billing" });
  const contactId = await createContact(world.accountId, { name: "Casey", email: `casey.${Math.random()}@bigcorp.com` });
  const teamId = await createTeam(world.accountId, "Tier 2", [world.agent.id]);
  const rule = async (body: Record<string, unknown>) => {
    const res = await post(`${base}/automation_rules`, admin.key, { name: "Rule", event_name: "conversation_created", ...body });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return res.body.payload[0];
  };
  const conversation = async (extra: Record<string, unknown> = {}) => {
    const res = await post(`${base}/conversations`, admin.key, { inbox_id: inbox.id, contact_id: contactId, ...extra });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return res.body.id as number;
  };
  const show = async (displayId: number) => (await get(`${base}/conversations/${displayId}`, admin.key)).body;
  const messages = async (displayId: number) => (await get(`${base}/conversations/${displayId}/messages`, admin.key)).body.payload as any[];
  return { ...world, inbox, contactId, teamId, rule, conversation, show, messages };
}

const until = (check: () => Promise<boolean>) => vi.waitUntil(check, { timeout: 10_000, interval: 50 });
const always = { attribute_key: "status", filter_operator: "equal_to", values: ["open", "resolved", "pending", "snoozed"], query_operator: null };

/** Rows of the account's shard (its rules, runs, conversations and outbox live there). */
async function rows<T = any>(accountId: number, query: string, ...values: unknown[]) {
  return (await (await shardOf(accountId)).prepare(query).bind(...values).all<T>()).results;
}
const runsOf = (accountId: number, ruleId: number) => rows<{ account_id: number; event_id: number; actions_done: number; finished: number; outcomes: string }>(accountId, "SELECT * FROM automation_rule_runs WHERE rule_id = ? ORDER BY id", ruleId);
const conversationRow = async (accountId: number, displayId: number) => (await rows<{ id: number }>(accountId, "SELECT id FROM conversations WHERE account_id = ? AND display_id = ?", accountId, displayId))[0].id;
const outboxOf = (accountId: number, conversationId: number) =>
  rows<{ id: number; event_name: string; data: string; caused_by_automation: number }>(accountId, "SELECT * FROM event_outbox WHERE subject_type = 'Conversation' AND subject_id = ? ORDER BY id", conversationId);

describe("a matching rule's actions", () => {
  it("change the conversation as the rule, with the rule in events and messages", async () => {
    const s = await setup("Actions Co");
    const rule = await s.rule({
      name: "Welcome big customers",
      conditions: [
        { attribute_key: "email", filter_operator: "contains", values: ["@BIGCORP.com"], query_operator: "AND" },
        { attribute_key: "status", filter_operator: "equal_to", values: ["open"] },
      ],
      actions: [
        { action_name: "add_label", action_params: ["vip"] },
        { action_name: "assign_team", action_params: [s.teamId] },
        { action_name: "change_priority", action_params: ["high"] },
        { action_name: "send_message", action_params: ["Thanks, we are on it"] },
        { action_name: "add_private_note", action_params: ["Big customer"] },
      ],
    });
    const id = await s.conversation();
    await until(async () => (await runsOf(s.accountId, rule.id)).some((r) => r.finished));
    const conversation = await s.show(id);
    expect(conversation).toMatchObject({ labels: ["vip"], priority: "high", meta: { team: { id: s.teamId } } });
    // an automation message is no person's first reply
    const stored = await rows(s.accountId, "SELECT first_reply_created_at FROM conversations WHERE id = ?", await conversationRow(s.accountId, id));
    expect(stored[0].first_reply_created_at).toBeNull();
    const sent = (await s.messages(id)).filter((m) => m.content_attributes?.automation_rule_id === rule.id);
    expect(sent.map((m) => [m.content, m.private, m.sender_type])).toEqual([
      ["Thanks, we are on it", false, null],
      ["Big customer", true, null],
    ]);

    const events = await outboxOf(s.accountId, await conversationRow(s.accountId, id));
    const byRule = events.filter((e) => JSON.parse(e.data).performer?.type === "AutomationRule");
    expect(byRule.length).toBeGreaterThanOrEqual(3);
    for (const e of byRule) {
      expect(JSON.parse(e.data).performer).toEqual({ type: "AutomationRule", id: rule.id, name: "Welcome big customers" });
      expect(e.caused_by_automation).toBe(1);
    }
    const changes = byRule.flatMap((e) => JSON.parse(e.data).changed_attributes ?? []).flatMap((c: object) => Object.keys(c));
    expect(changes).toEqual(expect.arrayContaining(["label_list", "team_id", "priority"]));
    expect(JSON.parse((await runsOf(s.accountId, rule.id))[0].outcomes)).toEqual(rule.actions.map((a: any) => ({ action_name: a.action_name, status: "done" })));
  });

  it("move the status and mute, each with its activity message naming the rule", async () => {
    const s = await setup("Status Co");
    const rule = await s.rule({
      name: "Churn",
      conditions: [always],
      actions: [
        { action_name: "assign_agent", action_params: [s.admin.id] },
        { action_name: "add_label", action_params: ["vip", "billing"] },
        { action_name: "remove_label", action_params: ["billing"] },
        { action_name: "snooze_conversation", action_params: [] },
        { action_name: "pending_conversation", action_params: [] },
        { action_name: "open_conversation", action_params: [] },
        { action_name: "change_status", action_params: ["resolved"] },
        { action_name: "mute_conversation", action_params: [] },
      ],
    });
    const id = await s.conversation();
    await until(async () => (await runsOf(s.accountId, rule.id)).some((r) => r.finished));
    const conversation = await s.show(id);
    expect(conversation).toMatchObject({ status: "resolved", labels: ["vip"], muted: true, meta: { assignee: { id: s.admin.id } } });
    const activities = (await s.messages(id)).filter((m) => m.message_type === 2).map((m) => m.content);
    expect(activities).toEqual([
      "Conversation was snoozed by Churn",
      "Conversation was marked as pending by Churn",
      "Conversation was reopened by Churn",
      "Conversation was marked resolved by Churn",
      "Churn has muted the conversation",
    ]);
  });

  it("add and remove labels that have no Label record, as conversation labels take them", async () => {
    const s = await setup("Free Labels Co");
    const rule = await s.rule({
      conditions: [always],
      actions: [
        { action_name: "add_label", action_params: ["from-sdk", "Unplanned", "vip"] },
        { action_name: "remove_label", action_params: ["vip"] },
      ],
    });
    const id = await s.conversation();
    await until(async () => (await runsOf(s.accountId, rule.id)).some((r) => r.finished));
    expect((await s.show(id)).labels).toEqual(["from-sdk", "unplanned"]);
    // no Label record was made for them
    expect((await get(`${s.base}/labels`, s.admin.key)).body.payload.map((l: { title: string }) => l.title).sort()).toEqual(["billing", "vip"]);
  });

  it("unassign, clear the priority, and write the two emails to the outgoing-email table", async () => {
    const s = await setup("Email Co");
    const rule = await s.rule({
      conditions: [always],
      actions: [
        { action_name: "change_priority", action_params: ["urgent"] },
        { action_name: "change_priority", action_params: ["nil"] },
        { action_name: "assign_team", action_params: [s.teamId] },
        { action_name: "remove_assigned_team", action_params: [] },
        { action_name: "remove_assigned_agent", action_params: [] },
        { action_name: "send_email_to_team", action_params: [{ team_ids: [s.teamId], message: "Please look at this one" }] },
        { action_name: "send_email_transcript", action_params: ["{{contact.email}}, Boss@Example.com"] },
      ],
    });
    const id = await s.conversation({ assignee_id: s.admin.id, message: { content: "Hello from the desk" } });
    await until(async () => (await runsOf(s.accountId, rule.id)).some((r) => r.finished));
    const conversation = await s.show(id);
    expect(conversation.priority).toBeNull();
    expect(conversation.meta.assignee).toBeUndefined();
    expect(conversation.meta.team).toBeUndefined();
    const emails = await rows(s.accountId, "SELECT kind, recipients, subject, body, status, automation_rule_id FROM outgoing_emails WHERE account_id = ? ORDER BY id", s.accountId);
    const contactEmail = (await rows<{ email: string }>(s.accountId, "SELECT email FROM contacts WHERE id = ?", s.contactId))[0].email;
    expect(emails).toHaveLength(2);
    expect(emails[0]).toMatchObject({ kind: "team_notification", recipients: JSON.stringify([s.agent.email]), body: "Please look at this one", status: "pending", automation_rule_id: rule.id });
    expect(emails[1]).toMatchObject({ kind: "transcript", recipients: JSON.stringify([contactEmail, "boss@example.com"]), status: "pending" });
    expect(emails[1].body).toMatch(/^\[\d{4}-\d\d-\d\dT[^\]]+\] Email Co Admin: Hello from the desk$/);
  });

  it("post send_webhook_event signed with the rule's secret, with Chatwoot's automation event name", async () => {
    const s = await setup("Webhook Co");
    const seen: Array<{ url: string; headers: Headers; body: string }> = [];
    vi.spyOn(globalThis, "fetch").mockImplementation((async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      seen.push({ url: request.url, headers: request.headers, body: await request.text() });
      return new Response(null, { status: 200 });
    }) as typeof fetch);
    const rule = await s.rule({ conditions: [always], actions: [{ action_name: "send_webhook_event", action_params: ["https://hooks.example/automation"] }] });
    const id = await s.conversation();
    // other files' late deliveries may pass through the spy too (the test isolate is shared)
    const posted = () => seen.filter((request) => request.url === "https://hooks.example/automation");
    await until(async () => posted().length >= 1);
    const [hook] = posted();
    const payload = JSON.parse(hook.body);
    expect(payload).toMatchObject({ event: "automation_event.conversation_created", id, inbox_id: s.inbox.id });
    const timestamp = hook.headers.get("x-chatwoot-timestamp");
    expect(hook.headers.get("x-chatwoot-signature")).toBe(`sha256=${await hmacSha256Hex(rule.webhook_secret, `${timestamp}.${hook.body}`)}`);
  });
});

describe("what a rule does not do", () => {
  it("re-trigger itself or other rules with its own changes (no loops), though the changes are events", async () => {
    const s = await setup("Loop Co");
    const onUpdate = { event_name: "conversation_updated", conditions: [always] };
    const first = await s.rule({ ...onUpdate, actions: [{ action_name: "add_label", action_params: ["vip"] }, { action_name: "change_priority", action_params: ["low"] }] });
    const second = await s.rule({ ...onUpdate, actions: [{ action_name: "change_priority", action_params: ["medium"] }] });
    const id = await s.conversation();
    await post(`${s.base}/conversations/${id}/toggle_priority`, s.admin.key, { priority: "urgent" });
    await until(async () => (await runsOf(s.accountId, second.id)).some((r) => r.finished));
    // give any looping event time to come round
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await runsOf(s.accountId, first.id)).toHaveLength(1);
    expect(await runsOf(s.accountId, second.id)).toHaveLength(1);
    // the second rule saw the first one's change (rules run in id order on the current conversation)
    expect((await s.show(id)).priority).toBe("medium");
    const events = await outboxOf(s.accountId, await conversationRow(s.accountId, id));
    expect(events.filter((e) => e.caused_by_automation === 1 && e.event_name === "conversation_updated").length).toBeGreaterThanOrEqual(3);
  });

  it("run when inactive, when its conditions do not hold, or for another account's events", async () => {
    const s = await setup("Quiet Co");
    const neighbour = await setup("Neighbour Co");
    const inactive = await s.rule({ active: false, conditions: [always], actions: [{ action_name: "add_label", action_params: ["billing"] }] });
    const unmatched = await s.rule({ conditions: [{ attribute_key: "email", filter_operator: "contains", values: ["@elsewhere.org"] }], actions: [{ action_name: "resolve_conversation", action_params: [] }] });
    const sentinel = await s.rule({ conditions: [always], actions: [{ action_name: "add_label", action_params: ["vip"] }] });
    const theirs = await neighbour.rule({ conditions: [always], actions: [{ action_name: "add_label", action_params: ["vip"] }] });
    const id = await s.conversation();
    await until(async () => (await runsOf(s.accountId, sentinel.id)).some((r) => r.finished));
    expect(await runsOf(s.accountId, inactive.id)).toEqual([]);
    expect(await runsOf(s.accountId, unmatched.id)).toEqual([]);
    expect([...(await runsOf(s.accountId, theirs.id)), ...(await runsOf(neighbour.accountId, theirs.id))]).toEqual([]);
    expect(await s.show(id)).toMatchObject({ labels: ["vip"], status: "open" });
  });
});

describe("delivery and failures", () => {
  it("acts once when the same event is delivered again, and resumes an interrupted run after its last action", async () => {
    const s = await setup("Redelivery Co");
    const rule = await s.rule({
      conditions: [always],
      actions: [
        { action_name: "send_message", action_params: ["one"] },
        { action_name: "send_message", action_params: ["two"] },
      ],
    });
    const id = await s.conversation();
    await until(async () => (await runsOf(s.accountId, rule.id)).some((r) => r.finished));
    const [run] = await runsOf(s.accountId, rule.id);
    const contents = async () => (await s.messages(id)).filter((m) => m.content_attributes?.automation_rule_id).map((m) => m.content);
    expect(await contents()).toEqual(["one", "two"]);

    const db = createDb(await shardOf(s.accountId));
    await runAutomationForEvent(db, env, { accountId: run.account_id, eventId: run.event_id });
    await runAutomationForEvent(db, env, { accountId: run.account_id, eventId: run.event_id });
    expect(await contents()).toEqual(["one", "two"]);
    expect(await runsOf(s.accountId, rule.id)).toHaveLength(1);

    // as if the worker stopped after the first action's batch
    await (await shardOf(s.accountId)).prepare("UPDATE automation_rule_runs SET actions_done = 1, finished = 0 WHERE id = (SELECT id FROM automation_rule_runs WHERE rule_id = ?)").bind(rule.id).run();
    await runAutomationForEvent(db, env, { accountId: run.account_id, eventId: run.event_id });
    expect(await contents()).toEqual(["one", "two", "two"]);
    expect((await runsOf(s.accountId, rule.id))[0]).toMatchObject({ actions_done: 2, finished: 1 });
  });

  it("records a failing action and still runs the others", async () => {
    const s = await setup("Failure Co");
    // the agent belongs to the account but not to the inbox, so the assignment is refused
    const rule = await s.rule({
      conditions: [always],
      actions: [
        { action_name: "assign_agent", action_params: [s.agent.id] },
        { action_name: "add_label", action_params: ["vip"] },
      ],
    });
    const id = await s.conversation();
    await until(async () => (await runsOf(s.accountId, rule.id)).some((r) => r.finished));
    expect(await s.show(id)).toMatchObject({ labels: ["vip"] });
    expect((await s.show(id)).meta.assignee).toBeUndefined();
    const outcomes = JSON.parse((await runsOf(s.accountId, rule.id))[0].outcomes);
    expect(outcomes[0]).toMatchObject({ action_name: "assign_agent", status: "failed", error: expect.stringContaining("not a member of the conversation's inbox") });
    expect(outcomes[1]).toEqual({ action_name: "add_label", status: "done" });

    // once the agent joins the inbox, the same rule assigns them
    await addInboxMember(s.accountId, s.inbox.id, s.agent.id);
    const next = await s.conversation();
    await until(async () => (await runsOf(s.accountId, rule.id)).filter((r) => r.finished).length === 2);
    expect((await s.show(next)).meta.assignee).toMatchObject({ id: s.agent.id });
  });

  it("evaluates message_created rules on the triggering message", async () => {
    const s = await setup("Message Co");
    const rule = await s.rule({
      event_name: "message_created",
      conditions: [
        { attribute_key: "message_type", filter_operator: "equal_to", values: ["incoming"], query_operator: "AND" },
        { attribute_key: "content", filter_operator: "contains", values: ["refund"] },
      ],
      actions: [{ action_name: "add_label", action_params: ["billing"] }, { action_name: "resolve_conversation", action_params: [] }],
    });
    const id = await s.conversation();
    await post(`${s.base}/conversations/${id}/messages`, s.admin.key, { content: "About your refund", message_type: "outgoing" });
    await post(`${s.base}/conversations/${id}/messages`, s.admin.key, { content: "hello", message_type: "incoming" });
    await post(`${s.base}/conversations/${id}/messages`, s.admin.key, { content: "I want a REFUND", message_type: "incoming" });
    await until(async () => (await runsOf(s.accountId, rule.id)).some((r) => r.finished));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await runsOf(s.accountId, rule.id)).toHaveLength(1);
    expect(await s.show(id)).toMatchObject({ labels: ["billing"], status: "resolved" });
  });
});
