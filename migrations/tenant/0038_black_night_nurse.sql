CREATE TABLE `codes` (
	`id` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`value_lc` text NOT NULL,
	`symbology` text NOT NULL,
	`status` text NOT NULL,
	`holder_kind` text,
	`holder_id` text,
	`batch_id` text,
	`created_at` text NOT NULL,
	`claimed_at` text,
	`claimed_by` text,
	`voided_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `codes_value_live_uq` ON `codes` (`value_lc`) WHERE status <> 'void';--> statement-breakpoint
CREATE INDEX `codes_holder_idx` ON `codes` (`holder_kind`,`holder_id`);--> statement-breakpoint
CREATE INDEX `codes_status_idx` ON `codes` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `codes_batch_idx` ON `codes` (`batch_id`,`id`);--> statement-breakpoint
CREATE TABLE `label_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`spec` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `label_templates_name_uq` ON `label_templates` (lower("name"));--> statement-breakpoint
CREATE TABLE `tag_batches` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`symbology` text NOT NULL,
	`count` integer NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text
);
