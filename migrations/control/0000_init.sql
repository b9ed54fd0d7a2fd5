CREATE TABLE `job_cursors` (
	`job` text PRIMARY KEY NOT NULL,
	`cursor` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `tenants` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`plan` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`db_binding` text NOT NULL,
	`settings` text DEFAULT '{}' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_slug_uq` ON `tenants` (`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_db_binding_uq` ON `tenants` (`db_binding`);--> statement-breakpoint
CREATE INDEX `tenants_created_idx` ON `tenants` (`created_at`,`id`);