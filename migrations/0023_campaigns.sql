CREATE TABLE `campaign_recipients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`campaign_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	`conversation_id` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `campaign_recipients_campaign_contact_unique` ON `campaign_recipients` (`campaign_id`,`contact_id`);--> statement-breakpoint
CREATE TABLE `campaigns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`display_id` integer NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`message` text NOT NULL,
	`inbox_id` integer NOT NULL,
	`sender_id` integer,
	`enabled` integer DEFAULT true NOT NULL,
	`trigger_rules` text DEFAULT '{}' NOT NULL,
	`trigger_only_during_business_hours` integer DEFAULT false NOT NULL,
	`scheduled_at` integer,
	`audience` text DEFAULT '[]' NOT NULL,
	`campaign_type` integer DEFAULT 0 NOT NULL,
	`campaign_status` integer DEFAULT 0 NOT NULL,
	`audience_count` integer,
	`sent_count` integer DEFAULT 0 NOT NULL,
	`run_due_at` integer,
	`run_started_at` integer,
	`run_cursor` integer DEFAULT 0 NOT NULL,
	`completed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `campaigns_account_display_unique` ON `campaigns` (`account_id`,`display_id`);--> statement-breakpoint
CREATE INDEX `campaigns_inbox` ON `campaigns` (`inbox_id`);--> statement-breakpoint
CREATE INDEX `campaigns_run_due` ON `campaigns` (`run_due_at`) WHERE run_due_at IS NOT NULL;