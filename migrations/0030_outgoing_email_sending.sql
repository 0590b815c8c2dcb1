ALTER TABLE `outgoing_emails` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `outgoing_emails` ADD `next_attempt_at` integer;--> statement-breakpoint
ALTER TABLE `outgoing_emails` ADD `last_error` text;--> statement-breakpoint
ALTER TABLE `outgoing_emails` ADD `provider_message_id` text;--> statement-breakpoint
ALTER TABLE `outgoing_emails` ADD `sent_at` integer;