CREATE TABLE `offboarding_cases` (
	`id` text PRIMARY KEY NOT NULL,
	`person_id` text NOT NULL,
	`state` text DEFAULT 'open' NOT NULL,
	`source` text NOT NULL,
	`request_id` text,
	`due_at` text NOT NULL,
	`started_by` text NOT NULL,
	`started_at` text NOT NULL,
	`overdue_at` text,
	`closed_at` text,
	`cancelled_at` text,
	`cancelled_by` text,
	`receipt` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `offboarding_cases_open_person_uq` ON `offboarding_cases` (`person_id`) WHERE state = 'open';--> statement-breakpoint
CREATE INDEX `offboarding_cases_person_idx` ON `offboarding_cases` (`person_id`,`id`);--> statement-breakpoint
CREATE INDEX `offboarding_cases_state_idx` ON `offboarding_cases` (`state`,`id`);--> statement-breakpoint
CREATE TABLE `offboarding_items` (
	`case_id` text NOT NULL,
	`kind` text NOT NULL,
	`item_id` text NOT NULL,
	`name` text NOT NULL,
	`reference` text,
	`parent_asset_id` text,
	`quantity` integer,
	`state` text DEFAULT 'outstanding' NOT NULL,
	`returned_at` text,
	PRIMARY KEY(`case_id`, `kind`, `item_id`)
);
--> statement-breakpoint
CREATE TABLE `offboarding_reminders` (
	`case_id` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`case_id`, `kind`)
);
--> statement-breakpoint
CREATE TABLE `password_resets` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_resets_token_uq` ON `password_resets` (`token_hash`);--> statement-breakpoint
CREATE INDEX `password_resets_user_idx` ON `password_resets` (`user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `people` ADD `cost_center` text;--> statement-breakpoint
ALTER TABLE `people` ADD `external_id` text;--> statement-breakpoint
ALTER TABLE `people` ADD `manager_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `people_external_id_live_uq` ON `people` (`external_id`) WHERE deleted_at IS NULL AND external_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `people_manager_idx` ON `people` (`manager_id`);