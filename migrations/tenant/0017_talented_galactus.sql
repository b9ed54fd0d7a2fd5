ALTER TABLE `kits` ADD `deleted_at` text;--> statement-breakpoint
ALTER TABLE `kits` ADD `deleted_by` text;--> statement-breakpoint
ALTER TABLE `kits` ADD `deleted_members` text;--> statement-breakpoint
CREATE INDEX `kits_live_idx` ON `kits` (`deleted_at`,`id`);