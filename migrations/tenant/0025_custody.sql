CREATE TABLE `requests` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`requester_user_id` text NOT NULL,
	`person_id` text NOT NULL,
	`asset_id` text,
	`kit_id` text,
	`starts_at` text,
	`ends_at` text,
	`due_back_at` text,
	`note` text,
	`status` text DEFAULT 'open' NOT NULL,
	`decided_by` text,
	`decided_at` text,
	`decision_note` text,
	`booking_id` text,
	`reminded_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `requests_status_idx` ON `requests` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `requests_requester_idx` ON `requests` (`requester_user_id`,`id`);--> statement-breakpoint
CREATE INDEX `requests_asset_idx` ON `requests` (`asset_id`,`status`);--> statement-breakpoint
ALTER TABLE `assets` ADD `holder_kind` text;--> statement-breakpoint
ALTER TABLE `assets` ADD `holder_id` text;--> statement-breakpoint
ALTER TABLE `assets` ADD `holder_name` text;--> statement-breakpoint
ALTER TABLE `assets` ADD `requestable` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `assets_holder_idx` ON `assets` (`holder_kind`,`holder_id`,`id`) WHERE deleted_at IS NULL AND holder_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `assets_requestable_idx` ON `assets` (`id`) WHERE deleted_at IS NULL AND requestable = 1;--> statement-breakpoint
ALTER TABLE `assignments` ADD `holder_kind` text DEFAULT 'person' NOT NULL;--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------
-- Hand-written (docs/assets.md, checkout targets): backfill the holder of today's checkouts (all to people), and keep the
-- holder's name snapshot fresh when a person, a location or an asset is renamed.
-- ---------------------------------------------------------------------------------------------
UPDATE `assets` SET `holder_kind` = 'person', `holder_id` = `assignee_id`,
  `holder_name` = (SELECT `name` FROM `people` WHERE `people`.`id` = `assets`.`assignee_id`)
  WHERE `assignee_id` IS NOT NULL;--> statement-breakpoint
CREATE TRIGGER `assets_holder_name_person` AFTER UPDATE OF `name` ON `people`
BEGIN
  UPDATE `assets` SET `holder_name` = NEW.`name` WHERE `holder_kind` = 'person' AND `holder_id` = NEW.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `assets_holder_name_location` AFTER UPDATE OF `name` ON `locations`
BEGIN
  UPDATE `assets` SET `holder_name` = NEW.`name` WHERE `holder_kind` = 'location' AND `holder_id` = NEW.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `assets_holder_name_asset` AFTER UPDATE OF `name` ON `assets`
BEGIN
  UPDATE `assets` SET `holder_name` = NEW.`name` WHERE `holder_kind` = 'asset' AND `holder_id` = NEW.`id`;
END;
