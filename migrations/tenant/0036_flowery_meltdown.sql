CREATE TABLE `scim_group_mappings` (
	`id` text PRIMARY KEY NOT NULL,
	`group_name` text NOT NULL,
	`role` text,
	`location_id` text,
	`department` text,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scim_group_mappings_group_uq` ON `scim_group_mappings` (lower("group_name"));--> statement-breakpoint
CREATE TABLE `scim_groups` (
	`id` text PRIMARY KEY NOT NULL,
	`display_name` text NOT NULL,
	`external_id` text,
	`resource` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scim_groups_display_name_uq` ON `scim_groups` (lower("display_name"));--> statement-breakpoint
CREATE TABLE `scim_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_by` text,
	`last_used_at` text,
	`revoked_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scim_tokens_hash_uq` ON `scim_tokens` (`token_hash`);--> statement-breakpoint
CREATE TABLE `scim_users` (
	`id` text PRIMARY KEY NOT NULL,
	`user_name` text NOT NULL,
	`external_id` text,
	`active` integer DEFAULT true NOT NULL,
	`person_id` text NOT NULL,
	`user_id` text,
	`resource` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scim_users_user_name_uq` ON `scim_users` (lower("user_name"));--> statement-breakpoint
CREATE INDEX `scim_users_external_id_idx` ON `scim_users` (`external_id`);--> statement-breakpoint
CREATE INDEX `scim_users_person_idx` ON `scim_users` (`person_id`);