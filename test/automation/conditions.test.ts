/**
 * Condition evaluation on its own: every operator on a key that takes it, SQL precedence (AND before OR),
 * attribute_changed against an event's changed_attributes, and message rows.
 */
import type { StoredAttachment } from "../../drizzle/schema";
import { describe, expect, it } from "vitest";
import { combine, ruleMatches, type EvaluationContext } from "../../src/domain/automation/conditions";
import type { Condition } from "../../src/domain/automation/rows";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse("2026-11-23T12:00:00Z");

const conversation = {
  id: 7,
  accountId: 1,
  displayId: 3,
  uuid: "u",
  inboxId: 11,
  contactId: 21,
  contactInboxId: 31,
  assigneeId: 41,
  assigneeAgentBotId: null,
  teamId: null,
  campaignId: null,
  status: 0,
  priority: 2,
  snoozedUntil: null,
  waitingSince: null,
  firstReplyCreatedAt: null,
  agentLastSeenAt: null,
  assigneeLastSeenAt: null,
  contactLastSeenAt: null,
  lastActivityAt: NOW,
  additionalAttributes: { browser_language: "de", referer: "https://shop.example/checkout", mail_subject: "Refund for order 42" },
  customAttributes: { seats: 12, renewal: "2026-11-01", plan_tier: "gold", trial: true },
  slaPolicyId: null,
  createdAt: NOW - DAY,
  updatedAt: NOW,
};
const contact = {
  id: 21,
  accountId: 1,
  name: "Casey",
  email: "casey@bigcorp.com",
  phoneNumber: "+4915112345",
  identifier: null,
  blocked: false,
  avatarUrl: null,
  additionalAttributes: { city: "Berlin", company_name: "BigCorp" },
  customAttributes: { tier: "enterprise" },
  lastActivityAt: null,
  resolved: true,
  nameSort: null,
  companySort: null,
  citySort: null,
  countrySort: null,
  createdAt: 0,
  updatedAt: 0,
};
const message = (content: string, messageType = 0, isPrivate = false) =>
  ({ id: Math.random(), accountId: 1, inboxId: 11, conversationId: 7, messageType, contentType: 0, content, processedMessageContent: content, private: isPrivate, status: 0, sourceId: null, senderType: null, senderId: null, contentAttributes: {}, additionalAttributes: {}, externalSourceIds: {}, sentiment: {}, campaignId: null, echoId: null, attachments: [] as StoredAttachment[], createdAt: NOW, updatedAt: NOW }) as const;

const definition = (attributeKey: string, attributeDisplayType: number, attributeModel = 0, attributeValues: string[] = []) => ({
  id: Math.random(),
  accountId: 1,
  attributeDisplayName: attributeKey,
  attributeDisplayType,
  attributeDescription: null,
  attributeKey,
  attributeValues,
  attributeModel,
  defaultValue: null,
  regexPattern: null,
  regexCue: null,
  createdAt: 0,
  updatedAt: 0,
});

function context(over: Partial<EvaluationContext> = {}): EvaluationContext {
  return {
    conversation: conversation as never,
    contact: contact as never,
    labels: ["vip", "billing"],
    messages: [],
    changedAttributes: null,
    definitions: [definition("seats", 1), definition("renewal", 5), definition("plan_tier", 6, 0, ["gold", "silver"]), definition("trial", 7), definition("tier", 0, 1)] as never,
    now: NOW,
    ...over,
  };
}

const c = (attribute_key: string, filter_operator: string, values: unknown, query_operator: "AND" | "OR" | null = null): Condition =>
  ({ attribute_key, filter_operator, values, query_operator }) as Condition;
const one = (condition: Condition, over: Partial<EvaluationContext> = {}) => ruleMatches([condition], context(over));

describe("operators", () => {
  it.each([
    // [key, operator, values, expected]
    ["status", "equal_to", ["open"], true],
    ["status", "equal_to", ["resolved", "pending"], false],
    ["status", "not_equal_to", ["resolved"], true],
    ["status", "not_equal_to", ["open"], false],
    ["priority", "equal_to", ["high"], true],
    ["priority", "equal_to", ["nil"], false],
    ["priority", "not_equal_to", ["high"], false],
    ["assignee_id", "equal_to", [41], true],
    ["assignee_id", "equal_to", ["41"], true],
    ["assignee_id", "not_equal_to", [41], false],
    ["assignee_id", "is_present", [], true],
    ["assignee_id", "is_not_present", [], false],
    ["team_id", "is_present", [], false],
    ["team_id", "is_not_present", [], true],
    ["team_id", "not_equal_to", [5], true],
    ["inbox_id", "equal_to", [11, 12], true],
    ["labels", "equal_to", ["VIP"], true],
    ["labels", "equal_to", ["spam"], false],
    ["labels", "not_equal_to", ["spam"], true],
    ["labels", "not_equal_to", ["billing"], false],
    ["labels", "is_present", [], true],
    ["browser_language", "equal_to", ["DE"], true],
    ["conversation_language", "equal_to", ["de"], false],
    ["conversation_language", "not_equal_to", ["de"], true],
    ["referer", "contains", ["CHECKOUT"], true],
    ["referer", "does_not_contain", ["checkout"], false],
    ["mail_subject", "contains", ["invoice", " refund "], true],
    ["mail_subject", "does_not_contain", ["invoice", "spam"], true],
    ["email", "equal_to", ["Casey@BigCorp.com"], true],
    ["email", "contains", ["@bigcorp.com"], true],
    ["email", "does_not_contain", ["@bigcorp.com"], false],
    ["phone_number", "starts_with", ["+49"], true],
    ["phone_number", "starts_with", ["+33"], false],
    ["phone_number", "contains", ["1234"], true],
    ["city", "equal_to", ["berlin"], true],
    ["company_name", "contains", ["corp"], true],
    ["company", "contains", ["corp"], true],
    ["seats", "is_greater_than", [10], true],
    ["seats", "is_greater_than", [12], false],
    ["seats", "is_less_than", [13], true],
    ["seats", "equal_to", ["12"], true],
    ["renewal", "is_greater_than", ["2026-10-31"], true],
    ["renewal", "is_less_than", ["2026-10-31"], false],
    ["renewal", "days_before", [7], true],
    ["renewal", "days_before", [30], false],
    ["renewal", "equal_to", ["2026-11-01"], true],
    ["plan_tier", "equal_to", ["gold"], true],
    ["plan_tier", "not_equal_to", ["gold"], false],
    ["trial", "equal_to", [true], true],
    ["trial", "equal_to", ["false"], false],
    ["tier", "is_present", [], true],
    ["tier", "contains", ["enter"], true],
    ["unknown_thing", "equal_to", ["x"], false],
  ])("%s %s %j is %s", (key, operator, values, expected) => {
    expect(one(c(key, operator, values))).toBe(expected);
  });

  it("reads a missing value as absent: present is false, not_equal_to and does_not_contain hold", () => {
    const bare = { ...conversation, additionalAttributes: {}, priority: null };
    expect(one(c("referer", "is_present", []), { conversation: bare as never })).toBe(false);
    expect(one(c("referer", "does_not_contain", ["x"]), { conversation: bare as never })).toBe(true);
    expect(one(c("priority", "not_equal_to", ["high"]), { conversation: bare as never })).toBe(true);
    expect(one(c("priority", "equal_to", ["nil"]), { conversation: bare as never })).toBe(true);
    expect(one(c("email", "contains", ["@"]), { contact: null })).toBe(false);
  });
});

describe("message keys", () => {
  it("test content and message type on the same message row", () => {
    const rows = [message("hello there", 1), message("I want a REFUND", 0)];
    expect(one(c("content", "contains", ["refund"]), { messages: rows })).toBe(true);
    expect(one(c("content", "equal_to", ["i want a refund"]), { messages: rows })).toBe(true);
    // content and type must hold for one and the same message
    const sameRow = [c("content", "contains", ["refund"], "AND"), c("message_type", "equal_to", ["outgoing"])];
    expect(ruleMatches(sameRow, context({ messages: rows }))).toBe(false);
    const incoming = [c("content", "contains", ["refund"], "AND"), c("message_type", "equal_to", ["incoming"])];
    expect(ruleMatches(incoming, context({ messages: rows }))).toBe(true);
    expect(one(c("private_note", "equal_to", [true]), { messages: [message("note", 1, true)] })).toBe(true);
    expect(one(c("content", "is_present", []), { messages: [] })).toBe(false);
  });
});

describe("AND binds tighter than OR", () => {
  const T = c("status", "equal_to", ["open"]);
  const F = c("status", "equal_to", ["resolved"]);
  const seq = (...terms: Array<Condition | "AND" | "OR">) => {
    const out: Condition[] = [];
    for (const t of terms) if (typeof t === "string") out[out.length - 1] = { ...out[out.length - 1], query_operator: t };
    else out.push({ ...t, query_operator: null });
    return out;
  };

  it("A AND B OR C is (A AND B) OR C", () => {
    expect(ruleMatches(seq(F, "AND", F, "OR", T), context())).toBe(true); // left to right would be (F AND F) OR T too
    expect(ruleMatches(seq(T, "OR", F, "AND", F), context())).toBe(true); // left to right: (T OR F) AND F = false
    expect(ruleMatches(seq(F, "OR", T, "AND", F), context())).toBe(false);
    expect(ruleMatches(seq(F, "AND", T, "OR", T, "AND", F), context())).toBe(false);
    expect(ruleMatches(seq(T, "AND", T, "OR", F, "AND", F), context())).toBe(true);
  });

  it("combine groups at each OR", () => {
    const ops = (...q: Array<"AND" | "OR" | null>) => q.map((query_operator) => ({ query_operator }));
    expect(combine(ops("OR", "AND", null), (i) => [true, false, false][i])).toBe(true);
    expect(combine(ops("AND", "OR", null), (i) => [true, false, false][i])).toBe(false);
    expect(combine(ops(null), () => false)).toBe(false);
  });
});

describe("attribute_changed", () => {
  const change = (key: string, previous_value: unknown, current_value: unknown) => ({ changedAttributes: [{ [key]: { previous_value, current_value } }, { updated_at: { previous_value: "a", current_value: "b" } }] });

  it("matches when the previous value is in from and the current value in to", () => {
    const condition = c("status", "attribute_changed", { from: ["open"], to: ["resolved", "pending"] });
    expect(one(condition, change("status", "open", "resolved"))).toBe(true);
    expect(one(condition, change("status", "pending", "resolved"))).toBe(false);
    expect(one(condition, change("status", "open", "snoozed"))).toBe(false);
    expect(one(c("status", "attribute_changed", { from: [], to: ["resolved"] }), change("status", "snoozed", "resolved"))).toBe(true);
  });

  it("is never true without the key's change or without changed_attributes", () => {
    const condition = c("status", "attribute_changed", { from: [], to: [] });
    expect(one(condition)).toBe(false);
    expect(one(condition, change("priority", null, "high"))).toBe(false);
  });

  it("reads null as none, labels as intersecting lists, and custom attributes inside custom_attributes", () => {
    expect(one(c("priority", "attribute_changed", { from: [null], to: ["urgent"] }), change("priority", null, "urgent"))).toBe(true);
    expect(one(c("assignee_id", "attribute_changed", { from: [41], to: [null] }), change("assignee_id", 41, null))).toBe(true);
    expect(one(c("labels", "attribute_changed", { from: [null], to: ["vip"] }), change("label_list", [], ["vip", "x"]))).toBe(true);
    expect(one(c("labels", "attribute_changed", { from: [], to: ["vip"] }), change("label_list", ["x"], ["x"]))).toBe(false);
    const custom = change("custom_attributes", { seats: 5 }, { seats: 12 });
    expect(one(c("seats", "attribute_changed", { from: [5], to: [12] }), custom)).toBe(true);
    expect(one(c("seats", "attribute_changed", { from: [], to: [] }), change("custom_attributes", { seats: 5, x: 1 }, { seats: 5, x: 2 }))).toBe(false);
  });

  it("takes its place in the expression like any other term", () => {
    const changed = change("status", "open", "resolved");
    const rule = [c("status", "attribute_changed", { from: ["open"], to: ["resolved"] }, "AND"), c("labels", "equal_to", ["nope"], "OR"), c("email", "contains", ["bigcorp"])];
    expect(ruleMatches(rule, context(changed))).toBe(true);
    const strict = [c("status", "attribute_changed", { from: ["open"], to: ["resolved"] }, "AND"), c("labels", "equal_to", ["nope"])];
    expect(ruleMatches(strict, context(changed))).toBe(false);
  });
});
