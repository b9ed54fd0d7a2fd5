CREATE TABLE `shards` (
	`name` text PRIMARY KEY NOT NULL,
	`pool` integer NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
DROP INDEX `tenants_db_binding_uq`;--> statement-breakpoint
ALTER TABLE `tenants` ADD `shard` text DEFAULT 'main' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_shard_db_binding_uq` ON `tenants` (`shard`,`db_binding`);