CREATE TABLE `asset_status_events` (
	`id` text PRIMARY KEY NOT NULL,
	`asset_id` text NOT NULL,
	`from_status` text NOT NULL,
	`to_status` text NOT NULL,
	`reason` text,
	`meta` text,
	`actor` text NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `asset_status_events_asset_idx` ON `asset_status_events` (`asset_id`,`id`);--> statement-breakpoint
CREATE TABLE `asset_timeline` (
	`id` text PRIMARY KEY NOT NULL,
	`asset_id` text NOT NULL,
	`type` text NOT NULL,
	`at` text NOT NULL,
	`actor` text,
	`data` text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `asset_timeline_asset_idx` ON `asset_timeline` (`asset_id`,`id`);--> statement-breakpoint
CREATE INDEX `asset_timeline_type_idx` ON `asset_timeline` (`asset_id`,`type`,`id`);--> statement-breakpoint
CREATE TABLE `assets` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`unique_tag` text NOT NULL,
	`serial_number` text,
	`model` text,
	`manufacturer` text,
	`category_id` text NOT NULL,
	`location_id` text NOT NULL,
	`status` text DEFAULT 'available' NOT NULL,
	`assignee_id` text,
	`assigned_at` text,
	`due_back_at` text,
	`reserved_until` text,
	`reservation_reason` text,
	`purchase_date` text,
	`purchase_cost_minor` integer,
	`currency` text,
	`warranty_expires_at` text,
	`notes` text,
	`custom_fields` text DEFAULT '{}' NOT NULL,
	`image_key` text,
	`last_verified_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	`deleted_by` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `assets_tag_live_uq` ON `assets` (lower("unique_tag")) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `assets_live_idx` ON `assets` (`deleted_at`,`id`);--> statement-breakpoint
CREATE INDEX `assets_status_idx` ON `assets` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `assets_category_idx` ON `assets` (`category_id`,`id`);--> statement-breakpoint
CREATE INDEX `assets_location_idx` ON `assets` (`location_id`,`id`);--> statement-breakpoint
CREATE INDEX `assets_assignee_idx` ON `assets` (`assignee_id`,`id`);--> statement-breakpoint
CREATE INDEX `assets_updated_idx` ON `assets` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `assets_due_back_idx` ON `assets` (`due_back_at`) WHERE due_back_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `assets_serial_idx` ON `assets` (lower("serial_number"));--> statement-breakpoint
CREATE INDEX `assets_name_idx` ON `assets` (lower("name"),`id`);--> statement-breakpoint
CREATE TABLE `assignments` (
	`id` text PRIMARY KEY NOT NULL,
	`asset_id` text NOT NULL,
	`person_id` text NOT NULL,
	`person_name` text NOT NULL,
	`checked_out_at` text NOT NULL,
	`checked_out_by` text NOT NULL,
	`due_back_at` text,
	`checked_in_at` text,
	`checked_in_by` text,
	`checkin_reason` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `assignments_open_uq` ON `assignments` (`asset_id`) WHERE checked_in_at IS NULL;--> statement-breakpoint
CREATE INDEX `assignments_asset_idx` ON `assignments` (`asset_id`,`id`);--> statement-breakpoint
CREATE INDEX `assignments_person_idx` ON `assignments` (`person_id`,`id`);--> statement-breakpoint
CREATE TABLE `people` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`employee_number` text,
	`department` text,
	`title` text,
	`phone` text,
	`location_id` text,
	`notes` text,
	`status` text DEFAULT 'active' NOT NULL,
	`custom_fields` text DEFAULT '{}' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	`deleted_by` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `people_email_live_uq` ON `people` (lower("email")) WHERE deleted_at IS NULL AND email IS NOT NULL;--> statement-breakpoint
CREATE INDEX `people_live_idx` ON `people` (`deleted_at`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `people_name_idx` ON `people` (lower("name"),`id`);--> statement-breakpoint
CREATE INDEX `people_employee_number_idx` ON `people` (`employee_number`);--> statement-breakpoint
CREATE TABLE `custom_fields` (
	`id` text PRIMARY KEY NOT NULL,
	`entity` text NOT NULL,
	`key` text NOT NULL,
	`label` text NOT NULL,
	`type` text NOT NULL,
	`options` text,
	`required` integer DEFAULT false NOT NULL,
	`help_text` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	`deleted_by` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `custom_fields_key_live_uq` ON `custom_fields` (`entity`,lower("key")) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `custom_fields_live_idx` ON `custom_fields` (`deleted_at`,`entity`,`id`);--> statement-breakpoint
CREATE TABLE `layouts` (
	`id` text PRIMARY KEY NOT NULL,
	`entity` text NOT NULL,
	`name` text NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`sections` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `layouts_name_uq` ON `layouts` (`entity`,lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX `layouts_default_uq` ON `layouts` (`entity`) WHERE is_default = 1;--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`entity_type` text NOT NULL,
	`entity_id` text NOT NULL,
	`action` text NOT NULL,
	`field` text,
	`old_value` text,
	`new_value` text,
	`actor` text NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_entity_idx` ON `audit_log` (`entity_type`,`entity_id`,`id`);