DROP INDEX `assets_warranty_idx`;--> statement-breakpoint
DROP INDEX `assets_assigned_at_idx`;--> statement-breakpoint
CREATE INDEX `assets_unpurchased_idx` ON `assets` (`created_at`,`id`,`category_id`,`location_id`) WHERE purchase_date IS NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `assets_warranty_idx` ON `assets` (`warranty_expires_at`,`id`,`category_id`,`location_id`) WHERE warranty_expires_at IS NOT NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `assets_assigned_at_idx` ON `assets` (`assigned_at`,`id`,`category_id`,`location_id`) WHERE assigned_at IS NOT NULL AND deleted_at IS NULL;