CREATE TABLE `scan_events` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`session_name` text NOT NULL,
	`asset_id` text,
	`code` text,
	`result` text NOT NULL,
	`reason` text,
	`client_scan_id` text,
	`scanned_at` text NOT NULL,
	`received_at` text NOT NULL,
	`scanned_by` text NOT NULL,
	`location_id` text,
	`expected_location_id` text,
	`wrong_location` integer DEFAULT false NOT NULL,
	`marked_anyway` integer DEFAULT false NOT NULL,
	`rescan` integer DEFAULT false NOT NULL,
	`condition` text,
	`comment` text,
	`photo_keys` text DEFAULT '[]' NOT NULL,
	`unscanned_at` text,
	`unscanned_by` text,
	`superseded_by` text
);
--> statement-breakpoint
CREATE INDEX `scan_events_asset_idx` ON `scan_events` (`asset_id`,`scanned_at`,`id`);--> statement-breakpoint
CREATE INDEX `scan_events_session_idx` ON `scan_events` (`session_id`,`result`);--> statement-breakpoint
CREATE TABLE `session_items` (
	`session_id` text NOT NULL,
	`asset_id` text NOT NULL,
	`name` text NOT NULL,
	`unique_tag` text NOT NULL,
	`location_id` text NOT NULL,
	`category_id` text NOT NULL,
	`source` text NOT NULL,
	`excluded` integer DEFAULT false NOT NULL,
	`wrong_location` integer DEFAULT false NOT NULL,
	`scan_id` text,
	`scanned_at` text,
	`scanned_by` text,
	`condition` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`session_id`, `asset_id`)
);
--> statement-breakpoint
CREATE INDEX `session_items_location_idx` ON `session_items` (`session_id`,`location_id`);--> statement-breakpoint
CREATE TABLE `session_schedules` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`location_id` text,
	`include_sub_locations` integer DEFAULT true NOT NULL,
	`category_id` text,
	`assignee_ids` text DEFAULT '[]' NOT NULL,
	`every` integer NOT NULL,
	`unit` text NOT NULL,
	`anchor_at` text NOT NULL,
	`run_index` integer DEFAULT 0 NOT NULL,
	`next_run_at` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`auto_start` integer DEFAULT true NOT NULL,
	`due_in_days` integer,
	`last_run_at` text,
	`last_session_id` text,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `session_schedules_due_idx` ON `session_schedules` (`active`,`next_run_at`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`location_id` text,
	`include_sub_locations` integer DEFAULT true NOT NULL,
	`category_id` text,
	`due_at` text,
	`assignee_ids` text DEFAULT '[]' NOT NULL,
	`schedule_id` text,
	`scheduled_for` text,
	`expected_count` integer DEFAULT 0 NOT NULL,
	`scanned_count` integer DEFAULT 0 NOT NULL,
	`started_at` text,
	`completed_at` text,
	`cancelled_at` text,
	`report` text,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sessions_status_idx` ON `sessions` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_location_idx` ON `sessions` (`location_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_schedule_run_uq` ON `sessions` (`schedule_id`,`scheduled_for`) WHERE schedule_id IS NOT NULL;--> statement-breakpoint
DROP INDEX `assets_live_idx`;--> statement-breakpoint
DROP INDEX `assets_status_idx`;--> statement-breakpoint
DROP INDEX `assets_category_idx`;--> statement-breakpoint
DROP INDEX `assets_location_idx`;--> statement-breakpoint
DROP INDEX `assets_assignee_idx`;--> statement-breakpoint
DROP INDEX `assets_updated_idx`;--> statement-breakpoint
DROP INDEX `assets_due_back_idx`;--> statement-breakpoint
DROP INDEX `assets_name_idx`;--> statement-breakpoint
CREATE INDEX `assets_deleted_idx` ON `assets` (`deleted_at`,`id`) WHERE deleted_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `assets_live_idx` ON `assets` (`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `assets_status_idx` ON `assets` (`status`,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `assets_category_idx` ON `assets` (`category_id`,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `assets_location_idx` ON `assets` (`location_id`,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `assets_assignee_idx` ON `assets` (`assignee_id`,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `assets_updated_idx` ON `assets` (`updated_at`,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `assets_due_back_idx` ON `assets` (`due_back_at`,`id`) WHERE due_back_at IS NOT NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `assets_name_idx` ON `assets` (lower("name"));--> statement-breakpoint
ALTER TABLE `assignments` ADD `checkin_notes` text;