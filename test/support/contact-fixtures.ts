/**
 * TEST SETUP ONLY, for the contact tests (fixtures.ts holds the shared helpers): rows inserted straight
 * into the database for contact attribute definitions, conversations and messages, and a large contact
 * seed for the cost tests and the benchmark. Nothing here is asserted.
 */
import { shardOf } from "./databases";

let sequence = 0;
const now = () => Date.now();

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
  await (await shardOf(accountId)).prepare(
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
  const ci = await (await shardOf(accountId)).prepare(
    "INSERT INTO contact_inboxes (account_id, contact_id, inbox_id, source_id, pubsub_token, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(accountId, input.contactId, input.inboxId, `src-${++sequence}-${at}`, `pubsub-${sequence}-${at}`, at, at)
    .first<{ id: number }>();
  const row = await (await shardOf(accountId)).prepare(
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
  await (await shardOf(accountId)).prepare(
    `INSERT INTO messages (account_id, inbox_id, conversation_id, message_type, content, sender_type, sender_id,
       content_attributes, additional_attributes, external_source_ids, sentiment, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, '{}', '{}', '{}', '{}', ?, ?)`,
  )
    .bind(accountId, input.inboxId, input.conversationId, input.messageType, input.content, input.senderType ?? null, input.senderId ?? null, at, at)
    .run();
}

/**
 * Seeds `count` contacts in one statement (a recursive CTE, so no bound-parameter limit applies): 90 %
 * listed, a spread of names (some starting with a digit, some empty), 50 cities, a third without
 * company, a fifth without last activity. The derived sort columns follow src/domain/contact-fields.ts;
 * the search index is filled; the "contacts.resolved" counter is set to the number of listed contacts, which it returns.
 */
export async function seedContacts(accountId: number, count: number): Promise<number> {
  await (await shardOf(accountId)).prepare(
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?2),
     rows AS (SELECT n,
       CASE WHEN n % 50 = 0 THEN '' WHEN n % 17 = 0 THEN n || ' Street' ELSE 'Contact ' || ((n * 7919) % 100003) END AS name,
       CASE WHEN n % 10 < 7 THEN 'c' || n || '@bench.test' END AS email,
       CASE WHEN n % 10 IN (6, 7, 8) THEN '+1555' || substr('0000000' || n, -7) END AS phone,
       CASE WHEN n % 10 = 8 THEN 'id-' || n END AS identifier,
       'City ' || (n % 50) AS city, CASE WHEN n % 3 > 0 THEN 'Company ' || (n % 97) END AS company,
       'Country ' || (n % 20) AS country,
       CASE WHEN n % 5 > 0 THEN 1700000000000 + ((n * 104729) % 1000000) * 1000 END AS activity
       FROM seq)
     INSERT INTO contacts (account_id, name, email, phone_number, identifier, blocked, additional_attributes, custom_attributes,
       last_activity_at, resolved, name_sort, company_sort, city_sort, country_sort, created_at, updated_at)
     SELECT ?1, name, email, phone, identifier, 0,
       json_object('city', city, 'company_name', company, 'country', country), '{}', activity,
       (email IS NOT NULL OR phone IS NOT NULL OR identifier IS NOT NULL),
       CASE WHEN name = '' THEN NULL WHEN substr(name, 1, 1) GLOB '[+0-9]' THEN '1' || lower(name) ELSE '0' || lower(name) END,
       lower(company), lower(city), lower(country), 1700000000000 + n, 1700000000000 + n
     FROM rows`,
  )
    .bind(accountId, count)
    .run();
  // the search index row of each contact, as the domain writes it (src/domain/contacts/search-index.ts)
  await (await shardOf(accountId)).prepare(
    `INSERT INTO contact_search (rowid, account_key, name, email, phone_number, identifier)
     SELECT id, '<a' || account_id || '>', name, coalesce(email, ''), coalesce(phone_number, ''), coalesce(identifier, '')
     FROM contacts WHERE account_id = ?`,
  )
    .bind(accountId)
    .run();
  const listed = await (await shardOf(accountId)).prepare("SELECT count(*) AS n FROM contacts WHERE account_id = ? AND resolved = 1").bind(accountId).first<{ n: number }>();
  await (await shardOf(accountId)).prepare("INSERT INTO counters (account_id, key, value) VALUES (?, 'contacts.resolved', ?)").bind(accountId, listed!.n).run();
  return listed!.n;
}
