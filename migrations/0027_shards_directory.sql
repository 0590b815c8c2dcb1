CREATE TABLE `public_routes` (
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`account_id` integer NOT NULL,
	PRIMARY KEY(`kind`, `key`)
);
--> statement-breakpoint
CREATE INDEX `public_routes_account` ON `public_routes` (`account_id`);--> statement-breakpoint
CREATE TABLE `shard_stats` (
	`shard` integer PRIMARY KEY NOT NULL,
	`accounts` integer DEFAULT 0 NOT NULL,
	`bytes` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE `accounts` ADD `shard` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts` ADD `shard_status` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts` ADD `shard_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- A database that held everything before shards keeps its accounts on shard 0 (the column's default)
-- and enters their public keys as routes (README "Shards": upgrading a one-database deployment).
INSERT OR IGNORE INTO `public_routes` (`kind`, `key`, `account_id`) SELECT 'inbox', `identifier`, `account_id` FROM `inboxes`;--> statement-breakpoint
INSERT OR IGNORE INTO `public_routes` (`kind`, `key`, `account_id`) SELECT 'portal', `slug`, `account_id` FROM `portals`;--> statement-breakpoint
INSERT OR IGNORE INTO `public_routes` (`kind`, `key`, `account_id`) SELECT 'portal_domain', `custom_domain`, `account_id` FROM `portals` WHERE `custom_domain` IS NOT NULL;--> statement-breakpoint
INSERT INTO `shard_stats` (`shard`, `accounts`) SELECT 0, count(*) FROM `accounts` WHERE (SELECT count(*) FROM `accounts`) > 0;
