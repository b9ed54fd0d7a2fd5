CREATE TABLE `webhook_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`delivery_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`at` text NOT NULL,
	`ok` integer NOT NULL,
	`status_code` integer,
	`latency_ms` integer NOT NULL,
	`error` text,
	`response_body` text,
	`trigger` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`,`at`);--> statement-breakpoint
CREATE INDEX `webhook_attempts_window_idx` ON `webhook_attempts` (`at`,`endpoint_id`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`source` text NOT NULL,
	`status` text NOT NULL,
	`payload` text NOT NULL,
	`attempt_count` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`lease_until` text,
	`last_status_code` integer,
	`last_error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_fanout_idx` ON `webhook_deliveries` (`event_id`,`endpoint_id`) WHERE source = 'event';--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`next_attempt_at`) WHERE status IN ('pending', 'retrying');--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`endpoint_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event_idx` ON `webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`event_types` text,
	`enabled` integer DEFAULT true NOT NULL,
	`disabled_reason` text,
	`disabled_at` text,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_expires_at` text,
	`last_verified_at` text,
	`last_success_at` text,
	`failing_since` text,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `outbox_unconsumed_idx` ON `outbox` (`dispatched_at`) WHERE consumed_at IS NULL;