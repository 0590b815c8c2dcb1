ALTER TABLE `outgoing_emails` ADD `message_id` integer;--> statement-breakpoint
ALTER TABLE `outgoing_emails` ADD `parts` text;--> statement-breakpoint
CREATE UNIQUE INDEX `outgoing_emails_message` ON `outgoing_emails` (`account_id`,`message_id`) WHERE message_id IS NOT NULL;