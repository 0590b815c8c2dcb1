CREATE TABLE `assignment_policies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`assignment_order` integer DEFAULT 0 NOT NULL,
	`conversation_priority` integer DEFAULT 0 NOT NULL,
	`fair_distribution_limit` integer DEFAULT 100 NOT NULL,
	`fair_distribution_window` integer DEFAULT 3600 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `assignment_policies_account_name_unique` ON `assignment_policies` (`account_id`,`name`);--> statement-breakpoint
CREATE TABLE `inbox_assignment_policies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`inbox_id` integer NOT NULL,
	`assignment_policy_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inbox_assignment_policies_inbox_unique` ON `inbox_assignment_policies` (`inbox_id`);--> statement-breakpoint
CREATE INDEX `inbox_assignment_policies_policy` ON `inbox_assignment_policies` (`assignment_policy_id`);