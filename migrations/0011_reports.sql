CREATE TABLE `csat_survey_responses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`conversation_id` integer NOT NULL,
	`message_id` integer NOT NULL,
	`inbox_id` integer NOT NULL,
	`team_id` integer,
	`contact_id` integer NOT NULL,
	`assigned_agent_id` integer,
	`rating` integer,
	`feedback_message` text,
	`sent_at` integer NOT NULL,
	`answered_at` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `csat_survey_responses_message_unique` ON `csat_survey_responses` (`message_id`);--> statement-breakpoint
CREATE INDEX `csat_survey_responses_account_answered` ON `csat_survey_responses` (`account_id`,`answered_at`);--> statement-breakpoint
CREATE INDEX `csat_survey_responses_account_sent` ON `csat_survey_responses` (`account_id`,`sent_at`);--> statement-breakpoint
CREATE TABLE `report_rollups` (
	`account_id` integer NOT NULL,
	`metric` text NOT NULL,
	`dimension` text NOT NULL,
	`dimension_id` integer NOT NULL,
	`bucket` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `metric`, `dimension`, `dimension_id`, `bucket`)
);
--> statement-breakpoint
CREATE INDEX `report_rollups_by_bucket` ON `report_rollups` (`account_id`,`metric`,`dimension`,`bucket`);--> statement-breakpoint
-- Backfill: rollups of the history written before them (the facts of reporting_events, the incoming and
-- public outgoing messages), counted where each conversation stands now (team, labels, and the assignee for
-- conversations_count and incoming messages); and the unattended counters of reports/conversations.
INSERT INTO `report_rollups` (`account_id`, `metric`, `dimension`, `dimension_id`, `bucket`, `count`, `total`)
SELECT e.account_id, e.name, 'account', 0, (e.created_at / 3600000) * 3600000, count(*), sum(e.value) FROM `reporting_events` e LEFT JOIN `conversations` c ON c.id = e.conversation_id GROUP BY 1, 2, 5;
--> statement-breakpoint
INSERT INTO `report_rollups` (`account_id`, `metric`, `dimension`, `dimension_id`, `bucket`, `count`, `total`)
SELECT e.account_id, e.name, 'inbox', e.inbox_id, (e.created_at / 3600000) * 3600000, count(*), sum(e.value) FROM `reporting_events` e LEFT JOIN `conversations` c ON c.id = e.conversation_id GROUP BY 1, 2, 4, 5;
--> statement-breakpoint
INSERT INTO `report_rollups` (`account_id`, `metric`, `dimension`, `dimension_id`, `bucket`, `count`, `total`)
SELECT e.account_id, e.name, 'team', c.team_id, (e.created_at / 3600000) * 3600000, count(*), sum(e.value) FROM `reporting_events` e LEFT JOIN `conversations` c ON c.id = e.conversation_id WHERE c.team_id IS NOT NULL GROUP BY 1, 2, 4, 5;
--> statement-breakpoint
INSERT INTO `report_rollups` (`account_id`, `metric`, `dimension`, `dimension_id`, `bucket`, `count`, `total`)
SELECT e.account_id, e.name, 'agent', CASE WHEN e.name = 'conversation_created' THEN c.assignee_id ELSE e.user_id END, (e.created_at / 3600000) * 3600000, count(*), sum(e.value) FROM `reporting_events` e LEFT JOIN `conversations` c ON c.id = e.conversation_id WHERE CASE WHEN e.name = 'conversation_created' THEN c.assignee_id ELSE e.user_id END IS NOT NULL GROUP BY 1, 2, 4, 5;
--> statement-breakpoint
INSERT INTO `report_rollups` (`account_id`, `metric`, `dimension`, `dimension_id`, `bucket`, `count`, `total`)
SELECT e.account_id, e.name, 'label', l.id, (e.created_at / 3600000) * 3600000, count(*), sum(e.value) FROM `reporting_events` e LEFT JOIN `conversations` c ON c.id = e.conversation_id JOIN `taggings` t ON t.taggable_type = 'Conversation' AND t.taggable_id = e.conversation_id JOIN `labels` l ON l.account_id = t.account_id AND l.title = lower(t.tag) GROUP BY 1, 2, 4, 5;
--> statement-breakpoint
INSERT INTO `report_rollups` (`account_id`, `metric`, `dimension`, `dimension_id`, `bucket`, `count`, `total`)
SELECT e.account_id, CASE e.message_type WHEN 0 THEN 'incoming_message' ELSE 'outgoing_message' END, 'account', 0, (e.created_at / 3600000) * 3600000, count(*), 0 FROM `messages` e JOIN `conversations` c ON c.id = e.conversation_id WHERE (e.message_type = 0 OR (e.message_type = 1 AND e.private = 0)) GROUP BY 1, 2, 5;
--> statement-breakpoint
INSERT INTO `report_rollups` (`account_id`, `metric`, `dimension`, `dimension_id`, `bucket`, `count`, `total`)
SELECT e.account_id, CASE e.message_type WHEN 0 THEN 'incoming_message' ELSE 'outgoing_message' END, 'inbox', e.inbox_id, (e.created_at / 3600000) * 3600000, count(*), 0 FROM `messages` e JOIN `conversations` c ON c.id = e.conversation_id WHERE (e.message_type = 0 OR (e.message_type = 1 AND e.private = 0)) GROUP BY 1, 2, 4, 5;
--> statement-breakpoint
INSERT INTO `report_rollups` (`account_id`, `metric`, `dimension`, `dimension_id`, `bucket`, `count`, `total`)
SELECT e.account_id, CASE e.message_type WHEN 0 THEN 'incoming_message' ELSE 'outgoing_message' END, 'team', c.team_id, (e.created_at / 3600000) * 3600000, count(*), 0 FROM `messages` e JOIN `conversations` c ON c.id = e.conversation_id WHERE (e.message_type = 0 OR (e.message_type = 1 AND e.private = 0)) AND c.team_id IS NOT NULL GROUP BY 1, 2, 4, 5;
--> statement-breakpoint
INSERT INTO `report_rollups` (`account_id`, `metric`, `dimension`, `dimension_id`, `bucket`, `count`, `total`)
SELECT e.account_id, CASE e.message_type WHEN 0 THEN 'incoming_message' ELSE 'outgoing_message' END, 'agent', CASE WHEN e.message_type = 0 THEN c.assignee_id WHEN e.sender_type = 'User' THEN e.sender_id END, (e.created_at / 3600000) * 3600000, count(*), 0 FROM `messages` e JOIN `conversations` c ON c.id = e.conversation_id WHERE (e.message_type = 0 OR (e.message_type = 1 AND e.private = 0)) AND CASE WHEN e.message_type = 0 THEN c.assignee_id WHEN e.sender_type = 'User' THEN e.sender_id END IS NOT NULL GROUP BY 1, 2, 4, 5;
--> statement-breakpoint
INSERT INTO `report_rollups` (`account_id`, `metric`, `dimension`, `dimension_id`, `bucket`, `count`, `total`)
SELECT e.account_id, CASE e.message_type WHEN 0 THEN 'incoming_message' ELSE 'outgoing_message' END, 'label', l.id, (e.created_at / 3600000) * 3600000, count(*), 0 FROM `messages` e JOIN `conversations` c ON c.id = e.conversation_id JOIN `taggings` t ON t.taggable_type = 'Conversation' AND t.taggable_id = e.conversation_id JOIN `labels` l ON l.account_id = t.account_id AND l.title = lower(t.tag) WHERE (e.message_type = 0 OR (e.message_type = 1 AND e.private = 0)) GROUP BY 1, 2, 4, 5;
--> statement-breakpoint
INSERT INTO `counters` (`account_id`, `key`, `value`)
SELECT account_id, 'conversations.a.' || status || '.unattended', count(*) FROM `conversations` WHERE (first_reply_created_at IS NULL OR waiting_since IS NOT NULL) GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO `counters` (`account_id`, `key`, `value`)
SELECT account_id, 'conversations.a.' || status || '.unattended:assignee:' || assignee_id, count(*) FROM `conversations` WHERE (first_reply_created_at IS NULL OR waiting_since IS NOT NULL) AND assignee_id IS NOT NULL GROUP BY 1, 2;
