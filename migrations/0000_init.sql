CREATE TABLE `access_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_type` text NOT NULL,
	`owner_id` integer NOT NULL,
	`token` text,
	`token_digest` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `access_tokens_digest_unique` ON `access_tokens` (`token_digest`);--> statement-breakpoint
CREATE INDEX `access_tokens_owner` ON `access_tokens` (`owner_type`,`owner_id`);--> statement-breakpoint
CREATE TABLE `account_users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`role` integer DEFAULT 0 NOT NULL,
	`availability` integer DEFAULT 0 NOT NULL,
	`auto_offline` integer DEFAULT true NOT NULL,
	`active_at` integer,
	`inviter_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `account_users_account_user_unique` ON `account_users` (`account_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `account_users_user` ON `account_users` (`user_id`);--> statement-breakpoint
CREATE TABLE `accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`locale` text DEFAULT 'en' NOT NULL,
	`domain` text,
	`support_email` text,
	`status` integer DEFAULT 0 NOT NULL,
	`custom_attributes` text DEFAULT '{}' NOT NULL,
	`settings` text DEFAULT '{}' NOT NULL,
	`limits` text DEFAULT '{}' NOT NULL,
	`features` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `agent_bot_inboxes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`inbox_id` integer NOT NULL,
	`agent_bot_id` integer NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agent_bot_inboxes_inbox_unique` ON `agent_bot_inboxes` (`inbox_id`);--> statement-breakpoint
CREATE INDEX `agent_bot_inboxes_bot` ON `agent_bot_inboxes` (`agent_bot_id`);--> statement-breakpoint
CREATE TABLE `agent_bots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer,
	`name` text NOT NULL,
	`description` text,
	`outgoing_url` text,
	`bot_type` integer DEFAULT 0 NOT NULL,
	`bot_config` text DEFAULT '{}' NOT NULL,
	`avatar_url` text,
	`secret` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `agent_bots_account` ON `agent_bots` (`account_id`);--> statement-breakpoint
CREATE TABLE `api_channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`webhook_url` text,
	`secret` text NOT NULL,
	`additional_attributes` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `articles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`portal_id` integer NOT NULL,
	`category_id` integer,
	`folder_id` integer,
	`author_id` integer,
	`associated_article_id` integer,
	`title` text NOT NULL,
	`slug` text NOT NULL,
	`description` text,
	`content` text NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`position` integer,
	`locale` text DEFAULT 'en' NOT NULL,
	`meta` text DEFAULT '{}' NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `articles_portal_slug_unique` ON `articles` (`portal_id`,`slug`);--> statement-breakpoint
CREATE INDEX `articles_portal_status_updated` ON `articles` (`portal_id`,`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `articles_category_position` ON `articles` (`category_id`,`position`);--> statement-breakpoint
CREATE TABLE `automation_rules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`event_name` text NOT NULL,
	`conditions` text DEFAULT '[]' NOT NULL,
	`actions` text DEFAULT '[]' NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `automation_rules_account_event` ON `automation_rules` (`account_id`,`event_name`);--> statement-breakpoint
CREATE TABLE `canned_responses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`short_code` text NOT NULL,
	`content` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `canned_responses_account_short_code_unique` ON `canned_responses` (`account_id`,`short_code`);--> statement-breakpoint
CREATE TABLE `categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`portal_id` integer NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`locale` text DEFAULT 'en' NOT NULL,
	`description` text,
	`position` integer DEFAULT 0 NOT NULL,
	`icon` text,
	`parent_category_id` integer,
	`associated_category_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `categories_portal_locale_slug_unique` ON `categories` (`portal_id`,`locale`,`slug`);--> statement-breakpoint
CREATE INDEX `categories_portal_locale_position` ON `categories` (`portal_id`,`locale`,`position`);--> statement-breakpoint
CREATE TABLE `contact_inboxes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	`inbox_id` integer NOT NULL,
	`source_id` text NOT NULL,
	`hmac_verified` integer DEFAULT false NOT NULL,
	`pubsub_token` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contact_inboxes_inbox_source_unique` ON `contact_inboxes` (`inbox_id`,`source_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `contact_inboxes_pubsub_token_unique` ON `contact_inboxes` (`pubsub_token`);--> statement-breakpoint
CREATE INDEX `contact_inboxes_contact` ON `contact_inboxes` (`contact_id`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`email` text,
	`phone_number` text,
	`identifier` text,
	`blocked` integer DEFAULT false NOT NULL,
	`avatar_url` text,
	`additional_attributes` text DEFAULT '{}' NOT NULL,
	`custom_attributes` text DEFAULT '{}' NOT NULL,
	`last_activity_at` integer,
	`resolved` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_account_email_unique` ON `contacts` (`account_id`,`email`) WHERE email IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_account_phone_unique` ON `contacts` (`account_id`,`phone_number`) WHERE phone_number IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_account_identifier_unique` ON `contacts` (`account_id`,`identifier`) WHERE identifier IS NOT NULL;--> statement-breakpoint
CREATE INDEX `contacts_account_resolved_id` ON `contacts` (`account_id`,`resolved`,`id`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`display_id` integer NOT NULL,
	`uuid` text NOT NULL,
	`inbox_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	`contact_inbox_id` integer NOT NULL,
	`assignee_id` integer,
	`assignee_agent_bot_id` integer,
	`team_id` integer,
	`campaign_id` integer,
	`status` integer DEFAULT 0 NOT NULL,
	`priority` integer,
	`snoozed_until` integer,
	`waiting_since` integer,
	`first_reply_created_at` integer,
	`agent_last_seen_at` integer,
	`assignee_last_seen_at` integer,
	`contact_last_seen_at` integer,
	`last_activity_at` integer NOT NULL,
	`additional_attributes` text DEFAULT '{}' NOT NULL,
	`custom_attributes` text DEFAULT '{}' NOT NULL,
	`sla_policy_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_account_display_unique` ON `conversations` (`account_id`,`display_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_uuid_unique` ON `conversations` (`uuid`);--> statement-breakpoint
CREATE INDEX `conversations_account_status_activity` ON `conversations` (`account_id`,`status`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `conversations_inbox_status_activity` ON `conversations` (`inbox_id`,`status`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `conversations_contact_activity` ON `conversations` (`contact_id`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `conversations_contact_inbox` ON `conversations` (`contact_inbox_id`);--> statement-breakpoint
CREATE TABLE `counters` (
	`account_id` integer NOT NULL,
	`key` text NOT NULL,
	`value` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `key`)
);
--> statement-breakpoint
CREATE TABLE `custom_attribute_definitions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`attribute_display_name` text NOT NULL,
	`attribute_key` text NOT NULL,
	`attribute_display_type` integer DEFAULT 0 NOT NULL,
	`attribute_model` integer DEFAULT 0 NOT NULL,
	`attribute_description` text,
	`attribute_values` text DEFAULT '[]' NOT NULL,
	`default_value` text,
	`regex_pattern` text,
	`regex_cue` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `custom_attribute_definitions_key_unique` ON `custom_attribute_definitions` (`account_id`,`attribute_model`,`attribute_key`);--> statement-breakpoint
CREATE TABLE `custom_filters` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`name` text NOT NULL,
	`filter_type` integer DEFAULT 0 NOT NULL,
	`query` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `custom_filters_account_user_type` ON `custom_filters` (`account_id`,`user_id`,`filter_type`);--> statement-breakpoint
CREATE TABLE `dashboard_apps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`user_id` integer,
	`title` text NOT NULL,
	`content` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dashboard_apps_account` ON `dashboard_apps` (`account_id`);--> statement-breakpoint
CREATE TABLE `event_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`event_name` text NOT NULL,
	`subject_type` text NOT NULL,
	`subject_id` integer NOT NULL,
	`data` text DEFAULT '{}' NOT NULL,
	`caused_by_automation` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`dispatched_at` integer
);
--> statement-breakpoint
CREATE INDEX `event_outbox_pending` ON `event_outbox` (`dispatched_at`,`id`);--> statement-breakpoint
CREATE TABLE `inbox_members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`inbox_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inbox_members_inbox_user_unique` ON `inbox_members` (`inbox_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `inbox_members_user` ON `inbox_members` (`user_id`,`inbox_id`);--> statement-breakpoint
CREATE TABLE `inboxes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`channel_type` text NOT NULL,
	`channel_id` integer NOT NULL,
	`identifier` text NOT NULL,
	`hmac_token` text NOT NULL,
	`hmac_mandatory` integer DEFAULT false NOT NULL,
	`avatar_url` text,
	`greeting_enabled` integer DEFAULT false NOT NULL,
	`greeting_message` text,
	`enable_email_collect` integer DEFAULT true NOT NULL,
	`csat_survey_enabled` integer DEFAULT false NOT NULL,
	`csat_config` text DEFAULT '{}' NOT NULL,
	`enable_auto_assignment` integer DEFAULT true NOT NULL,
	`auto_assignment_config` text DEFAULT '{}' NOT NULL,
	`working_hours_enabled` integer DEFAULT false NOT NULL,
	`working_hours` text DEFAULT '[]' NOT NULL,
	`out_of_office_message` text,
	`timezone` text DEFAULT 'UTC' NOT NULL,
	`allow_messages_after_resolved` integer DEFAULT true NOT NULL,
	`lock_to_single_conversation` integer DEFAULT false NOT NULL,
	`sender_name_type` integer DEFAULT 0 NOT NULL,
	`business_name` text,
	`portal_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inboxes_identifier_unique` ON `inboxes` (`identifier`);--> statement-breakpoint
CREATE INDEX `inboxes_account_name` ON `inboxes` (`account_id`,`name`);--> statement-breakpoint
CREATE TABLE `integration_hooks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`app_id` text NOT NULL,
	`inbox_id` integer,
	`status` integer DEFAULT 1 NOT NULL,
	`hook_type` integer DEFAULT 0 NOT NULL,
	`settings` text DEFAULT '{}' NOT NULL,
	`reference_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `integration_hooks_account_app` ON `integration_hooks` (`account_id`,`app_id`);--> statement-breakpoint
CREATE TABLE `labels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`color` text DEFAULT '#1f93ff' NOT NULL,
	`show_on_sidebar` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `labels_account_title_unique` ON `labels` (`account_id`,`title`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`inbox_id` integer NOT NULL,
	`conversation_id` integer NOT NULL,
	`message_type` integer NOT NULL,
	`content_type` integer DEFAULT 0 NOT NULL,
	`content` text,
	`private` integer DEFAULT false NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`source_id` text,
	`sender_type` text,
	`sender_id` integer,
	`content_attributes` text DEFAULT '{}' NOT NULL,
	`additional_attributes` text DEFAULT '{}' NOT NULL,
	`external_source_ids` text DEFAULT '{}' NOT NULL,
	`sentiment` text DEFAULT '{}' NOT NULL,
	`processed_message_content` text,
	`campaign_id` integer,
	`echo_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `messages_conversation_id` ON `messages` (`conversation_id`,`id`);--> statement-breakpoint
CREATE INDEX `messages_account_created` ON `messages` (`account_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `platform_app_permissibles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`platform_app_id` integer NOT NULL,
	`permissible_type` text NOT NULL,
	`permissible_id` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `platform_app_permissibles_unique` ON `platform_app_permissibles` (`platform_app_id`,`permissible_type`,`permissible_id`);--> statement-breakpoint
CREATE INDEX `platform_app_permissibles_target` ON `platform_app_permissibles` (`permissible_type`,`permissible_id`);--> statement-breakpoint
CREATE TABLE `platform_apps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `portals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`custom_domain` text,
	`color` text,
	`header_text` text,
	`homepage_link` text,
	`page_title` text,
	`archived` integer DEFAULT false NOT NULL,
	`config` text DEFAULT '{}' NOT NULL,
	`inbox_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `portals_slug_unique` ON `portals` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `portals_custom_domain_unique` ON `portals` (`custom_domain`) WHERE custom_domain IS NOT NULL;--> statement-breakpoint
CREATE INDEX `portals_account` ON `portals` (`account_id`);--> statement-breakpoint
CREATE TABLE `sso_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_digest` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sso_tokens_digest_unique` ON `sso_tokens` (`token_digest`);--> statement-breakpoint
CREATE INDEX `sso_tokens_user` ON `sso_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `taggings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`taggable_type` text NOT NULL,
	`taggable_id` integer NOT NULL,
	`tag` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `taggings_taggable_tag_unique` ON `taggings` (`taggable_type`,`taggable_id`,`tag`);--> statement-breakpoint
CREATE INDEX `taggings_account_tag` ON `taggings` (`account_id`,`taggable_type`,`tag`);--> statement-breakpoint
CREATE TABLE `team_members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`team_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `team_members_team_user_unique` ON `team_members` (`team_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `team_members_user` ON `team_members` (`user_id`,`team_id`);--> statement-breakpoint
CREATE TABLE `teams` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`allow_auto_assign` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `teams_account_name_unique` ON `teams` (`account_id`,`name`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`display_name` text,
	`email` text NOT NULL,
	`password_hash` text,
	`avatar_url` text,
	`message_signature` text,
	`ui_settings` text DEFAULT '{}' NOT NULL,
	`custom_attributes` text DEFAULT '{}' NOT NULL,
	`pubsub_token` text NOT NULL,
	`type` text,
	`confirmed_at` integer,
	`inviter_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_pubsub_token_unique` ON `users` (`pubsub_token`);--> statement-breakpoint
CREATE TABLE `web_widget_channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`website_url` text NOT NULL,
	`widget_color` text DEFAULT '#1f93ff' NOT NULL,
	`welcome_title` text,
	`welcome_tagline` text,
	`reply_time` integer DEFAULT 0 NOT NULL,
	`feature_flags` integer DEFAULT 7 NOT NULL,
	`pre_chat_form_enabled` integer DEFAULT false NOT NULL,
	`pre_chat_form_options` text DEFAULT '{}' NOT NULL,
	`continuity_via_email` integer DEFAULT true NOT NULL,
	`allowed_domains` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`webhook_id` integer NOT NULL,
	`event_id` integer NOT NULL,
	`event_name` text NOT NULL,
	`delivery_uuid` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status_code` integer,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_uuid_unique` ON `webhook_deliveries` (`delivery_uuid`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook` ON `webhook_deliveries` (`webhook_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`inbox_id` integer,
	`name` text,
	`url` text NOT NULL,
	`subscriptions` text NOT NULL,
	`webhook_type` integer DEFAULT 0 NOT NULL,
	`secret` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhooks_account_url_unique` ON `webhooks` (`account_id`,`url`);