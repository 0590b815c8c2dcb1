ALTER TABLE `contacts` ADD `name_sort` text;--> statement-breakpoint
ALTER TABLE `contacts` ADD `company_sort` text;--> statement-breakpoint
ALTER TABLE `contacts` ADD `city_sort` text;--> statement-breakpoint
ALTER TABLE `contacts` ADD `country_sort` text;--> statement-breakpoint
CREATE INDEX `contacts_list_name` ON `contacts` (`account_id`,`name_sort`,`id`) WHERE resolved = 1;--> statement-breakpoint
CREATE INDEX `contacts_list_email` ON `contacts` (`account_id`,`email`,`id`) WHERE resolved = 1;--> statement-breakpoint
CREATE INDEX `contacts_list_phone_number` ON `contacts` (`account_id`,`phone_number`,`id`) WHERE resolved = 1;--> statement-breakpoint
CREATE INDEX `contacts_list_last_activity_at` ON `contacts` (`account_id`,`last_activity_at`,`id`) WHERE resolved = 1;--> statement-breakpoint
CREATE INDEX `contacts_list_created_at` ON `contacts` (`account_id`,`created_at`,`id`) WHERE resolved = 1;--> statement-breakpoint
CREATE INDEX `contacts_list_company` ON `contacts` (`account_id`,`company_sort`,`id`) WHERE resolved = 1;--> statement-breakpoint
CREATE INDEX `contacts_list_city` ON `contacts` (`account_id`,`city_sort`,`id`) WHERE resolved = 1;--> statement-breakpoint
CREATE INDEX `contacts_list_country` ON `contacts` (`account_id`,`country_sort`,`id`) WHERE resolved = 1;--> statement-breakpoint
-- Hand-added: backfills the derived sort keys of existing rows the way src/domain/contact-fields.ts
-- derives them on every write (SQLite's lower() folds ASCII only; later writes refine the rest).
UPDATE `contacts` SET
  `name_sort` = CASE
    WHEN trim(`name`) = '' THEN NULL
    WHEN substr(trim(`name`), 1, 1) GLOB '[+0-9]' THEN '1' || lower(trim(`name`))
    ELSE '0' || lower(trim(`name`)) END,
  `company_sort` = CASE WHEN json_type(`additional_attributes`, '$.company_name') = 'text'
    THEN nullif(lower(trim(json_extract(`additional_attributes`, '$.company_name'))), '') END,
  `city_sort` = CASE WHEN json_type(`additional_attributes`, '$.city') = 'text'
    THEN nullif(lower(trim(json_extract(`additional_attributes`, '$.city'))), '') END,
  `country_sort` = CASE WHEN json_type(`additional_attributes`, '$.country') = 'text'
    THEN nullif(lower(trim(json_extract(`additional_attributes`, '$.country'))), '') END;
