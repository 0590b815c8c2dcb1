PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_outgoing_emails` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer,
	`kind` text NOT NULL,
	`recipients` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`conversation_id` integer,
	`automation_rule_id` integer,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_outgoing_emails`("id", "account_id", "kind", "recipients", "subject", "body", "conversation_id", "automation_rule_id", "status", "created_at", "updated_at") SELECT "id", "account_id", "kind", "recipients", "subject", "body", "conversation_id", "automation_rule_id", "status", "created_at", "updated_at" FROM `outgoing_emails`;--> statement-breakpoint
DROP TABLE `outgoing_emails`;--> statement-breakpoint
ALTER TABLE `__new_outgoing_emails` RENAME TO `outgoing_emails`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `outgoing_emails_pending` ON `outgoing_emails` (`status`,`id`);--> statement-breakpoint
ALTER TABLE `users` ADD `unconfirmed_email` text;--> statement-breakpoint
ALTER TABLE `users` ADD `confirmation_token_digest` text;--> statement-breakpoint
ALTER TABLE `users` ADD `confirmation_expires_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `users_unconfirmed_email_unique` ON `users` (`unconfirmed_email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_confirmation_token_digest_unique` ON `users` (`confirmation_token_digest`);