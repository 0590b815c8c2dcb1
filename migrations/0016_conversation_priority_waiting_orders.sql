ALTER TABLE `conversations` ADD `sort_priority_desc` integer GENERATED ALWAYS AS (coalesce(priority, -1)) VIRTUAL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `sort_priority_asc` integer GENERATED ALWAYS AS (coalesce(-priority, -4)) VIRTUAL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `sort_waiting_asc` integer GENERATED ALWAYS AS (coalesce(waiting_since, 9007199254740991)) VIRTUAL;--> statement-breakpoint
ALTER TABLE `conversations` ADD `sort_waiting_desc` integer GENERATED ALWAYS AS (coalesce(-waiting_since, 9007199254740991)) VIRTUAL;--> statement-breakpoint
CREATE INDEX `conversations_account_status_priority_desc` ON `conversations` (`account_id`,`status`,`sort_priority_desc`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `conversations_account_priority_desc` ON `conversations` (`account_id`,`sort_priority_desc`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `conversations_inbox_status_priority_desc` ON `conversations` (`inbox_id`,`status`,`sort_priority_desc`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `conversations_account_status_priority_asc` ON `conversations` (`account_id`,`status`,`sort_priority_asc`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `conversations_account_priority_asc` ON `conversations` (`account_id`,`sort_priority_asc`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `conversations_inbox_status_priority_asc` ON `conversations` (`inbox_id`,`status`,`sort_priority_asc`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `conversations_account_status_waiting_asc` ON `conversations` (`account_id`,`status`,`sort_waiting_asc`,`created_at`);--> statement-breakpoint
CREATE INDEX `conversations_account_waiting_asc` ON `conversations` (`account_id`,`sort_waiting_asc`,`created_at`);--> statement-breakpoint
CREATE INDEX `conversations_inbox_status_waiting_asc` ON `conversations` (`inbox_id`,`status`,`sort_waiting_asc`,`created_at`);--> statement-breakpoint
CREATE INDEX `conversations_account_status_waiting_desc` ON `conversations` (`account_id`,`status`,`sort_waiting_desc`,`created_at`);--> statement-breakpoint
CREATE INDEX `conversations_account_waiting_desc` ON `conversations` (`account_id`,`sort_waiting_desc`,`created_at`);--> statement-breakpoint
CREATE INDEX `conversations_inbox_status_waiting_desc` ON `conversations` (`inbox_id`,`status`,`sort_waiting_desc`,`created_at`);