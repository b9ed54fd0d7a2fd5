CREATE TABLE `password_resets` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_resets_token_uq` ON `password_resets` (`token_hash`);--> statement-breakpoint
CREATE INDEX `password_resets_user_idx` ON `password_resets` (`user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `people` ADD `cost_center` text;--> statement-breakpoint
ALTER TABLE `people` ADD `external_id` text;--> statement-breakpoint
ALTER TABLE `people` ADD `manager_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `people_external_id_live_uq` ON `people` (`external_id`) WHERE deleted_at IS NULL AND external_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `people_manager_idx` ON `people` (`manager_id`);