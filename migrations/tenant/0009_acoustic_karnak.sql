CREATE TABLE `asset_health` (
	`asset_id` text PRIMARY KEY NOT NULL,
	`score` integer NOT NULL,
	`badge` text NOT NULL,
	`reasons` text NOT NULL,
	`basis` text NOT NULL,
	`computed_at` text NOT NULL,
	`valid_until` text,
	`dirty` integer DEFAULT true NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `asset_health_badge_score_idx` ON `asset_health` (`badge`,`score`,`asset_id`);--> statement-breakpoint
CREATE INDEX `asset_health_score_idx` ON `asset_health` (`score`,`asset_id`);--> statement-breakpoint
CREATE INDEX `asset_health_badge_idx` ON `asset_health` (`badge`,`asset_id`);--> statement-breakpoint
CREATE INDEX `asset_health_dirty_idx` ON `asset_health` (`asset_id`) WHERE dirty = 1;--> statement-breakpoint
CREATE INDEX `asset_health_valid_idx` ON `asset_health` (`valid_until`) WHERE valid_until IS NOT NULL;--> statement-breakpoint
CREATE INDEX `asset_health_basis_idx` ON `asset_health` (`basis`);--> statement-breakpoint
CREATE TABLE `asset_last_audit` (
	`asset_id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`session_name` text NOT NULL,
	`started_at` text,
	`completed_at` text NOT NULL,
	`found` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `health_runs` (
	`day` text PRIMARY KEY NOT NULL,
	`cursor` text,
	`completed_at` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
-- Backfill (hand-written): existing live assets get a stale placeholder row, which the first cron run re-scores.
INSERT INTO `asset_health` (`asset_id`, `score`, `badge`, `reasons`, `basis`, `computed_at`, `valid_until`, `dirty`, `version`)
SELECT `id`, 100, 'HEALTHY', '[]', '', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), NULL, 1, 1 FROM `assets` WHERE `deleted_at` IS NULL;
--> statement-breakpoint
INSERT INTO `asset_last_audit` (`asset_id`, `session_id`, `session_name`, `started_at`, `completed_at`, `found`)
SELECT si.`asset_id`, s.`id`, s.`name`, s.`started_at`, s.`completed_at`, si.`scanned_at` IS NOT NULL
FROM `session_items` si JOIN `sessions` s ON s.`id` = si.`session_id`
WHERE s.`status` = 'completed' AND s.`completed_at` IS NOT NULL AND si.`excluded` = 0
ON CONFLICT (`asset_id`) DO UPDATE SET `session_id` = excluded.`session_id`, `session_name` = excluded.`session_name`,
  `started_at` = excluded.`started_at`, `completed_at` = excluded.`completed_at`, `found` = excluded.`found`
WHERE excluded.`completed_at` > `asset_last_audit`.`completed_at`;
