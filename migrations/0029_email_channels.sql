CREATE TABLE `email_channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`email` text NOT NULL,
	`forward_to_email` text NOT NULL,
	`imap_enabled` integer DEFAULT false NOT NULL,
	`imap_address` text DEFAULT '' NOT NULL,
	`imap_port` integer DEFAULT 0 NOT NULL,
	`imap_login` text DEFAULT '' NOT NULL,
	`imap_password` text DEFAULT '' NOT NULL,
	`imap_enable_ssl` integer DEFAULT true NOT NULL,
	`smtp_enabled` integer DEFAULT false NOT NULL,
	`smtp_address` text DEFAULT '' NOT NULL,
	`smtp_port` integer DEFAULT 0 NOT NULL,
	`smtp_login` text DEFAULT '' NOT NULL,
	`smtp_password` text DEFAULT '' NOT NULL,
	`smtp_domain` text DEFAULT '' NOT NULL,
	`smtp_enable_ssl_tls` integer DEFAULT false NOT NULL,
	`smtp_enable_starttls_auto` integer DEFAULT true NOT NULL,
	`smtp_authentication` text DEFAULT 'login' NOT NULL,
	`smtp_openssl_verify_mode` text DEFAULT 'none' NOT NULL,
	`provider` text,
	`verified_for_sending` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `email_channels_email_unique` ON `email_channels` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `email_channels_forward_to_email_unique` ON `email_channels` (`forward_to_email`);--> statement-breakpoint
CREATE TABLE `inbound_emails` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`storage_key` text NOT NULL,
	`envelope_from` text NOT NULL,
	`envelope_to` text NOT NULL,
	`outcome` text NOT NULL,
	`reason` text,
	`message_id` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inbound_emails_storage_key_unique` ON `inbound_emails` (`storage_key`);--> statement-breakpoint
CREATE INDEX `inbound_emails_account` ON `inbound_emails` (`account_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `messages_inbox_email_source_unique` ON `messages` (`inbox_id`,`source_id`) WHERE content_type = 8;