CREATE TABLE `maintenance_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`item_id` text NOT NULL,
	`schedule_id` text,
	`type` text NOT NULL,
	`completed_date` text NOT NULL,
	`notes` text,
	`due_date` text,
	`performed_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `maintenance_logs_item_idx` ON `maintenance_logs` (`item_id`,`completed_date`,`id`);--> statement-breakpoint
CREATE INDEX `maintenance_logs_schedule_idx` ON `maintenance_logs` (`schedule_id`,`completed_date`,`id`);--> statement-breakpoint
CREATE TABLE `maintenance_reminder_runs` (
	`day` text PRIMARY KEY NOT NULL,
	`cursor` text,
	`completed_at` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `maintenance_reminders` (
	`schedule_id` text NOT NULL,
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`schedule_id`, `day`)
);
--> statement-breakpoint
CREATE INDEX `maintenance_reminders_day_idx` ON `maintenance_reminders` (`day`);--> statement-breakpoint
CREATE TABLE `maintenance_schedules` (
	`id` text PRIMARY KEY NOT NULL,
	`item_id` text NOT NULL,
	`title` text NOT NULL,
	`type` text NOT NULL,
	`every` integer,
	`unit` text,
	`anchor_date` text NOT NULL,
	`next_due_date` text NOT NULL,
	`reminder_days` integer NOT NULL,
	`remind_from` text NOT NULL,
	`assignee_user_id` text,
	`notes` text,
	`status` text DEFAULT 'active' NOT NULL,
	`last_completed_at` text,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `maintenance_schedules_item_idx` ON `maintenance_schedules` (`item_id`,`next_due_date`,`id`);--> statement-breakpoint
CREATE INDEX `maintenance_schedules_due_idx` ON `maintenance_schedules` (`next_due_date`,`id`) WHERE status = 'active';--> statement-breakpoint
CREATE INDEX `maintenance_schedules_remind_idx` ON `maintenance_schedules` (`remind_from`,`id`) WHERE status = 'active';--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`title` text NOT NULL,
	`message` text NOT NULL,
	`data` text DEFAULT '{}' NOT NULL,
	`read_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `notifications_unread_idx` ON `notifications` (`user_id`,`id`) WHERE read_at IS NULL;--> statement-breakpoint
CREATE TABLE `realtime_tickets` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `realtime_tickets_expires_idx` ON `realtime_tickets` (`expires_at`);