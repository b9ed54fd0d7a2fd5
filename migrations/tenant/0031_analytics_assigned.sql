-- Hand-written (docs/analytics.md "How the figures are kept"): live assets with an
-- assignment (assigned_at set) per category, location and UTC month of assigned_at, kept exact by
-- triggers on assets (the pattern of 0018 and 0021: deltas through upserts in the statement that
-- changes the row). Replacement-loss counts the long-held assignments (over 30, 90, 180 and 365 days)
-- from the months before each cutoff's month plus that month's index range up to the cutoff, instead
-- of reading every assignment older than 30 days (9,250 index entries at 100,000 assets in the
-- benchmark). The last statement backfills from the existing rows.
CREATE TABLE analytics_assigned_months (
  category_id TEXT NOT NULL, location_id TEXT NOT NULL, month TEXT NOT NULL, n INTEGER NOT NULL,
  PRIMARY KEY (category_id, location_id, month)
) WITHOUT ROWID
--> statement-breakpoint
CREATE TRIGGER analytics_assigned_assets_insert AFTER INSERT ON assets
WHEN new.assigned_at IS NOT NULL AND new.deleted_at IS NULL BEGIN
  INSERT INTO analytics_assigned_months (category_id, location_id, month, n)
    VALUES (new.category_id, new.location_id, substr(new.assigned_at, 1, 7), 1)
    ON CONFLICT (category_id, location_id, month) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_assigned_assets_update AFTER UPDATE OF assigned_at, category_id, location_id, deleted_at ON assets
WHEN (old.assigned_at IS NOT NULL OR new.assigned_at IS NOT NULL) AND (old.assigned_at IS NOT new.assigned_at
  OR old.category_id IS NOT new.category_id OR old.location_id IS NOT new.location_id OR old.deleted_at IS NOT new.deleted_at) BEGIN
  INSERT INTO analytics_assigned_months (category_id, location_id, month, n)
    SELECT old.category_id, old.location_id, substr(old.assigned_at, 1, 7), -1 WHERE old.assigned_at IS NOT NULL AND old.deleted_at IS NULL
    ON CONFLICT (category_id, location_id, month) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_assigned_months (category_id, location_id, month, n)
    SELECT new.category_id, new.location_id, substr(new.assigned_at, 1, 7), 1 WHERE new.assigned_at IS NOT NULL AND new.deleted_at IS NULL
    ON CONFLICT (category_id, location_id, month) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_assigned_assets_delete AFTER DELETE ON assets
WHEN old.assigned_at IS NOT NULL AND old.deleted_at IS NULL BEGIN
  INSERT INTO analytics_assigned_months (category_id, location_id, month, n)
    VALUES (old.category_id, old.location_id, substr(old.assigned_at, 1, 7), -1)
    ON CONFLICT (category_id, location_id, month) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
INSERT INTO analytics_assigned_months (category_id, location_id, month, n)
SELECT category_id, location_id, substr(assigned_at, 1, 7), count(*) FROM assets
WHERE assigned_at IS NOT NULL AND deleted_at IS NULL GROUP BY 1, 2, 3
