/**
 * TEST SETUP ONLY: rows inserted straight into the database for resources whose API routes live on other
 * branches (inbox CRUD, custom attribute definitions, conversations). Tests under test/account use these
 * to arrange a world, then check behaviour through HTTP only.
 */
import { env } from "cloudflare:workers";

let sequence = 0;
const now = () => Date.now();

/** An API inbox of the account (inboxes + api_channels rows); returns its id. */
export async function insertApiInbox(accountId: number, name = "API inbox"): Promise<number> {
  const n = ++sequence;
  const channel = await env.DB.prepare(
    "INSERT INTO api_channels (account_id, secret, additional_attributes, created_at, updated_at) VALUES (?, ?, '{}', ?, ?) RETURNING id",
  )
    .bind(accountId, `secret-${n}`, now(), now())
    .first<{ id: number }>();
  const inbox = await env.DB.prepare(
    `INSERT INTO inboxes (account_id, name, channel_type, channel_id, identifier, hmac_token, csat_config, auto_assignment_config, working_hours, created_at, updated_at)
     VALUES (?, ?, 'Channel::Api', ?, ?, ?, '{}', '{}', '[]', ?, ?) RETURNING id`,
  )
    .bind(accountId, name, channel!.id, `inbox-identifier-${n}-${Date.now()}`, `hmac-${n}`, now(), now())
    .first<{ id: number }>();
  return inbox!.id;
}

export async function insertInboxMember(accountId: number, inboxId: number, userId: number) {
  await env.DB.prepare("INSERT INTO inbox_members (account_id, inbox_id, user_id, created_at) VALUES (?, ?, ?, ?)")
    .bind(accountId, inboxId, userId, now())
    .run();
}

export type DefinitionRow = {
  key: string;
  /** 0 text, 1 number, 2 currency, 3 percent, 4 link, 5 date, 6 list, 7 checkbox */
  displayType: number;
  values?: string[];
  regexPattern?: string;
  regexCue?: string;
};

/** A contact_attribute definition of the account. */
export async function insertContactAttributeDefinition(accountId: number, d: DefinitionRow) {
  await env.DB.prepare(
    `INSERT INTO custom_attribute_definitions (account_id, attribute_display_name, attribute_key, attribute_display_type,
       attribute_model, attribute_values, regex_pattern, regex_cue, created_at, updated_at)
     VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`,
  )
    .bind(accountId, d.key, d.key, d.displayType, JSON.stringify(d.values ?? []), d.regexPattern ?? null, d.regexCue ?? null, now(), now())
    .run();
}

/** A conversation of the contact in the inbox (with its contact inbox), optionally with messages. */
export async function insertConversation(
  accountId: number,
  input: { inboxId: number; contactId: number; displayId: number; lastActivityAt?: number; assigneeId?: number; status?: number },
): Promise<number> {
  const at = now();
  const ci = await env.DB.prepare(
    "INSERT INTO contact_inboxes (account_id, contact_id, inbox_id, source_id, pubsub_token, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(accountId, input.contactId, input.inboxId, `src-${++sequence}-${at}`, `pubsub-${sequence}-${at}`, at, at)
    .first<{ id: number }>();
  const row = await env.DB.prepare(
    `INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, assignee_id, status, last_activity_at,
       additional_attributes, custom_attributes, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '{}', '{}', ?, ?) RETURNING id`,
  )
    .bind(
      accountId,
      input.displayId,
      crypto.randomUUID(),
      input.inboxId,
      input.contactId,
      ci!.id,
      input.assigneeId ?? null,
      input.status ?? 0,
      input.lastActivityAt ?? at,
      at,
      at,
    )
    .first<{ id: number }>();
  return row!.id;
}

export async function insertMessage(
  accountId: number,
  input: { conversationId: number; inboxId: number; content: string; messageType: number; senderType?: string; senderId?: number; createdAt?: number },
) {
  const at = input.createdAt ?? now();
  await env.DB.prepare(
    `INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, sender_type, sender_id,
       content_attributes, additional_attributes, external_source_ids, sentiment, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, '{}', '{}', '{}', '{}', ?, ?)`,
  )
    .bind(accountId, input.inboxId, input.conversationId, input.messageType, input.content, input.senderType ?? null, input.senderId ?? null, at, at)
    .run();
}
