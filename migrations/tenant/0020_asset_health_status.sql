ALTER TABLE `asset_health` ADD `status` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `asset_health_status_score_idx` ON `asset_health` (`status`,`score`,`asset_id`);--> statement-breakpoint
-- Hand-written below (drizzle has no triggers): asset_health.status follows assets.status in the same
-- statement as every write, whatever the path (routes, bulk, import, sessions, trash restore).
UPDATE asset_health SET status = coalesce((SELECT a.status FROM assets a WHERE a.id = asset_health.asset_id), '');--> statement-breakpoint
CREATE TRIGGER asset_health_status_insert AFTER INSERT ON asset_health BEGIN
  UPDATE asset_health SET status = coalesce((SELECT a.status FROM assets a WHERE a.id = new.asset_id), '') WHERE asset_id = new.asset_id;
END
--> statement-breakpoint
CREATE TRIGGER asset_health_status_follow AFTER UPDATE OF status ON assets WHEN old.status IS NOT new.status BEGIN
  UPDATE asset_health SET status = new.status WHERE asset_id = new.id;
END
