CREATE TABLE `agreement_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`agreement_id` text NOT NULL,
	`version` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agreement_versions_uq` ON `agreement_versions` (`agreement_id`,`version`);--> statement-breakpoint
CREATE TABLE `agreements` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`scope_kind` text NOT NULL,
	`scope_id` text DEFAULT '' NOT NULL,
	`require_return_signature` integer DEFAULT false NOT NULL,
	`current_version` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agreements_scope_uq` ON `agreements` (`scope_kind`,`scope_id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `agreements_name_idx` ON `agreements` (`name`,`id`);--> statement-breakpoint
CREATE TABLE `handover_receipts` (
	`id` text PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL,
	`handover_id` text NOT NULL,
	`prev_hash` text NOT NULL,
	`doc_sha256` text NOT NULL,
	`chain_hash` text NOT NULL,
	`object_key` text NOT NULL,
	`issued_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `handover_receipts_seq_uq` ON `handover_receipts` (`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `handover_receipts_prev_uq` ON `handover_receipts` (`prev_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `handover_receipts_handover_uq` ON `handover_receipts` (`handover_id`);--> statement-breakpoint
CREATE TABLE `handovers` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`state` text NOT NULL,
	`person_id` text NOT NULL,
	`person_name` text NOT NULL,
	`kit_id` text,
	`agreement_id` text,
	`agreement_version_id` text,
	`items` text NOT NULL,
	`due_back_at` text,
	`method` text,
	`signer_name` text,
	`signature_key` text,
	`decline_reason` text,
	`link_nonce` text,
	`link_expires_at` text,
	`receipt_id` text,
	`created_at` text NOT NULL,
	`created_by` text,
	`decided_at` text
);
--> statement-breakpoint
CREATE INDEX `handovers_person_idx` ON `handovers` (`person_id`,`id`);--> statement-breakpoint
CREATE INDEX `handovers_state_idx` ON `handovers` (`state`,`id`);--> statement-breakpoint
CREATE TABLE `codes` (
	`id` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`value_lc` text NOT NULL,
	`symbology` text NOT NULL,
	`status` text NOT NULL,
	`holder_kind` text,
	`holder_id` text,
	`batch_id` text,
	`created_at` text NOT NULL,
	`claimed_at` text,
	`claimed_by` text,
	`voided_at` text,
	`updated_at` text DEFAULT '1970-01-01T00:00:00.000Z' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `codes_value_live_uq` ON `codes` (`value_lc`) WHERE status <> 'void';--> statement-breakpoint
CREATE INDEX `codes_updated_idx` ON `codes` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `codes_holder_idx` ON `codes` (`holder_kind`,`holder_id`);--> statement-breakpoint
CREATE INDEX `codes_status_idx` ON `codes` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `codes_batch_idx` ON `codes` (`batch_id`,`id`);--> statement-breakpoint
CREATE TABLE `label_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`spec` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `label_templates_name_uq` ON `label_templates` (lower("name"));--> statement-breakpoint
CREATE TABLE `tag_batches` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`symbology` text NOT NULL,
	`count` integer NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text
);
--> statement-breakpoint
CREATE TABLE `licence_feeds` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`last_used_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `licence_feeds_token_uq` ON `licence_feeds` (`token_hash`);--> statement-breakpoint
CREATE INDEX `licence_feeds_user_idx` ON `licence_feeds` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `licence_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`lot_id` text NOT NULL,
	`label` text,
	`key_sealed` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text
);
--> statement-breakpoint
CREATE INDEX `licence_keys_lot_idx` ON `licence_keys` (`lot_id`,`id`);--> statement-breakpoint
CREATE TABLE `licence_lots` (
	`id` text PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL,
	`kind` text NOT NULL,
	`seats` integer,
	`cost_minor` integer,
	`currency` text,
	`order_number` text,
	`supplier` text,
	`location_id` text,
	`start_date` text,
	`end_date` text,
	`renewal` text,
	`renewal_years` integer,
	`auto_renew` integer DEFAULT false NOT NULL,
	`notice_days` integer DEFAULT 30 NOT NULL,
	`assigned_count` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	`deleted_by` text
);
--> statement-breakpoint
CREATE INDEX `licence_lots_product_idx` ON `licence_lots` (`product_id`,`id`);--> statement-breakpoint
CREATE INDEX `licence_lots_end_idx` ON `licence_lots` (`end_date`,`id`) WHERE deleted_at IS NULL AND end_date IS NOT NULL;--> statement-breakpoint
CREATE INDEX `licence_lots_updated_idx` ON `licence_lots` (`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `licence_products` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`vendor` text,
	`category` text,
	`notes` text,
	`on_holder_leaves` text DEFAULT 'release' NOT NULL,
	`custom_fields` text DEFAULT '{}' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`deleted_at` text,
	`deleted_by` text
);
--> statement-breakpoint
CREATE INDEX `licence_products_name_idx` ON `licence_products` (lower("name"),`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `licence_products_updated_idx` ON `licence_products` (`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `licence_reminders` (
	`lot_id` text NOT NULL,
	`kind` text NOT NULL,
	`end_date` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`lot_id`, `kind`, `end_date`)
);
--> statement-breakpoint
CREATE TABLE `licence_review_items` (
	`review_id` text NOT NULL,
	`seat_id` text NOT NULL,
	`holder_kind` text NOT NULL,
	`holder_id` text NOT NULL,
	`reviewer_person_id` text,
	`outcome` text,
	`decided_at` text,
	`decided_by` text,
	PRIMARY KEY(`review_id`, `seat_id`)
);
--> statement-breakpoint
CREATE TABLE `licence_reviews` (
	`id` text PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL,
	`due_date` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text,
	`closed_at` text
);
--> statement-breakpoint
CREATE INDEX `licence_reviews_product_idx` ON `licence_reviews` (`product_id`,`id`);--> statement-breakpoint
CREATE TABLE `licence_seats` (
	`id` text PRIMARY KEY NOT NULL,
	`lot_id` text NOT NULL,
	`product_id` text NOT NULL,
	`holder_kind` text NOT NULL,
	`holder_id` text NOT NULL,
	`assigned_at` text NOT NULL,
	`assigned_by` text,
	`unassigned_at` text,
	`unassigned_by` text,
	`unassign_reason` text,
	`last_used_at` text,
	`cost_minor` integer DEFAULT 0 NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `licence_seats_open_uq` ON `licence_seats` (`lot_id`,`holder_kind`,`holder_id`) WHERE unassigned_at IS NULL;--> statement-breakpoint
CREATE INDEX `licence_seats_lot_idx` ON `licence_seats` (`lot_id`,`id`) WHERE unassigned_at IS NULL;--> statement-breakpoint
CREATE INDEX `licence_seats_holder_idx` ON `licence_seats` (`holder_kind`,`holder_id`,`id`);--> statement-breakpoint
CREATE INDEX `licence_seats_product_idx` ON `licence_seats` (`product_id`,`holder_kind`,`holder_id`) WHERE unassigned_at IS NULL;--> statement-breakpoint
CREATE INDEX `licence_seats_cost_idx` ON `licence_seats` (`cost_minor`,`id`) WHERE unassigned_at IS NULL;--> statement-breakpoint
CREATE INDEX `licence_seats_updated_idx` ON `licence_seats` (`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `licence_usage` (
	`product_id` text NOT NULL,
	`holder_kind` text NOT NULL,
	`holder_id` text NOT NULL,
	`used_at` text NOT NULL,
	`source` text DEFAULT 'api' NOT NULL,
	`seat_id` text,
	`recorded_at` text NOT NULL,
	PRIMARY KEY(`product_id`, `holder_kind`, `holder_id`, `used_at`, `source`)
);
--> statement-breakpoint
CREATE INDEX `licence_usage_seat_idx` ON `licence_usage` (`seat_id`,`used_at`);--> statement-breakpoint
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
--> statement-breakpoint
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
CREATE INDEX `scim_users_person_idx` ON `scim_users` (`person_id`);--> statement-breakpoint
ALTER TABLE `people` ADD `cost_center` text;--> statement-breakpoint
ALTER TABLE `people` ADD `external_id` text;--> statement-breakpoint
ALTER TABLE `people` ADD `manager_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `people_external_id_live_uq` ON `people` (`external_id`) WHERE deleted_at IS NULL AND external_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `people_manager_idx` ON `people` (`manager_id`);--> statement-breakpoint
ALTER TABLE `notifications` ADD `planned_at` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `digest_key` text;--> statement-breakpoint
ALTER TABLE `notifications` ADD `digest_due_at` text;--> statement-breakpoint
CREATE INDEX `notifications_unplanned_idx` ON `notifications` (`id`) WHERE planned_at IS NULL;--> statement-breakpoint
CREATE INDEX `notifications_digest_due_idx` ON `notifications` (`digest_due_at`,`user_id`,`digest_key`) WHERE digest_due_at IS NOT NULL;