CREATE TABLE `stock_count_scans` (
	`session_id` text NOT NULL,
	`scan_id` text NOT NULL,
	`at` text NOT NULL,
	PRIMARY KEY(`session_id`, `scan_id`)
);
--> statement-breakpoint
CREATE TABLE `stock_counts` (
	`session_id` text NOT NULL,
	`item_id` text NOT NULL,
	`location_id` text NOT NULL,
	`expected` integer NOT NULL,
	`counted` integer NOT NULL,
	`scan_id` text,
	`counted_by` text NOT NULL,
	`counted_at` text NOT NULL,
	`applied_movement_id` text,
	PRIMARY KEY(`session_id`, `item_id`, `location_id`),
	CONSTRAINT "stock_counts_counted_ck" CHECK("stock_counts"."counted" >= 0)
);
--> statement-breakpoint
CREATE TABLE `stock_items` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`category_id` text NOT NULL,
	`unit` text DEFAULT 'each' NOT NULL,
	`sku` text,
	`tag` text NOT NULL,
	`unit_cost_minor` integer,
	`currency` text,
	`returnable` integer DEFAULT false NOT NULL,
	`reorder_level` integer,
	`on_hand` integer DEFAULT 0 NOT NULL,
	`low` integer DEFAULT false NOT NULL,
	`notes` text,
	`custom_fields` text DEFAULT '{}' NOT NULL,
	`file_keys` text DEFAULT '[]' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	`deleted_by` text,
	CONSTRAINT "stock_items_on_hand_ck" CHECK("stock_items"."on_hand" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `stock_items_tag_live_uq` ON `stock_items` (lower("tag")) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `stock_items_sku_live_uq` ON `stock_items` (lower("sku")) WHERE sku IS NOT NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `stock_items_live_idx` ON `stock_items` (`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `stock_items_deleted_idx` ON `stock_items` (`deleted_at`,`id`) WHERE deleted_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `stock_items_category_idx` ON `stock_items` (`category_id`,`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `stock_items_name_idx` ON `stock_items` (lower("name"));--> statement-breakpoint
CREATE INDEX `stock_items_updated_idx` ON `stock_items` (`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `stock_levels` (
	`item_id` text NOT NULL,
	`location_id` text NOT NULL,
	`quantity` integer DEFAULT 0 NOT NULL,
	`reorder_level` integer,
	`low` integer DEFAULT false NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`item_id`, `location_id`),
	CONSTRAINT "stock_levels_quantity_ck" CHECK("stock_levels"."quantity" >= 0)
);
--> statement-breakpoint
CREATE INDEX `stock_levels_location_idx` ON `stock_levels` (`location_id`,`item_id`);--> statement-breakpoint
CREATE TABLE `stock_movements` (
	`id` text PRIMARY KEY NOT NULL,
	`item_id` text NOT NULL,
	`kind` text NOT NULL,
	`quantity` integer NOT NULL,
	`from_location_id` text,
	`to_location_id` text,
	`person_id` text,
	`asset_id` text,
	`issued_to_location_id` text,
	`open_quantity` integer,
	`issue_id` text,
	`unit_cost_minor` integer,
	`currency` text,
	`supplier` text,
	`reference` text,
	`note` text,
	`reason` text,
	`counted_quantity` integer,
	`session_id` text,
	`actor` text NOT NULL,
	`at` text NOT NULL,
	CONSTRAINT "stock_movements_quantity_ck" CHECK("stock_movements"."quantity" >= 0),
	CONSTRAINT "stock_movements_open_ck" CHECK("stock_movements"."open_quantity" IS NULL OR "stock_movements"."open_quantity" >= 0)
);
--> statement-breakpoint
CREATE INDEX `stock_movements_item_idx` ON `stock_movements` (`item_id`,`id`);--> statement-breakpoint
CREATE INDEX `stock_movements_open_idx` ON `stock_movements` (`person_id`,`id`) WHERE open_quantity > 0;--> statement-breakpoint
CREATE INDEX `stock_movements_open_item_idx` ON `stock_movements` (`item_id`,`id`) WHERE open_quantity > 0;--> statement-breakpoint
CREATE INDEX `stock_movements_issue_idx` ON `stock_movements` (`issue_id`) WHERE issue_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `stock_movements_kind_at_idx` ON `stock_movements` (`kind`,`at`);