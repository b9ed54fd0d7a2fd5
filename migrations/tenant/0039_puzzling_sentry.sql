CREATE TABLE `notification_kind_settings` (
	`kind` text PRIMARY KEY NOT NULL,
	`email_mode` text,
	`chat_provider` text,
	`chat_url_sealed` text,
	`chat_url_host` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `notification_preferences` (
	`recipient_id` text NOT NULL,
	`kind` text NOT NULL,
	`channel` text NOT NULL,
	`mode` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`recipient_id`, `kind`, `channel`)
);
--> statement-breakpoint
CREATE TABLE `notification_sends` (
	`id` text PRIMARY KEY NOT NULL,
	`dedupe_key` text NOT NULL,
	`channel` text NOT NULL,
	`kind` text NOT NULL,
	`recipient_kind` text NOT NULL,
	`recipient_id` text NOT NULL,
	`notification_id` text,
	`digest_key` text,
	`item_count` integer DEFAULT 1 NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`claimed_until` text,
	`subject` text,
	`message_id` text,
	`last_error` text,
	`sent_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `notification_sends_dedupe_uq` ON `notification_sends` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `notification_sends_due_idx` ON `notification_sends` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `notification_user_settings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`time_zone` text,
	`quiet_start` text,
	`quiet_end` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `notification_workspace_settings` (
	`id` text PRIMARY KEY NOT NULL,
	`people_mode` text DEFAULT 'off' NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `notifications` ADD `planned_at` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `digest_key` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `digest_due_at` text;--> statement-breakpoint
CREATE INDEX `notifications_unplanned_idx` ON `notifications` (`id`) WHERE planned_at IS NULL;--> statement-breakpoint
CREATE INDEX `notifications_digest_due_idx` ON `notifications` (`digest_due_at`,`user_id`,`digest_key`) WHERE digest_due_at IS NOT NULL;