CREATE TABLE `webhook_delivery_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`delivery_id` integer NOT NULL,
	`attempted_at` integer NOT NULL,
	`outcome` text NOT NULL,
	`status_code` integer,
	`duration_ms` integer,
	`response_body` text,
	`error` text,
	`trigger` text DEFAULT 'automatic' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_delivery_attempts_delivery` ON `webhook_delivery_attempts` (`delivery_id`,`id`);--> statement-breakpoint
DROP INDEX `webhook_deliveries_event_webhook_unique`;--> statement-breakpoint
DROP INDEX `webhook_deliveries_webhook`;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `target_type` text DEFAULT 'webhook' NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `subject_type` text;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `subject_id` integer;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `dedupe_key` text;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `url` text;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `secret` text;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `last_attempt_at` integer;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `next_attempt_at` integer;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `retry_until` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_dedupe_unique` ON `webhook_deliveries` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_target` ON `webhook_deliveries` (`target_type`,`webhook_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_updated` ON `webhook_deliveries` (`updated_at`);--> statement-breakpoint
ALTER TABLE `event_outbox` ADD `consumed_at` integer;--> statement-breakpoint
CREATE INDEX `event_outbox_consumed` ON `event_outbox` (`consumed_at`);--> statement-breakpoint
ALTER TABLE `webhooks` ADD `disabled_at` integer;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `disabled_reason` text;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `failing_since` integer;--> statement-breakpoint
-- Deliveries made before this migration: the same dedupe key fan-out now gives, a 3-day retry window from
-- their creation, and a pending one is due now (the minute sweep picks it up).
UPDATE `webhook_deliveries` SET `dedupe_key` = 'event:' || `event_id` || ':webhook:' || `webhook_id`, `retry_until` = `created_at` + 259200000, `next_attempt_at` = CASE WHEN `status` = 'pending' THEN `updated_at` END;
