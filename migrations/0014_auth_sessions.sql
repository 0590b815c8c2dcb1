CREATE TABLE `auth_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`client_id` text NOT NULL,
	`token_digest` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auth_sessions_client_unique` ON `auth_sessions` (`client_id`);--> statement-breakpoint
CREATE INDEX `auth_sessions_user` ON `auth_sessions` (`user_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `reset_password_token_digest` text;--> statement-breakpoint
ALTER TABLE `users` ADD `reset_password_expires_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `users_reset_password_token_digest_unique` ON `users` (`reset_password_token_digest`);