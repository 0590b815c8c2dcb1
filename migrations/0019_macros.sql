CREATE TABLE `macros` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`visibility` text DEFAULT 'personal' NOT NULL,
	`actions` text DEFAULT '[]' NOT NULL,
	`created_by_id` integer NOT NULL,
	`updated_by_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `macros_account_visibility` ON `macros` (`account_id`,`visibility`);--> statement-breakpoint
CREATE INDEX `macros_account_creator` ON `macros` (`account_id`,`created_by_id`);