/**
 * The messages' substring index behind conversation search (`q`): the FTS5 table `message_search`
 * (trigram tokenizer; created by migrations/0010_conversation_search.sql), one row per incoming or
 * outgoing message with rowid = messages.id, holding the account key, the conversation id (stored, not
 * indexed) and the content. Activity lines and templates are not searched, as in Chatwoot.
 *
 * Kept in step by the domain, as contact_search is: the batch that inserts a message writes its row
 * (new-messages.ts), a batch that changes a message's content rewrites it from the stored message, and a
 * batch that deletes messages removes theirs, so the index commits with the change and cannot drift.
 * What the trigram indexes share is in kernel/full-text.ts.
 */
import { type SQL, sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { type Database, lastInsertedId, schema } from "../../db/client";
import { MESSAGE_TYPE } from "../kernel/enums";
import { accountMatch } from "../kernel/full-text";

const { messages } = schema;

/** The FTS table as drizzle sees it (drizzle-kit cannot express virtual tables). */
export const messageSearch = sqliteTable("message_search", {
  rowid: integer("rowid").notNull(),
  accountKey: text("account_key").notNull(),
  conversationId: integer("conversation_id").notNull(),
  content: text("content").notNull(),
});

/** The message types conversation search looks at (Chatwoot: incoming and outgoing, private notes included). */
const SEARCHED_TYPES: readonly number[] = [MESSAGE_TYPE.incoming, MESSAGE_TYPE.outgoing];

export const isSearchedType = (messageType: number) => SEARCHED_TYPES.includes(messageType);

/** The index row of each searched message `where` selects from `messages`, copied from the stored message. */
const indexRows = (db: Database, where: SQL) =>
  // columns in the order of `messageSearch`
  db.insert(messageSearch).select(sql`SELECT id, '<a' || account_id || '>', conversation_id, coalesce(content, '') FROM ${messages}
      WHERE ${where} AND message_type IN (${sql.join(SEARCHED_TYPES.map((t) => sql`${t}`), sql`, `)})`);

/** The index row of the message inserted last in this batch (after `messageInsertStatement`). */
export const indexInsertedMessage = (db: Database) => indexRows(db, sql`id = ${lastInsertedId(messages)}`);

/** Removes the index rows of the messages `ids` selects (a query with one id column). */
export const unindexMessages = (db: Database, ids: SQL) => db.delete(messageSearch).where(sql`rowid IN (${ids})`);

/** Rewrites the index rows of the messages `ids` selects from their stored values (after the write). */
export const reindexMessages = (db: Database, ids: SQL) => [unindexMessages(db, ids), indexRows(db, sql`id IN (${ids})`)] as const;

/**
 * The ids of the account's conversations with a searched message containing `phrase` (trigramPhrase
 * output; case folded in every script), one per matching message: the index yields its matches only.
 */
export const conversationSearchIds = (accountId: number, phrase: string): SQL =>
  sql`SELECT conversation_id AS id FROM message_search WHERE message_search MATCH ${accountMatch(accountId, ["content"], [phrase])}`;
