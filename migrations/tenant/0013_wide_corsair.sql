CREATE TABLE `sso_replays` (
	`assertion_id` text PRIMARY KEY NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sso_replays_expires_idx` ON `sso_replays` (`expires_at`);--> statement-breakpoint
CREATE TABLE `sso_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`request_id` text NOT NULL,
	`code_verifier` text,
	`expires_at` text NOT NULL,
	`consumed_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sso_requests_expires_idx` ON `sso_requests` (`expires_at`);