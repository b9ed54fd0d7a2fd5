PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_licence_seats` (
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
INSERT INTO `__new_licence_seats`("id", "lot_id", "product_id", "holder_kind", "holder_id", "assigned_at", "assigned_by", "unassigned_at", "unassigned_by", "unassign_reason", "last_used_at", "cost_minor", "updated_at") SELECT "id", "lot_id", "product_id", "holder_kind", "holder_id", "assigned_at", "assigned_by", "unassigned_at", "unassigned_by", "unassign_reason", "last_used_at", "cost_minor", "updated_at" FROM `licence_seats`;--> statement-breakpoint
DROP TABLE `licence_seats`;--> statement-breakpoint
ALTER TABLE `__new_licence_seats` RENAME TO `licence_seats`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `licence_seats_open_uq` ON `licence_seats` (`lot_id`,`holder_kind`,`holder_id`) WHERE unassigned_at IS NULL;--> statement-breakpoint
CREATE INDEX `licence_seats_lot_idx` ON `licence_seats` (`lot_id`,`id`) WHERE unassigned_at IS NULL;--> statement-breakpoint
CREATE INDEX `licence_seats_holder_idx` ON `licence_seats` (`holder_kind`,`holder_id`,`id`);--> statement-breakpoint
CREATE INDEX `licence_seats_product_idx` ON `licence_seats` (`product_id`,`holder_kind`,`holder_id`) WHERE unassigned_at IS NULL;--> statement-breakpoint
CREATE INDEX `licence_seats_cost_idx` ON `licence_seats` (`cost_minor`,`id`) WHERE unassigned_at IS NULL;--> statement-breakpoint
CREATE INDEX `licence_seats_updated_idx` ON `licence_seats` (`updated_at`,`id`);--> statement-breakpoint
ALTER TABLE `licence_lots` ADD `assigned_count` integer DEFAULT 0 NOT NULL;