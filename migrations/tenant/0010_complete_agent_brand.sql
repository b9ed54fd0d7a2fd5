CREATE TABLE `quick_add_events` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`flow_id` text NOT NULL,
	`event` text NOT NULL,
	`item_id` text,
	`meta` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `quick_add_events_flow_idx` ON `quick_add_events` (`user_id`,`flow_id`,`id`);--> statement-breakpoint
CREATE TABLE `import_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`entity` text NOT NULL,
	`status` text NOT NULL,
	`total` integer NOT NULL,
	`processed` integer DEFAULT 0 NOT NULL,
	`created` integer DEFAULT 0 NOT NULL,
	`updated` integer DEFAULT 0 NOT NULL,
	`refused` integer DEFAULT 0 NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`completed_at` text
);
--> statement-breakpoint
CREATE INDEX `import_jobs_running_idx` ON `import_jobs` (`status`,`updated_at`);--> statement-breakpoint
CREATE TABLE `import_rows` (
	`job_id` text NOT NULL,
	`row_number` integer NOT NULL,
	`action` text,
	`target_id` text,
	`match_key` text,
	`input` text,
	`status` text NOT NULL,
	`claim` text,
	`errors` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`job_id`, `row_number`)
);
--> statement-breakpoint
CREATE INDEX `import_rows_status_idx` ON `import_rows` (`job_id`,`status`,`row_number`);--> statement-breakpoint
CREATE INDEX `asset_status_events_to_idx` ON `asset_status_events` (`to_status`,`at`);--> statement-breakpoint
CREATE INDEX `asset_status_events_from_idx` ON `asset_status_events` (`from_status`,`at`);--> statement-breakpoint
CREATE INDEX `asset_timeline_created_by_idx` ON `asset_timeline` (`actor`,`at`) WHERE type = 'CREATED';--> statement-breakpoint
CREATE INDEX `assets_analytics_idx` ON `assets` (`category_id`,`location_id`,`status`,`purchase_date`,`created_at`,`currency`,`purchase_cost_minor`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `assets_purchase_idx` ON `assets` (`purchase_date`,`id`) WHERE purchase_date IS NOT NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `assets_warranty_idx` ON `assets` (`warranty_expires_at`,`id`) WHERE warranty_expires_at IS NOT NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `assets_assigned_at_idx` ON `assets` (`assigned_at`,`id`) WHERE assigned_at IS NOT NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `assets_created_idx` ON `assets` (`created_at`);--> statement-breakpoint
CREATE INDEX `assignments_by_idx` ON `assignments` (`checked_out_by`,`checked_out_at`);--> statement-breakpoint
CREATE INDEX `session_items_missed_idx` ON `session_items` (`session_id`,`asset_id`) WHERE scan_id IS NULL AND excluded = 0 AND source <> 'found';--> statement-breakpoint
CREATE INDEX `maintenance_logs_completed_idx` ON `maintenance_logs` (`completed_date`,`type`,`item_id`);