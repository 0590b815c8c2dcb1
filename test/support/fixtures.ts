/**
 * Test setup that other work streams own the endpoints for (inboxes, contacts, inbox and team members):
 * rows inserted straight into the account's shard (and, for an inbox, its public route into the
 * directory, as the inboxes' own create does). Setup only; nothing here is asserted.
 */
import { directory, shardOf } from "./databases";

let sequence = 0;
const next = () => `${Date.now()}-${++sequence}`;

async function insert(accountId: number, sql: string, ...values: unknown[]): Promise<number> {
  const row = await (await shardOf(accountId)).prepare(`${sql} RETURNING id`).bind(...values).first<{ id: number }>();
  return row!.id;
}

export async function createInbox(accountId: number, options: { name?: string; channel?: "Channel::Api" | "Channel::WebWidget" } = {}) {
  const at = Date.now();
  const channel = options.channel ?? "Channel::Api";
  const channelId =
    channel === "Channel::Api"
      ? await insert(accountId, "INSERT INTO api_channels (account_id, secret, created_at, updated_at) VALUES (?, ?, ?, ?)", accountId, `secret-${next()}`, at, at)
      : await insert(accountId, "INSERT INTO web_widget_channels (account_id, website_url, created_at, updated_at) VALUES (?, ?, ?, ?)", accountId, "https://shop.example", at, at);
  const identifier = `inbox-${next()}`;
  await directory().prepare("INSERT INTO public_routes (kind, key, account_id) VALUES ('inbox', ?, ?)").bind(identifier, accountId).run();
  return insert(
    accountId,
    "INSERT INTO inboxes (account_id, name, channel_type, channel_id, identifier, hmac_token, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    accountId,
    options.name ?? "Support",
    channel,
    channelId,
    identifier,
    `hmac-${next()}`,
    at,
    at,
  );
}

export async function createContact(accountId: number, fields: { name?: string; email?: string; blocked?: boolean } = {}) {
  const at = Date.now();
  return insert(
    accountId,
    "INSERT INTO contacts (account_id, name, email, blocked, resolved, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)",
    accountId,
    fields.name ?? "Customer",
    fields.email ?? `customer.${next()}@example.com`,
    fields.blocked ? 1 : 0,
    at,
    at,
  );
}

export async function createContactInbox(accountId: number, contactId: number, inboxId: number, sourceId = `source-${next()}`) {
  const at = Date.now();
  const id = await insert(
    accountId,
    "INSERT INTO contact_inboxes (account_id, contact_id, inbox_id, source_id, pubsub_token, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    accountId,
    contactId,
    inboxId,
    sourceId,
    `pubsub-${next()}`,
    at,
    at,
  );
  return { id, sourceId };
}

export async function addInboxMember(accountId: number, inboxId: number, userId: number) {
  return insert(accountId, "INSERT INTO inbox_members (account_id, inbox_id, user_id, created_at) VALUES (?, ?, ?, ?)", accountId, inboxId, userId, Date.now());
}

export async function createTeam(accountId: number, name: string, memberIds: number[] = []) {
  const at = Date.now();
  const teamId = await insert(accountId, "INSERT INTO teams (account_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)", accountId, name, at, at);
  for (const userId of memberIds) {
    await insert(accountId, "INSERT INTO team_members (account_id, team_id, user_id, created_at) VALUES (?, ?, ?, ?)", accountId, teamId, userId, at);
  }
  return teamId;
}

export async function connectAgentBot(accountId: number, inboxId: number, agentBotId: number) {
  const at = Date.now();
  return insert(
    accountId,
    "INSERT INTO agent_bot_inboxes (account_id, inbox_id, agent_bot_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
    accountId,
    inboxId,
    agentBotId,
    at,
    at,
  );
}

export async function defineConversationAttribute(accountId: number, key: string, displayType: number, values: string[] = []) {
  const at = Date.now();
  return insert(
    accountId,
    "INSERT INTO custom_attribute_definitions (account_id, attribute_display_name, attribute_key, attribute_display_type, attribute_model, attribute_values, created_at, updated_at) VALUES (?, ?, ?, ?, 0, ?, ?, ?)",
    accountId,
    key,
    key,
    displayType,
    JSON.stringify(values),
    at,
    at,
  );
}

/** The outbox rows written for one subject of the account, oldest first. */
export async function outboxFor(accountId: number, subjectType: string, subjectId: number) {
  const { results } = await (await shardOf(accountId))
    .prepare("SELECT event_name, data FROM event_outbox WHERE account_id = ? AND subject_type = ? AND subject_id = ? ORDER BY id")
    .bind(accountId, subjectType, subjectId)
    .all<{ event_name: string; data: string }>();
  return results.map((r) => ({ event: r.event_name, data: JSON.parse(r.data) as Record<string, any> }));
}

/** The stored id of a conversation addressed by display id. */
export async function conversationRowId(accountId: number, displayId: number) {
  const row = await (await shardOf(accountId)).prepare("SELECT id FROM conversations WHERE account_id = ? AND display_id = ?").bind(accountId, displayId).first<{ id: number }>();
  return row!.id;
}
