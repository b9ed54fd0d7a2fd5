CREATE TABLE `tenant_moves` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`from_shard` text NOT NULL,
	`from_binding` text NOT NULL,
	`to_shard` text NOT NULL,
	`to_binding` text,
	`state` text NOT NULL,
	`copied_rows` integer DEFAULT 0 NOT NULL,
	`changed_rows` integer DEFAULT 0 NOT NULL,
	`sessions` integer DEFAULT 0 NOT NULL,
	`switch_ms` integer,
	`error` text,
	`started_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`finished_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenant_moves_running_uq` ON `tenant_moves` (`tenant_id`) WHERE state IN ('copying', 'switching', 'retiring');--> statement-breakpoint
CREATE INDEX `tenant_moves_tenant_idx` ON `tenant_moves` (`tenant_id`,`started_at`);--> statement-breakpoint
ALTER TABLE `shards` ADD `region` text;--> statement-breakpoint
ALTER TABLE `shards` ADD `jurisdiction` text;