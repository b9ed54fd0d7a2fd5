CREATE TABLE `shards` (
	`name` text PRIMARY KEY NOT NULL,
	`pool` integer NOT NULL,
	`region` text,
	`jurisdiction` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
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
DROP INDEX `tenants_db_binding_uq`;--> statement-breakpoint
ALTER TABLE `tenants` ADD `shard` text DEFAULT 'main' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_shard_db_binding_uq` ON `tenants` (`shard`,`db_binding`);