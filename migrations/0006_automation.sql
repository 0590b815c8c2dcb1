CREATE TABLE `automation_rule_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`rule_id` integer NOT NULL,
	`event_id` integer NOT NULL,
	`actions_done` integer DEFAULT 0 NOT NULL,
	`outcomes` text DEFAULT '[]' NOT NULL,
	`finished` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `automation_rule_runs_event_rule_unique` ON `automation_rule_runs` (`event_id`,`rule_id`);--> statement-breakpoint
CREATE INDEX `automation_rule_runs_rule` ON `automation_rule_runs` (`rule_id`,`id`);--> statement-breakpoint
CREATE TABLE `outgoing_emails` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`kind` text NOT NULL,
	`recipients` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`conversation_id` integer NOT NULL,
	`automation_rule_id` integer,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `outgoing_emails_pending` ON `outgoing_emails` (`status`,`id`);--> statement-breakpoint
ALTER TABLE `automation_rules` ADD `webhook_secret` text DEFAULT '' NOT NULL;