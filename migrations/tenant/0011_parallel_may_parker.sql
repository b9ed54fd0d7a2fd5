DROP INDEX `assets_updated_idx`;--> statement-breakpoint
CREATE INDEX `assets_updated_idx` ON `assets` (`updated_at`,`id`);