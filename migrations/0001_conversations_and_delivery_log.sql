CREATE TABLE `reporting_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`value` integer DEFAULT 0 NOT NULL,
	`conversation_id` integer NOT NULL,
	`inbox_id` integer NOT NULL,
	`user_id` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `reporting_events_account_name_created` ON `reporting_events` (`account_id`,`name`,`created_at`);--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `body` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_event_webhook_unique` ON `webhook_deliveries` (`event_id`,`webhook_id`);--> statement-breakpoint
CREATE INDEX `conversations_account_activity` ON `conversations` (`account_id`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `messages_conversation_type_created` ON `messages` (`conversation_id`,`message_type`,`created_at`);