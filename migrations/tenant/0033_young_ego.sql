CREATE TABLE `checkout_reminders` (
	`assignment_id` text NOT NULL,
	`due_back_at` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`assignment_id`, `due_back_at`)
);
--> statement-breakpoint
CREATE TABLE `sso_certificate_reminders` (
	`certificate_sha256` text NOT NULL,
	`not_after` text NOT NULL,
	`threshold_days` integer NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`certificate_sha256`, `not_after`, `threshold_days`)
);
