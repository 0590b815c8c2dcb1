/**
 * The contact loader: contacts as the API shows them, the contact row and, when asked for, its contact
 * inboxes with the inbox fields of Chatwoot's InboxSlim. One statement per call, so it fits in any read
 * batch, and the contact inboxes come back as a JSON column of each contact row (no second query, no N+1).
 */
import { type SQL, sql } from "drizzle-orm";
import { type Database, decodeRow, rawSql, schema } from "../../db/client";
import type { ContactRow } from "./rows";

const { contacts } = schema;

export type ContactInboxItem = {
  sourceId: string;
  inbox: { id: number; avatarUrl: string | null; channelId: number; name: string; channelType: string };
};
/** `contactInboxes` is null when the caller did not ask for them. */
export type ContactRecord = { contact: ContactRow; contactInboxes: ContactInboxItem[] | null };

const inboxesJson = sql`(
  SELECT json_group_array(json_object(
    'source_id', ci.source_id, 'id', i.id, 'avatar_url', i.avatar_url, 'channel_id', i.channel_id,
    'name', i.name, 'channel_type', i.channel_type))
  FROM contact_inboxes ci JOIN inboxes i ON i.id = ci.inbox_id AND i.account_id = ci.account_id
  WHERE ci.contact_id = c.id AND ci.account_id = c.account_id)`;

/**
 * The contacts whose ids `idsQuery` selects (a query with one `id` column), in the order it yields
 * them: the ids query runs as the outer loop and each contact is fetched by primary key.
 */
export function contactRecordsQuery(db: Database, accountId: number, idsQuery: SQL, withInboxes: boolean) {
  const inboxes = withInboxes ? sql`${inboxesJson} AS contact_inboxes_json` : sql`NULL AS contact_inboxes_json`;
  return rawSql(
    db,
    sql`SELECT c.*, ${inboxes} FROM (${idsQuery}) AS page CROSS JOIN contacts AS c ON c.id = page.id AND +c.account_id = ${accountId}`,
  );
}

type RawInbox = { source_id: string; id: number; avatar_url: string | null; channel_id: number; name: string; channel_type: string };

/** Maps raw rows (column names as in SQL) through the table's own column decoders. */
export function toContactRecords(rows: Record<string, unknown>[], withInboxes: boolean): ContactRecord[] {
  return rows.map((raw) => {
    const contact = decodeRow(contacts, raw);
    const inboxes = withInboxes ? (JSON.parse(String(raw.contact_inboxes_json ?? "[]")) as RawInbox[]) : null;
    return {
      contact,
      contactInboxes:
        inboxes?.map((i) => ({
          sourceId: i.source_id,
          inbox: { id: i.id, avatarUrl: i.avatar_url, channelId: i.channel_id, name: i.name, channelType: i.channel_type },
        })) ?? null,
    };
  });
}

/** The ids query of one contact of the account. */
export const oneContactIds = (accountId: number, contactId: number) =>
  sql`SELECT id FROM contacts WHERE id = ${contactId} AND account_id = ${accountId}`;
