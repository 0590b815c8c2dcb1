/**
 * Findings 6, 7, 8 and 11 of an outside attacker's report: a slow custom-attribute pattern, a 500 on a
 * huge filter number, agents merging (deleting) contacts, and server-owned message fields a client could
 * set. Each refusal is the error body with a stable code, and the database shows nothing changed.
 */
import { describe, expect, it } from "vitest";
import { get, post } from "../support/http";
import { createWorld } from "../support/world";
import { shardOf } from "../support/databases";
import { addInboxMember, createContact, createInbox } from "../support/fixtures";
import { insertContactAttributeDefinition } from "../support/contact-fixtures";
import { publicInbox } from "../public/widget-support";

const world = await createWorld("Reported");
const inboxId = await createInbox(world.accountId);
await addInboxMember(world.accountId, inboxId, world.agent.id);

/** A count on the shard of the account whose rows it reads. */
const count = async (accountId: number, sql: string, ...binds: unknown[]) =>
  (await (await shardOf(accountId)).prepare(sql).bind(...binds).first<{ n: number }>())!.n;

const CATASTROPHIC = "^(?:(?:a|a){20}){20}$";

describe("finding 6: slow custom attribute patterns", () => {
  it("refuses a pattern of nested bounded repeats, naming regex_pattern, and stores nothing", async () => {
    const before = await count(world.accountId, "SELECT count(*) AS n FROM custom_attribute_definitions WHERE account_id = ?", world.accountId);
    const res = await post(`${world.base}/custom_attribute_definitions`, world.admin.key, {
      attribute_display_name: "Nested",
      attribute_key: "nested",
      attribute_model: "contact_attribute",
      regex_pattern: CATASTROPHIC,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: "regex_pattern", message: expect.stringContaining("too long to match"), code: "slow_regex" }]);
    expect(await count(world.accountId, "SELECT count(*) AS n FROM custom_attribute_definitions WHERE account_id = ?", world.accountId)).toBe(before);
  });

  it("does not run a catastrophic pattern saved before the check: an anonymous contact create answers at once", async () => {
    const w = await createWorld("Stored pattern");
    const inbox = await publicInbox(w.accountId);
    await insertContactAttributeDefinition(w.accountId, { key: "code", displayType: 0, regexPattern: CATASTROPHIC });
    const contactsBefore = await count(w.accountId, "SELECT count(*) AS n FROM contacts WHERE account_id = ?", w.accountId);
    // 31 characters: the pattern could need them, but its cost is past the budget; 1,500: longer than
    // anything the anchored pattern matches, a mismatch without running it
    for (const [value, code] of [["a".repeat(31), "pattern_unusable"], ["a".repeat(1500), "pattern_mismatch"]]) {
      const started = performance.now();
      const res = await post(`${inbox.base}/contacts`, null, { name: "Visitor", custom_attributes: { code: value } });
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ field: "custom_attributes.code", message: expect.any(String), code }]);
    }
    expect(await count(w.accountId, "SELECT count(*) AS n FROM contacts WHERE account_id = ?", w.accountId)).toBe(contactsBefore);
  });
});

describe("finding 7: numbers out of range in filters", () => {
  const cond = (attribute_key: string, filter_operator: string, values: unknown[], extra: Record<string, unknown> = {}) => ({
    attribute_key,
    filter_operator,
    values,
    query_operator: null,
    ...extra,
  });

  it("answers a 422 naming the value for days_before 1e9 on a contact date attribute", async () => {
    await insertContactAttributeDefinition(world.accountId, { key: "renewal", displayType: 5 });
    const res = await post(`${world.base}/contacts/filter`, world.agent.key, { payload: [cond("renewal", "days_before", [1e9])] });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: "payload[0].values[0]", message: expect.stringContaining("36500"), code: "out_of_range" }]);
  });

  it.each([
    ["days_before on created_at", cond("created_at", "days_before", [1e306])],
    ["days_before as a long text", cond("last_activity_at", "days_before", ["9".repeat(40)])],
    ["a time past the calendar", cond("created_at", "is_greater_than", [1e300])],
  ])("contacts filter: %s is a 422 on the value", async (_, condition) => {
    const res = await post(`${world.base}/contacts/filter`, world.agent.key, { payload: [condition] });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: "payload[0].values[0]", message: expect.any(String), code: "out_of_range" }]);
  });

  it.each([
    ["days_before on created_at", cond("created_at", "days_before", [1e306])],
    ["days_before as a long text", cond("last_activity_at", "days_before", ["9".repeat(40)])],
    ["days_before 1e9", cond("created_at", "days_before", [1e9])],
    ["a time past the calendar", cond("created_at", "is_less_than", ["9".repeat(30)])],
    ["an id past the safe integers", cond("assignee_id", "equal_to", [1, 1e300])],
  ])("conversations filter: %s is a 422 on the value", async (_, condition) => {
    const res = await post(`${world.base}/conversations/filter`, world.agent.key, { payload: [condition] });
    expect(res.status).toBe(422);
    const at = (condition.values as unknown[]).length - 1;
    expect(res.body.errors).toEqual([{ field: `payload[0].values[${at}]`, message: expect.any(String), code: "out_of_range" }]);
  });

  it("still answers days_before within range", async () => {
    const contacts = await post(`${world.base}/contacts/filter`, world.agent.key, { payload: [cond("renewal", "days_before", [36_500])] });
    expect(contacts.status).toBe(200);
    const conversations = await post(`${world.base}/conversations/filter`, world.agent.key, { payload: [cond("created_at", "days_before", [36_500])] });
    expect(conversations.status).toBe(200);
  });
});

describe("finding 8: merging contacts deletes one, so it is an administrator's right", () => {
  it("refuses an agent with a 403 and changes nothing; an administrator merges", async () => {
    const base = await createContact(world.accountId, { name: "Base" });
    const mergee = await createContact(world.accountId, { name: "Mergee" });
    const res = await post(`${world.base}/actions/contact_merge`, world.agent.key, { base_contact_id: base, mergee_contact_id: mergee });
    expect(res.status).toBe(403);
    expect(res.body.errors).toEqual([{ field: "", message: expect.any(String), code: "administrator_required" }]);
    expect((await get(`${world.base}/contacts/${mergee}`, world.admin.key)).status).toBe(200);
    expect((await get(`${world.base}/contacts/${base}`, world.admin.key)).body.payload.name).toBe("Base");

    const merged = await post(`${world.base}/actions/contact_merge`, world.admin.key, { base_contact_id: base, mergee_contact_id: mergee });
    expect(merged.status).toBe(200);
    expect((await get(`${world.base}/contacts/${mergee}`, world.admin.key)).status).toBe(404);
  });
});

const contactId = await createContact(world.accountId);

describe("finding 11: fields the server owns on a message", () => {
  const open = async () => (await post(`${world.base}/conversations`, world.admin.key, { inbox_id: inboxId, contact_id: contactId })).body.id as number;
  const messagesOf = (id: number) => `${world.base}/conversations/${id}/messages`;
  const messageCount = (displayId: number) =>
    count(
      world.accountId,
      "SELECT count(*) AS n FROM messages WHERE conversation_id = (SELECT id FROM conversations WHERE account_id = ? AND display_id = ?)",
      world.accountId,
      displayId,
    );

  it("ignores server-owned content attributes a client sends, and keeps the client's own", async () => {
    const id = await open();
    const res = await post(messagesOf(id), world.agent.key, {
      content: "Hello",
      content_attributes: {
        deleted: true,
        automation_rule_id: 7,
        external_error: "forged",
        submitted_values: [{ name: "x", value: "y" }],
        in_reply_to_external_id: "forged",
        in_reply_to: 12,
        label: "mine",
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.content).toBe("Hello");
    expect(res.body.content_attributes).toEqual({ in_reply_to: 12, label: "mine" });
    const listed = await get(messagesOf(id), world.agent.key);
    const shown = listed.body.payload.find((m: { id: number }) => m.id === res.body.id);
    expect(shown.content_attributes).toEqual({ in_reply_to: 12, label: "mine" });
  });

  it("refuses a sender_id naming a system bot, the account's bot or another user, and writes nothing", async () => {
    const systemBot = (await post("/platform/api/v1/agent_bots", world.platformKey, { name: "System bot" })).body;
    const accountBot = (await post(`${world.base}/agent_bots`, world.admin.key, { name: "Account bot" })).body;
    const id = await open();
    const before = await messageCount(id);
    for (const body of [
      { sender_type: "AgentBot", sender_id: systemBot.id },
      { sender_type: "AgentBot", sender_id: accountBot.id },
      { sender_id: world.admin.id },
    ]) {
      const res = await post(messagesOf(id), world.agent.key, { content: "as someone else", ...body });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ field: "sender_id", message: expect.any(String), code: "not_the_caller" }]);
    }
    expect(await messageCount(id)).toBe(before);

    // naming oneself is fine: the agent, or a bot by its own key
    expect((await post(messagesOf(id), world.agent.key, { content: "me", sender_id: world.agent.id })).body.sender).toMatchObject({ id: world.agent.id });
    const byBot = await post(messagesOf(id), accountBot.access_token, { content: "bot", sender_type: "AgentBot", sender_id: accountBot.id });
    expect(byBot.status).toBe(200);
    expect(byBot.body.sender).toMatchObject({ id: accountBot.id });
    const botForging = await post(messagesOf(id), accountBot.access_token, { content: "bot", sender_type: "AgentBot", sender_id: systemBot.id });
    expect(botForging.status).toBe(422);
    expect(botForging.body.errors[0]).toMatchObject({ field: "sender_id", code: "not_the_caller" });
  });
});
