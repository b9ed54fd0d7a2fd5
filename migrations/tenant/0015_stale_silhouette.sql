CREATE TABLE `sync_tombstones` (
	`entity` text NOT NULL,
	`id` text NOT NULL,
	`data` text NOT NULL,
	`deleted_at` text NOT NULL,
	PRIMARY KEY(`entity`, `id`)
);
--> statement-breakpoint
CREATE INDEX `sync_tombstones_deleted_idx` ON `sync_tombstones` (`entity`,`deleted_at`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_updated_idx` ON `sessions` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `maintenance_schedules_updated_idx` ON `maintenance_schedules` (`updated_at`,`id`);