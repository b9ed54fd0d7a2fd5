CREATE TABLE `sso_configs` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`sso_only_enabled` integer DEFAULT false NOT NULL,
	`settings` text NOT NULL,
	`client_secret_enc` text,
	`metadata` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
