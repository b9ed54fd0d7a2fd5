ALTER TABLE `people` ADD `cost_center` text;--> statement-breakpoint
ALTER TABLE `people` ADD `external_id` text;--> statement-breakpoint
ALTER TABLE `people` ADD `manager_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `people_external_id_live_uq` ON `people` (`external_id`) WHERE deleted_at IS NULL AND external_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `people_manager_idx` ON `people` (`manager_id`);