CREATE TABLE `contact_exports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`user_id` integer,
	`status` integer DEFAULT 0 NOT NULL,
	`column_names` text NOT NULL,
	`filter` text,
	`storage_key` text NOT NULL,
	`segments` integer DEFAULT 0 NOT NULL,
	`last_contact_id` integer DEFAULT 0 NOT NULL,
	`exported_records` integer DEFAULT 0 NOT NULL,
	`file_size` integer DEFAULT 0 NOT NULL,
	`failure` text,
	`completed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `contact_exports_account` ON `contact_exports` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `contact_exports_status` ON `contact_exports` (`status`,`updated_at`);--> statement-breakpoint
CREATE TABLE `contact_import_refusals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`import_id` integer NOT NULL,
	`row_number` integer NOT NULL,
	`errors` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `contact_import_refusals_import` ON `contact_import_refusals` (`import_id`,`row_number`);--> statement-breakpoint
CREATE TABLE `contact_imports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`user_id` integer,
	`status` integer DEFAULT 0 NOT NULL,
	`file_name` text NOT NULL,
	`file_size` integer NOT NULL,
	`storage_key` text NOT NULL,
	`columns` text,
	`next_offset` integer DEFAULT 0 NOT NULL,
	`next_row` integer DEFAULT 1 NOT NULL,
	`total_records` integer DEFAULT 0 NOT NULL,
	`processed_records` integer DEFAULT 0 NOT NULL,
	`refused_records` integer DEFAULT 0 NOT NULL,
	`failure` text,
	`completed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `contact_imports_account` ON `contact_imports` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `contact_imports_status` ON `contact_imports` (`status`,`updated_at`);