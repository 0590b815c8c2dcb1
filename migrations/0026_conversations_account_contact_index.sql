DROP INDEX `conversations_contact_activity`;--> statement-breakpoint
CREATE INDEX `conversations_account_contact_activity` ON `conversations` (`account_id`,`contact_id`,`last_activity_at`);