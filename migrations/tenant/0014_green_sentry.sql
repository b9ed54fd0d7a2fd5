CREATE TABLE `idempotency_keys` (
	`credential` text NOT NULL,
	`key` text NOT NULL,
	`token` text NOT NULL,
	`request_hash` text NOT NULL,
	`state` text NOT NULL,
	`status` integer,
	`content_type` text,
	`body` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	PRIMARY KEY(`credential`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
DROP INDEX `assets_updated_idx`;--> statement-breakpoint
CREATE INDEX `assets_updated_idx` ON `assets` (`updated_at`,`id`);--> statement-breakpoint
ALTER TABLE `api_keys` ADD `scopes` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `expires_at` text;