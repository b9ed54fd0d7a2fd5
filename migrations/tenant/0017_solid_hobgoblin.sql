CREATE TABLE `booking_items` (
	`booking_id` text NOT NULL,
	`asset_id` text NOT NULL,
	`starts_at` text NOT NULL,
	`ends_at` text NOT NULL,
	`active` integer DEFAULT 1 NOT NULL,
	`returned_at` text,
	PRIMARY KEY(`booking_id`, `asset_id`)
);
--> statement-breakpoint
CREATE INDEX `booking_items_window_idx` ON `booking_items` (`asset_id`,`starts_at`,`ends_at`) WHERE active = 1;--> statement-breakpoint
CREATE INDEX `booking_items_asset_idx` ON `booking_items` (`asset_id`,`booking_id`);--> statement-breakpoint
CREATE TABLE `booking_reminders` (
	`booking_id` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`booking_id`, `kind`)
);
--> statement-breakpoint
CREATE TABLE `bookings` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`kit_id` text,
	`status` text DEFAULT 'reserved' NOT NULL,
	`starts_at` text NOT NULL,
	`ends_at` text NOT NULL,
	`notes` text,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`picked_up_at` text,
	`returned_at` text,
	`cancelled_at` text
);
--> statement-breakpoint
CREATE INDEX `bookings_starts_idx` ON `bookings` (`starts_at`,`id`);--> statement-breakpoint
CREATE INDEX `bookings_person_idx` ON `bookings` (`person_id`,`starts_at`,`id`);--> statement-breakpoint
CREATE INDEX `bookings_status_idx` ON `bookings` (`status`,`starts_at`,`id`);--> statement-breakpoint
CREATE TABLE `calendar_feeds` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`person_id` text,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_token_uq` ON `calendar_feeds` (`token_hash`);--> statement-breakpoint
CREATE INDEX `calendar_feeds_user_idx` ON `calendar_feeds` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `kit_members` (
	`kit_id` text NOT NULL,
	`asset_id` text NOT NULL,
	`added_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `kit_members_asset_uq` ON `kit_members` (`asset_id`);--> statement-breakpoint
CREATE INDEX `kit_members_kit_idx` ON `kit_members` (`kit_id`,`asset_id`);--> statement-breakpoint
CREATE TABLE `kits` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	`deleted_by` text,
	`deleted_members` text
);
--> statement-breakpoint
CREATE INDEX `kits_name_idx` ON `kits` (`name`,`id`);--> statement-breakpoint
CREATE INDEX `kits_live_idx` ON `kits` (`deleted_at`,`id`);