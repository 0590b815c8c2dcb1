/**
 * The contacts' substring index: the FTS5 table `contact_search` (trigram tokenizer; created by
 * migrations/0008_complete_answers.sql), one row per contact with rowid = contacts.id.
 *
 * Kept in step by the domain, not by triggers, as article_search is: every batch that creates, changes,
 * merges or deletes a contact also rewrites (or removes) its row here, copied from the stored contact
 * (INSERT ... SELECT), so the index commits with the change and cannot drift from what the batch wrote.
 *
 * What the trigram indexes share (the account key, phrases, what D1 counts) is in kernel/full-text.ts.
 */
import { type SQL, sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { type Database, schema, sameAccount } from "../../db/client";
import { accountMatch } from "../kernel/full-text";

const { contacts } = schema;

/** The FTS table as drizzle sees it (drizzle-kit cannot express virtual tables). */
export const contactSearch = sqliteTable("contact_search", {
  rowid: integer("rowid").notNull(),
  accountKey: text("account_key").notNull(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  phoneNumber: text("phone_number").notNull(),
  identifier: text("identifier").notNull(),
});

/** Removes the index rows of the contacts `ids` selects (a query with one id column, or a list). */
export const unindexContacts = (db: Database, ids: SQL) => db.delete(contactSearch).where(sql`rowid IN (${ids})`);

/** Rewrites the index rows of the contacts `ids` selects from their stored values (after the write). */
export function reindexContacts(db: Database, accountId: number, ids: SQL) {
  return [
    unindexContacts(db, ids),
    // columns in the order of `contactSearch`
    db.insert(contactSearch).select(sql`SELECT id, '<a' || account_id || '>', name, coalesce(email, ''),
        coalesce(phone_number, ''), coalesce(identifier, '') FROM ${contacts} WHERE ${sameAccount(sql.raw("account_id"), accountId)} AND id IN (${ids})`),
  ] as const;
}

export type SearchColumn = "name" | "email" | "phone_number" | "identifier";

/**
 * The ids of the account's contacts whose `columns` contain one of `phrases` (trigramPhrase output)
 * case-insensitively. A superset for callers that compare more strictly: they check each candidate.
 */
export function contactSearchIds(accountId: number, columns: readonly SearchColumn[], phrases: readonly string[]): SQL {
  return sql`SELECT rowid AS id FROM contact_search WHERE contact_search MATCH ${accountMatch(accountId, columns, phrases)}`;
}

/**
 * The account's contacts (id, name, email, phone_number, identifier; listed or not) in id order after
 * `afterId`, at most `limit` (-1: no limit), through the index on (account_id, id): the scan for what the
 * trigram index cannot match (one or two characters), resumed by an id range.
 */
export function contactSearchScan(accountId: number, afterId: number, limit: number): SQL {
  return sql`SELECT id, name, email, phone_number, identifier FROM contacts
    WHERE account_id = ${accountId} AND id > ${afterId} ORDER BY id LIMIT ${limit}`;
}
