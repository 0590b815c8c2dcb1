CREATE INDEX `conversations_account_priority` ON `conversations` (`account_id`,`priority`);--> statement-breakpoint
CREATE INDEX `conversations_account_assignee` ON `conversations` (`account_id`,`assignee_id`);--> statement-breakpoint
CREATE INDEX `conversations_account_team` ON `conversations` (`account_id`,`team_id`);--> statement-breakpoint
CREATE INDEX `conversations_account_campaign` ON `conversations` (`account_id`,`campaign_id`);--> statement-breakpoint
CREATE INDEX `conversations_account_created` ON `conversations` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `conversations_account_browser_language` ON `conversations` (`account_id`,"additional_attributes" ->> '$.browser_language');--> statement-breakpoint
CREATE INDEX `conversations_account_conversation_language` ON `conversations` (`account_id`,"additional_attributes" ->> '$.conversation_language');--> statement-breakpoint
CREATE INDEX `conversations_account_referer` ON `conversations` (`account_id`,"additional_attributes" ->> '$.referer');--> statement-breakpoint
CREATE INDEX `conversations_account_mail_subject` ON `conversations` (`account_id`,"additional_attributes" ->> '$.mail_subject');--> statement-breakpoint
-- Hand-added (drizzle-kit cannot express virtual tables): conversation search (`q`) over message content,
-- SQLite FTS5 with the trigram tokenizer, so any substring of three characters or more (in any script) is
-- an index lookup. rowid = messages.id; only incoming and outgoing messages are indexed (the messages
-- Chatwoot's search looks at: activity lines and templates are not searched). `account_key` holds
-- "<a" || account_id || ">", confining a search to one account inside the index, as in contact_search;
-- `conversation_id` is stored, not indexed, so a match names its conversation without reading messages.
-- The domain (src/domain/conversations/search-index.ts) writes a message's row in the same batch as every
-- insert, content change and delete of it. Like contact_search it holds only derived data: drop and
-- rebuild it around a `wrangler d1 export`.
CREATE VIRTUAL TABLE `message_search` USING fts5(
  account_key,
  conversation_id UNINDEXED,
  content,
  tokenize = 'trigram'
);--> statement-breakpoint
INSERT INTO `message_search` (rowid, account_key, conversation_id, content)
  SELECT id, '<a' || account_id || '>', conversation_id, coalesce(content, '')
  FROM `messages` WHERE message_type IN (0, 1);
