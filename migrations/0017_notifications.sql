CREATE TABLE `conversation_participants` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`conversation_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversation_participants_conversation_user_unique` ON `conversation_participants` (`conversation_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `conversation_participants_user` ON `conversation_participants` (`account_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `notification_settings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`email_flags` integer NOT NULL,
	`push_flags` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_settings_account_user_unique` ON `notification_settings` (`account_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `notification_subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`subscription_type` text NOT NULL,
	`push_token` text NOT NULL,
	`subscription_attributes` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_subscriptions_push_token_unique` ON `notification_subscriptions` (`push_token`);--> statement-breakpoint
CREATE INDEX `notification_subscriptions_user` ON `notification_subscriptions` (`user_id`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`notification_type` integer NOT NULL,
	`primary_actor_type` text NOT NULL,
	`primary_actor_id` integer NOT NULL,
	`secondary_actor_type` text,
	`secondary_actor_id` integer,
	`read_at` integer,
	`snoozed_until` integer,
	`last_activity_at` integer NOT NULL,
	`meta` text DEFAULT '{}' NOT NULL,
	`announce` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `notifications_user_activity` ON `notifications` (`account_id`,`user_id`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `notifications_user_unread` ON `notifications` (`account_id`,`user_id`) WHERE read_at IS NULL;--> statement-breakpoint
CREATE INDEX `notifications_primary_actor` ON `notifications` (`primary_actor_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `notifications_announce` ON `notifications` (`announce`) WHERE announce = 1;