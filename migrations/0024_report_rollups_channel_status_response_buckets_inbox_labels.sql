-- Backfills three report rollups kept from now on with each change (src/domain/reports/facts.ts), so the
-- reports that read them (summary_reports/channel, reports/first_response_time_distribution,
-- reports/inbox_label_matrix) also cover what happened before this migration. Bucket: the UTC hour, epoch ms.
-- Conversations by current status, per inbox, in the hour each was created (statuses stored 0..3).
INSERT INTO `report_rollups` (`account_id`, `metric`, `dimension`, `dimension_id`, `bucket`, `count`, `total`)
SELECT `account_id`,
       CASE `status` WHEN 0 THEN 'status_open' WHEN 1 THEN 'status_resolved' WHEN 2 THEN 'status_pending' ELSE 'status_snoozed' END,
       'inbox', `inbox_id`, (`created_at` / 3600000) * 3600000, count(*), 0
FROM `conversations`
GROUP BY 1, 2, 4, 5;
--> statement-breakpoint
-- First responses per inbox by how long they took, in the hour of the response.
INSERT INTO `report_rollups` (`account_id`, `metric`, `dimension`, `dimension_id`, `bucket`, `count`, `total`)
SELECT `account_id`,
       CASE WHEN `value` < 3600 THEN 'first_response_0_1h' WHEN `value` < 14400 THEN 'first_response_1_4h'
            WHEN `value` < 28800 THEN 'first_response_4_8h' WHEN `value` < 86400 THEN 'first_response_8_24h'
            ELSE 'first_response_24h_plus' END,
       'inbox', `inbox_id`, (`created_at` / 3600000) * 3600000, count(*), sum(`value`)
FROM `reporting_events`
WHERE `name` = 'first_response'
GROUP BY 1, 2, 4, 5;
--> statement-breakpoint
-- Conversations of each inbox by their current labels, in the hour each conversation was created.
INSERT INTO `report_rollups` (`account_id`, `metric`, `dimension`, `dimension_id`, `bucket`, `count`, `total`)
SELECT c.`account_id`, 'inbox_conversations:' || c.`inbox_id`, 'label', l.`id`, (c.`created_at` / 3600000) * 3600000, count(*), 0
FROM `conversations` c
JOIN `taggings` t ON t.`account_id` = c.`account_id` AND t.`taggable_type` = 'Conversation' AND t.`taggable_id` = c.`id`
JOIN `labels` l ON l.`account_id` = t.`account_id` AND l.`title` = lower(t.`tag`)
GROUP BY 1, 2, 4, 5;
