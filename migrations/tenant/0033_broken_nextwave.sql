ALTER TABLE `codes` ADD `updated_at` text DEFAULT '1970-01-01T00:00:00.000Z' NOT NULL;--> statement-breakpoint
CREATE INDEX `codes_updated_idx` ON `codes` (`updated_at`,`id`);