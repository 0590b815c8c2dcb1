DROP INDEX `conversations_account_priority`;--> statement-breakpoint
ALTER TABLE `conversations` ADD `sort_waiting_asc` integer GENERATED ALWAYS AS (coalesce(waiting_since, 9007199254740991)) VIRTUAL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `sort_waiting_desc` integer GENERATED ALWAYS AS (coalesce(-waiting_since, 9007199254740991)) VIRTUAL;--> statement-breakpoint
CREATE INDEX `conversations_account_status_priority_activity` ON `conversations` (`account_id`,`status`,`priority`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `conversations_account_priority_activity` ON `conversations` (`account_id`,`priority`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `conversations_inbox_status_priority_activity` ON `conversations` (`inbox_id`,`status`,`priority`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `conversations_account_status_waiting_asc` ON `conversations` (`account_id`,`status`,`sort_waiting_asc`,`created_at`);--> statement-breakpoint
CREATE INDEX `conversations_account_waiting_asc` ON `conversations` (`account_id`,`sort_waiting_asc`,`created_at`);--> statement-breakpoint
CREATE INDEX `conversations_inbox_status_waiting_asc` ON `conversations` (`inbox_id`,`status`,`sort_waiting_asc`,`created_at`);--> statement-breakpoint
CREATE INDEX `conversations_account_status_waiting_desc` ON `conversations` (`account_id`,`status`,`sort_waiting_desc`,`created_at`);--> statement-breakpoint
CREATE INDEX `conversations_account_waiting_desc` ON `conversations` (`account_id`,`sort_waiting_desc`,`created_at`);--> statement-breakpoint
CREATE INDEX `conversations_inbox_status_waiting_desc` ON `conversations` (`inbox_id`,`status`,`sort_waiting_desc`,`created_at`);