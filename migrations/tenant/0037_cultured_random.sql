CREATE TABLE `licence_feeds` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `licence_feeds_token_uq` ON `licence_feeds` (`token_hash`);--> statement-breakpoint
CREATE INDEX `licence_feeds_user_idx` ON `licence_feeds` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `licence_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`lot_id` text NOT NULL,
	`label` text,
	`key_sealed` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text
);
--> statement-breakpoint
CREATE INDEX `licence_keys_lot_idx` ON `licence_keys` (`lot_id`,`id`);--> statement-breakpoint
CREATE TABLE `licence_lots` (
	`id` text PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL,
	`kind` text NOT NULL,
	`seats` integer,
	`cost_minor` integer,
	`currency` text,
	`order_number` text,
	`supplier` text,
	`location_id` text,
	`start_date` text,
	`end_date` text,
	`renewal` text,
	`renewal_years` integer,
	`auto_renew` integer DEFAULT false NOT NULL,
	`notice_days` integer DEFAULT 30 NOT NULL,
	`assigned_count` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	`deleted_by` text
);
--> statement-breakpoint
CREATE INDEX `licence_lots_product_idx` ON `licence_lots` (`product_id`,`id`);--> statement-breakpoint
CREATE INDEX `licence_lots_end_idx` ON `licence_lots` (`end_date`,`id`) WHERE deleted_at IS NULL AND end_date IS NOT NULL;--> statement-breakpoint
CREATE INDEX `licence_lots_updated_idx` ON `licence_lots` (`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `licence_products` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`vendor` text,
	`category` text,
	`notes` text,
	`on_holder_leaves` text DEFAULT 'release' NOT NULL,
	`custom_fields` text DEFAULT '{}' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	`deleted_by` text
);
--> statement-breakpoint
CREATE INDEX `licence_products_name_idx` ON `licence_products` (lower("name"),`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `licence_products_updated_idx` ON `licence_products` (`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `licence_reminders` (
	`lot_id` text NOT NULL,
	`kind` text NOT NULL,
	`end_date` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`lot_id`, `kind`, `end_date`)
);
--> statement-breakpoint
CREATE TABLE `licence_review_items` (
	`review_id` text NOT NULL,
	`seat_id` text NOT NULL,
	`holder_kind` text NOT NULL,
	`holder_id` text NOT NULL,
	`reviewer_person_id` text,
	`outcome` text,
	`decided_at` text,
	`decided_by` text,
	PRIMARY KEY(`review_id`, `seat_id`)
);
--> statement-breakpoint
CREATE TABLE `licence_reviews` (
	`id` text PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL,
	`due_date` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text,
	`closed_at` text
);
--> statement-breakpoint
CREATE INDEX `licence_reviews_product_idx` ON `licence_reviews` (`product_id`,`id`);--> statement-breakpoint
CREATE TABLE `licence_seats` (
	`id` text PRIMARY KEY NOT NULL,
	`lot_id` text NOT NULL,
	`product_id` text NOT NULL,
	`holder_kind` text NOT NULL,
	`holder_id` text NOT NULL,
	`assigned_at` text NOT NULL,
	`assigned_by` text,
	`unassigned_at` text,
	`unassigned_by` text,
	`unassign_reason` text,
	`last_used_at` text,
	`cost_minor` integer DEFAULT 0 NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `licence_seats_open_uq` ON `licence_seats` (`lot_id`,`holder_kind`,`holder_id`) WHERE unassigned_at IS NULL;--> statement-breakpoint
CREATE INDEX `licence_seats_lot_idx` ON `licence_seats` (`lot_id`,`id`) WHERE unassigned_at IS NULL;--> statement-breakpoint
CREATE INDEX `licence_seats_holder_idx` ON `licence_seats` (`holder_kind`,`holder_id`,`id`);--> statement-breakpoint
CREATE INDEX `licence_seats_product_idx` ON `licence_seats` (`product_id`,`holder_kind`,`holder_id`) WHERE unassigned_at IS NULL;--> statement-breakpoint
CREATE INDEX `licence_seats_cost_idx` ON `licence_seats` (`cost_minor`,`id`) WHERE unassigned_at IS NULL;--> statement-breakpoint
CREATE INDEX `licence_seats_updated_idx` ON `licence_seats` (`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `licence_usage` (
	`product_id` text NOT NULL,
	`holder_kind` text NOT NULL,
	`holder_id` text NOT NULL,
	`used_at` text NOT NULL,
	`source` text DEFAULT 'api' NOT NULL,
	`seat_id` text,
	`recorded_at` text NOT NULL,
	PRIMARY KEY(`product_id`, `holder_kind`, `holder_id`, `used_at`, `source`)
);
--> statement-breakpoint
CREATE INDEX `licence_usage_seat_idx` ON `licence_usage` (`seat_id`,`used_at`);