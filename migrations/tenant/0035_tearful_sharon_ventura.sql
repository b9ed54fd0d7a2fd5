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
CREATE INDEX `handovers_state_idx` ON `handovers` (`state`,`id`);