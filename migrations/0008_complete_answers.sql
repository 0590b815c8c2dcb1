CREATE INDEX `contacts_account_id` ON `contacts` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `taggings_account_label_target` ON `taggings` (`account_id`,`taggable_type`,lower("tag"),`taggable_id`);--> statement-breakpoint
-- Hand-added (drizzle-kit cannot express virtual tables): substring search over contacts, SQLite FTS5 with
-- the trigram tokenizer, so any substring of three characters or more (in any script) is an index lookup.
-- rowid = contacts.id. `account_key` holds "<a" || account_id || ">", so a search is confined to one
-- account inside the index (the angle brackets keep "<a1>" from matching inside "<a12>"). The domain
-- (src/domain/contacts/search-index.ts) rewrites a contact's row in the same batch as every write of it.
-- Note: `wrangler d1 export` cannot export databases holding virtual tables; drop and rebuild this table
-- around an export (it holds only data derived from `contacts`).
CREATE VIRTUAL TABLE `contact_search` USING fts5(
  account_key,
  name,
  email,
  phone_number,
  identifier,
  tokenize = 'trigram'
);--> statement-breakpoint
INSERT INTO `contact_search` (rowid, account_key, name, email, phone_number, identifier)
  SELECT id, '<a' || account_id || '>', name, coalesce(email, ''), coalesce(phone_number, ''), coalesce(identifier, '')
  FROM `contacts`;
