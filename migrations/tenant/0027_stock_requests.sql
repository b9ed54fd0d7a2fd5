ALTER TABLE `requests` ADD `stock_item_id` text;--> statement-breakpoint
ALTER TABLE `requests` ADD `quantity` integer;--> statement-breakpoint
ALTER TABLE `requests` ADD `location_id` text;--> statement-breakpoint
ALTER TABLE `requests` ADD `stock_movement_id` text;--> statement-breakpoint
CREATE INDEX `requests_stock_item_idx` ON `requests` (`stock_item_id`,`status`) WHERE stock_item_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `stock_items` ADD `requestable` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `stock_items_requestable_idx` ON `stock_items` (`id`) WHERE deleted_at IS NULL AND requestable = 1;