-- Analytics rollups (docs/analytics.md "How the figures are kept"): per-workspace counters that
-- the analytics routes read instead of counting asset, status-event and maintenance-log rows. SQLite
-- triggers keep them exact in the same statement (so in the same db.batch) as every write, whatever the
-- path (routes, bulk, CSV import, trash restore and purge, sessions, sync), without service code of
-- their own. Every counter is applied as a delta (-1 for the old state, +1 for the new) through an
-- upsert; rows that fall back to zero stay and are skipped by the readers (HAVING / WHERE n <> 0).
-- Hand-written (WITHOUT ROWID tables and triggers are not expressible in the drizzle schema); the last
-- statements backfill the counters from the rows that exist when it runs.
CREATE TABLE analytics_asset_counts (
  category_id TEXT NOT NULL, location_id TEXT NOT NULL, status TEXT NOT NULL,
  badge TEXT NOT NULL, -- the asset's stored health badge, '' while it has no asset_health row
  n INTEGER NOT NULL,
  PRIMARY KEY (category_id, location_id, status, badge)
) WITHOUT ROWID
--> statement-breakpoint
CREATE TABLE analytics_badge_counts (badge TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID
--> statement-breakpoint
CREATE TABLE analytics_age_months (
  category_id TEXT NOT NULL, location_id TEXT NOT NULL, month TEXT NOT NULL,
  n INTEGER NOT NULL, days INTEGER NOT NULL, -- days: sum of the age days as days since 1970-01-01
  PRIMARY KEY (category_id, location_id, month)
) WITHOUT ROWID
--> statement-breakpoint
CREATE TABLE analytics_age_days (
  day TEXT NOT NULL, category_id TEXT NOT NULL, location_id TEXT NOT NULL, n INTEGER NOT NULL,
  PRIMARY KEY (day, category_id, location_id)
) WITHOUT ROWID
--> statement-breakpoint
CREATE TABLE analytics_values (
  category_id TEXT NOT NULL, currency TEXT NOT NULL, purchase_date TEXT NOT NULL, n INTEGER NOT NULL, cost INTEGER NOT NULL,
  PRIMARY KEY (category_id, currency, purchase_date)
) WITHOUT ROWID
--> statement-breakpoint
CREATE TABLE analytics_values_by_location (
  location_id TEXT NOT NULL, category_id TEXT NOT NULL, currency TEXT NOT NULL, purchase_date TEXT NOT NULL, n INTEGER NOT NULL, cost INTEGER NOT NULL,
  PRIMARY KEY (location_id, category_id, currency, purchase_date)
) WITHOUT ROWID
--> statement-breakpoint
CREATE TABLE analytics_daily (day TEXT NOT NULL, metric TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (day, metric)) WITHOUT ROWID
--> statement-breakpoint
CREATE TABLE analytics_daily_scoped (
  category_id TEXT NOT NULL, day TEXT NOT NULL, metric TEXT NOT NULL, location_id TEXT NOT NULL, n INTEGER NOT NULL,
  PRIMARY KEY (category_id, day, metric, location_id)
) WITHOUT ROWID
--> statement-breakpoint
CREATE TABLE analytics_schedules_due (
  next_due_date TEXT NOT NULL, remind_from TEXT NOT NULL, category_id TEXT NOT NULL, location_id TEXT NOT NULL, n INTEGER NOT NULL,
  PRIMARY KEY (next_due_date, remind_from, category_id, location_id)
) WITHOUT ROWID
--> statement-breakpoint
CREATE INDEX analytics_daily_scoped_location_idx ON analytics_daily_scoped (location_id, day, metric, category_id, n)
--> statement-breakpoint
CREATE TRIGGER analytics_assets_insert AFTER INSERT ON assets BEGIN
  INSERT INTO analytics_asset_counts (category_id, location_id, status, badge, n)
    SELECT * FROM (SELECT new.category_id, new.location_id, new.status, coalesce((SELECT h.badge FROM asset_health h WHERE h.asset_id = new.id), ''), 1 WHERE new.deleted_at IS NULL) WHERE true
    ON CONFLICT (category_id, location_id, status, badge) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_age_months (category_id, location_id, month, n, days)
    SELECT * FROM (SELECT new.category_id, new.location_id, substr(coalesce(new.purchase_date, substr(new.created_at, 1, 10)), 1, 7), 1, 1 * CAST(julianday(coalesce(new.purchase_date, substr(new.created_at, 1, 10))) - 2440587.5 AS INTEGER) WHERE new.deleted_at IS NULL) WHERE true
    ON CONFLICT (category_id, location_id, month) DO UPDATE SET n = n + excluded.n, days = days + excluded.days;
  INSERT INTO analytics_age_days (day, category_id, location_id, n)
    SELECT * FROM (SELECT coalesce(new.purchase_date, substr(new.created_at, 1, 10)), new.category_id, new.location_id, 1 WHERE new.deleted_at IS NULL) WHERE true
    ON CONFLICT (day, category_id, location_id) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_values (category_id, currency, purchase_date, n, cost)
    SELECT * FROM (SELECT new.category_id, new.currency, new.purchase_date, 1, 1 * new.purchase_cost_minor WHERE new.deleted_at IS NULL AND new.purchase_cost_minor IS NOT NULL AND new.currency IS NOT NULL AND new.purchase_date IS NOT NULL) WHERE true
    ON CONFLICT (category_id, currency, purchase_date) DO UPDATE SET n = n + excluded.n, cost = cost + excluded.cost;
  INSERT INTO analytics_values_by_location (location_id, category_id, currency, purchase_date, n, cost)
    SELECT * FROM (SELECT new.location_id, new.category_id, new.currency, new.purchase_date, 1, 1 * new.purchase_cost_minor WHERE new.deleted_at IS NULL AND new.purchase_cost_minor IS NOT NULL AND new.currency IS NOT NULL AND new.purchase_date IS NOT NULL) WHERE true
    ON CONFLICT (location_id, category_id, currency, purchase_date) DO UPDATE SET n = n + excluded.n, cost = cost + excluded.cost;
  INSERT INTO analytics_schedules_due (next_due_date, remind_from, category_id, location_id, n)
    SELECT m.next_due_date, m.remind_from, new.category_id, new.location_id, 1 * count(*) FROM maintenance_schedules m
    WHERE m.item_id = new.id AND +m.status = 'active' AND new.deleted_at IS NULL GROUP BY m.next_due_date, m.remind_from
    ON CONFLICT (next_due_date, remind_from, category_id, location_id) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily (day, metric, n) VALUES (substr(new.created_at, 1, 10), 'created', 1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily_scoped (category_id, day, metric, location_id, n)
    SELECT new.category_id, day, metric, new.location_id, 1 * count(*) FROM (
      SELECT substr(new.created_at, 1, 10) AS day, 'created' AS metric
      UNION ALL SELECT substr(e.at, 1, 10), 'retired' FROM asset_status_events e WHERE e.asset_id = new.id AND +e.to_status = 'retired'
      UNION ALL SELECT substr(e.at, 1, 10), 'lost' FROM asset_status_events e WHERE e.asset_id = new.id AND +e.to_status = 'lost'
      UNION ALL SELECT substr(e.at, 1, 10), 'found' FROM asset_status_events e WHERE e.asset_id = new.id AND +e.from_status = 'lost'
      UNION ALL SELECT substr(l.completed_date, 1, 10), 'm:' || l.type FROM maintenance_logs l WHERE l.item_id = new.id
    ) WHERE true GROUP BY day, metric
    ON CONFLICT (category_id, day, metric, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_assets_update AFTER UPDATE OF deleted_at, category_id, location_id, status, purchase_date, created_at, currency, purchase_cost_minor ON assets
WHEN (old.deleted_at IS NULL OR new.deleted_at IS NULL) AND (old.deleted_at IS NOT new.deleted_at OR old.category_id IS NOT new.category_id OR old.location_id IS NOT new.location_id OR old.status IS NOT new.status OR old.purchase_date IS NOT new.purchase_date OR old.created_at IS NOT new.created_at OR old.currency IS NOT new.currency OR old.purchase_cost_minor IS NOT new.purchase_cost_minor)
BEGIN
  INSERT INTO analytics_asset_counts (category_id, location_id, status, badge, n)
    SELECT * FROM (SELECT old.category_id, old.location_id, old.status, coalesce((SELECT h.badge FROM asset_health h WHERE h.asset_id = old.id), ''), -1 WHERE old.deleted_at IS NULL
    UNION ALL SELECT new.category_id, new.location_id, new.status, coalesce((SELECT h.badge FROM asset_health h WHERE h.asset_id = new.id), ''), 1 WHERE new.deleted_at IS NULL) WHERE true
    ON CONFLICT (category_id, location_id, status, badge) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_age_months (category_id, location_id, month, n, days)
    SELECT * FROM (SELECT old.category_id, old.location_id, substr(coalesce(old.purchase_date, substr(old.created_at, 1, 10)), 1, 7), -1, -1 * CAST(julianday(coalesce(old.purchase_date, substr(old.created_at, 1, 10))) - 2440587.5 AS INTEGER) WHERE old.deleted_at IS NULL
    UNION ALL SELECT new.category_id, new.location_id, substr(coalesce(new.purchase_date, substr(new.created_at, 1, 10)), 1, 7), 1, 1 * CAST(julianday(coalesce(new.purchase_date, substr(new.created_at, 1, 10))) - 2440587.5 AS INTEGER) WHERE new.deleted_at IS NULL) WHERE true
    ON CONFLICT (category_id, location_id, month) DO UPDATE SET n = n + excluded.n, days = days + excluded.days;
  INSERT INTO analytics_age_days (day, category_id, location_id, n)
    SELECT * FROM (SELECT coalesce(old.purchase_date, substr(old.created_at, 1, 10)), old.category_id, old.location_id, -1 WHERE old.deleted_at IS NULL
    UNION ALL SELECT coalesce(new.purchase_date, substr(new.created_at, 1, 10)), new.category_id, new.location_id, 1 WHERE new.deleted_at IS NULL) WHERE true
    ON CONFLICT (day, category_id, location_id) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_values (category_id, currency, purchase_date, n, cost)
    SELECT * FROM (SELECT old.category_id, old.currency, old.purchase_date, -1, -1 * old.purchase_cost_minor WHERE old.deleted_at IS NULL AND old.purchase_cost_minor IS NOT NULL AND old.currency IS NOT NULL AND old.purchase_date IS NOT NULL
    UNION ALL SELECT new.category_id, new.currency, new.purchase_date, 1, 1 * new.purchase_cost_minor WHERE new.deleted_at IS NULL AND new.purchase_cost_minor IS NOT NULL AND new.currency IS NOT NULL AND new.purchase_date IS NOT NULL) WHERE true
    ON CONFLICT (category_id, currency, purchase_date) DO UPDATE SET n = n + excluded.n, cost = cost + excluded.cost;
  INSERT INTO analytics_values_by_location (location_id, category_id, currency, purchase_date, n, cost)
    SELECT * FROM (SELECT old.location_id, old.category_id, old.currency, old.purchase_date, -1, -1 * old.purchase_cost_minor WHERE old.deleted_at IS NULL AND old.purchase_cost_minor IS NOT NULL AND old.currency IS NOT NULL AND old.purchase_date IS NOT NULL
    UNION ALL SELECT new.location_id, new.category_id, new.currency, new.purchase_date, 1, 1 * new.purchase_cost_minor WHERE new.deleted_at IS NULL AND new.purchase_cost_minor IS NOT NULL AND new.currency IS NOT NULL AND new.purchase_date IS NOT NULL) WHERE true
    ON CONFLICT (location_id, category_id, currency, purchase_date) DO UPDATE SET n = n + excluded.n, cost = cost + excluded.cost;
END
--> statement-breakpoint
CREATE TRIGGER analytics_assets_schedules AFTER UPDATE OF deleted_at, category_id, location_id ON assets
WHEN (old.deleted_at IS NULL OR new.deleted_at IS NULL) AND (old.deleted_at IS NOT new.deleted_at OR old.category_id IS NOT new.category_id OR old.location_id IS NOT new.location_id)
BEGIN
  INSERT INTO analytics_schedules_due (next_due_date, remind_from, category_id, location_id, n)
    SELECT m.next_due_date, m.remind_from, old.category_id, old.location_id, -1 * count(*) FROM maintenance_schedules m
    WHERE m.item_id = old.id AND +m.status = 'active' AND old.deleted_at IS NULL GROUP BY m.next_due_date, m.remind_from
    ON CONFLICT (next_due_date, remind_from, category_id, location_id) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_schedules_due (next_due_date, remind_from, category_id, location_id, n)
    SELECT m.next_due_date, m.remind_from, new.category_id, new.location_id, 1 * count(*) FROM maintenance_schedules m
    WHERE m.item_id = new.id AND +m.status = 'active' AND new.deleted_at IS NULL GROUP BY m.next_due_date, m.remind_from
    ON CONFLICT (next_due_date, remind_from, category_id, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_assets_move AFTER UPDATE OF category_id, location_id, created_at ON assets
WHEN old.category_id IS NOT new.category_id OR old.location_id IS NOT new.location_id OR old.created_at IS NOT new.created_at
BEGIN
  INSERT INTO analytics_daily (day, metric, n) VALUES (substr(old.created_at, 1, 10), 'created', -1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily (day, metric, n) VALUES (substr(new.created_at, 1, 10), 'created', 1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily_scoped (category_id, day, metric, location_id, n)
    SELECT old.category_id, day, metric, old.location_id, -1 * count(*) FROM (
      SELECT substr(old.created_at, 1, 10) AS day, 'created' AS metric
      UNION ALL SELECT substr(e.at, 1, 10), 'retired' FROM asset_status_events e WHERE e.asset_id = old.id AND +e.to_status = 'retired'
      UNION ALL SELECT substr(e.at, 1, 10), 'lost' FROM asset_status_events e WHERE e.asset_id = old.id AND +e.to_status = 'lost'
      UNION ALL SELECT substr(e.at, 1, 10), 'found' FROM asset_status_events e WHERE e.asset_id = old.id AND +e.from_status = 'lost'
      UNION ALL SELECT substr(l.completed_date, 1, 10), 'm:' || l.type FROM maintenance_logs l WHERE l.item_id = old.id
    ) WHERE true GROUP BY day, metric
    ON CONFLICT (category_id, day, metric, location_id) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily_scoped (category_id, day, metric, location_id, n)
    SELECT new.category_id, day, metric, new.location_id, 1 * count(*) FROM (
      SELECT substr(new.created_at, 1, 10) AS day, 'created' AS metric
      UNION ALL SELECT substr(e.at, 1, 10), 'retired' FROM asset_status_events e WHERE e.asset_id = new.id AND +e.to_status = 'retired'
      UNION ALL SELECT substr(e.at, 1, 10), 'lost' FROM asset_status_events e WHERE e.asset_id = new.id AND +e.to_status = 'lost'
      UNION ALL SELECT substr(e.at, 1, 10), 'found' FROM asset_status_events e WHERE e.asset_id = new.id AND +e.from_status = 'lost'
      UNION ALL SELECT substr(l.completed_date, 1, 10), 'm:' || l.type FROM maintenance_logs l WHERE l.item_id = new.id
    ) WHERE true GROUP BY day, metric
    ON CONFLICT (category_id, day, metric, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_assets_delete AFTER DELETE ON assets BEGIN
  INSERT INTO analytics_asset_counts (category_id, location_id, status, badge, n)
    SELECT * FROM (SELECT old.category_id, old.location_id, old.status, coalesce((SELECT h.badge FROM asset_health h WHERE h.asset_id = old.id), ''), -1 WHERE old.deleted_at IS NULL) WHERE true
    ON CONFLICT (category_id, location_id, status, badge) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_age_months (category_id, location_id, month, n, days)
    SELECT * FROM (SELECT old.category_id, old.location_id, substr(coalesce(old.purchase_date, substr(old.created_at, 1, 10)), 1, 7), -1, -1 * CAST(julianday(coalesce(old.purchase_date, substr(old.created_at, 1, 10))) - 2440587.5 AS INTEGER) WHERE old.deleted_at IS NULL) WHERE true
    ON CONFLICT (category_id, location_id, month) DO UPDATE SET n = n + excluded.n, days = days + excluded.days;
  INSERT INTO analytics_age_days (day, category_id, location_id, n)
    SELECT * FROM (SELECT coalesce(old.purchase_date, substr(old.created_at, 1, 10)), old.category_id, old.location_id, -1 WHERE old.deleted_at IS NULL) WHERE true
    ON CONFLICT (day, category_id, location_id) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_values (category_id, currency, purchase_date, n, cost)
    SELECT * FROM (SELECT old.category_id, old.currency, old.purchase_date, -1, -1 * old.purchase_cost_minor WHERE old.deleted_at IS NULL AND old.purchase_cost_minor IS NOT NULL AND old.currency IS NOT NULL AND old.purchase_date IS NOT NULL) WHERE true
    ON CONFLICT (category_id, currency, purchase_date) DO UPDATE SET n = n + excluded.n, cost = cost + excluded.cost;
  INSERT INTO analytics_values_by_location (location_id, category_id, currency, purchase_date, n, cost)
    SELECT * FROM (SELECT old.location_id, old.category_id, old.currency, old.purchase_date, -1, -1 * old.purchase_cost_minor WHERE old.deleted_at IS NULL AND old.purchase_cost_minor IS NOT NULL AND old.currency IS NOT NULL AND old.purchase_date IS NOT NULL) WHERE true
    ON CONFLICT (location_id, category_id, currency, purchase_date) DO UPDATE SET n = n + excluded.n, cost = cost + excluded.cost;
  INSERT INTO analytics_schedules_due (next_due_date, remind_from, category_id, location_id, n)
    SELECT m.next_due_date, m.remind_from, old.category_id, old.location_id, -1 * count(*) FROM maintenance_schedules m
    WHERE m.item_id = old.id AND +m.status = 'active' AND old.deleted_at IS NULL GROUP BY m.next_due_date, m.remind_from
    ON CONFLICT (next_due_date, remind_from, category_id, location_id) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily (day, metric, n) VALUES (substr(old.created_at, 1, 10), 'created', -1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily_scoped (category_id, day, metric, location_id, n)
    SELECT old.category_id, day, metric, old.location_id, -1 * count(*) FROM (
      SELECT substr(old.created_at, 1, 10) AS day, 'created' AS metric
      UNION ALL SELECT substr(e.at, 1, 10), 'retired' FROM asset_status_events e WHERE e.asset_id = old.id AND +e.to_status = 'retired'
      UNION ALL SELECT substr(e.at, 1, 10), 'lost' FROM asset_status_events e WHERE e.asset_id = old.id AND +e.to_status = 'lost'
      UNION ALL SELECT substr(e.at, 1, 10), 'found' FROM asset_status_events e WHERE e.asset_id = old.id AND +e.from_status = 'lost'
      UNION ALL SELECT substr(l.completed_date, 1, 10), 'm:' || l.type FROM maintenance_logs l WHERE l.item_id = old.id
    ) WHERE true GROUP BY day, metric
    ON CONFLICT (category_id, day, metric, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_status_events_insert AFTER INSERT ON asset_status_events WHEN new.to_status IN ('retired', 'lost') OR new.from_status = 'lost' BEGIN
  INSERT INTO analytics_daily (day, metric, n) SELECT substr(new.at, 1, 10), m.metric, 1 FROM (SELECT 'retired' AS metric WHERE new.to_status = 'retired' UNION ALL SELECT 'lost' WHERE new.to_status = 'lost' UNION ALL SELECT 'found' WHERE new.from_status = 'lost') m WHERE true
    ON CONFLICT (day, metric) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily_scoped (category_id, day, metric, location_id, n)
    SELECT a.category_id, substr(new.at, 1, 10), m.metric, a.location_id, 1 FROM assets a, (SELECT 'retired' AS metric WHERE new.to_status = 'retired' UNION ALL SELECT 'lost' WHERE new.to_status = 'lost' UNION ALL SELECT 'found' WHERE new.from_status = 'lost') m WHERE a.id = new.asset_id
    ON CONFLICT (category_id, day, metric, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_status_events_delete AFTER DELETE ON asset_status_events WHEN old.to_status IN ('retired', 'lost') OR old.from_status = 'lost' BEGIN
  INSERT INTO analytics_daily (day, metric, n) SELECT substr(old.at, 1, 10), m.metric, -1 FROM (SELECT 'retired' AS metric WHERE old.to_status = 'retired' UNION ALL SELECT 'lost' WHERE old.to_status = 'lost' UNION ALL SELECT 'found' WHERE old.from_status = 'lost') m WHERE true
    ON CONFLICT (day, metric) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily_scoped (category_id, day, metric, location_id, n)
    SELECT a.category_id, substr(old.at, 1, 10), m.metric, a.location_id, -1 FROM assets a, (SELECT 'retired' AS metric WHERE old.to_status = 'retired' UNION ALL SELECT 'lost' WHERE old.to_status = 'lost' UNION ALL SELECT 'found' WHERE old.from_status = 'lost') m WHERE a.id = old.asset_id
    ON CONFLICT (category_id, day, metric, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_status_events_update AFTER UPDATE OF asset_id, from_status, to_status, at ON asset_status_events BEGIN
  INSERT INTO analytics_daily (day, metric, n) SELECT substr(old.at, 1, 10), m.metric, -1 FROM (SELECT 'retired' AS metric WHERE old.to_status = 'retired' UNION ALL SELECT 'lost' WHERE old.to_status = 'lost' UNION ALL SELECT 'found' WHERE old.from_status = 'lost') m WHERE true
    ON CONFLICT (day, metric) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily_scoped (category_id, day, metric, location_id, n)
    SELECT a.category_id, substr(old.at, 1, 10), m.metric, a.location_id, -1 FROM assets a, (SELECT 'retired' AS metric WHERE old.to_status = 'retired' UNION ALL SELECT 'lost' WHERE old.to_status = 'lost' UNION ALL SELECT 'found' WHERE old.from_status = 'lost') m WHERE a.id = old.asset_id
    ON CONFLICT (category_id, day, metric, location_id) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily (day, metric, n) SELECT substr(new.at, 1, 10), m.metric, 1 FROM (SELECT 'retired' AS metric WHERE new.to_status = 'retired' UNION ALL SELECT 'lost' WHERE new.to_status = 'lost' UNION ALL SELECT 'found' WHERE new.from_status = 'lost') m WHERE true
    ON CONFLICT (day, metric) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily_scoped (category_id, day, metric, location_id, n)
    SELECT a.category_id, substr(new.at, 1, 10), m.metric, a.location_id, 1 FROM assets a, (SELECT 'retired' AS metric WHERE new.to_status = 'retired' UNION ALL SELECT 'lost' WHERE new.to_status = 'lost' UNION ALL SELECT 'found' WHERE new.from_status = 'lost') m WHERE a.id = new.asset_id
    ON CONFLICT (category_id, day, metric, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_maintenance_logs_insert AFTER INSERT ON maintenance_logs BEGIN
  INSERT INTO analytics_daily (day, metric, n) VALUES (substr(new.completed_date, 1, 10), 'm:' || new.type, 1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily_scoped (category_id, day, metric, location_id, n)
    SELECT a.category_id, substr(new.completed_date, 1, 10), 'm:' || new.type, a.location_id, 1 FROM assets a WHERE a.id = new.item_id
    ON CONFLICT (category_id, day, metric, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_maintenance_logs_delete AFTER DELETE ON maintenance_logs BEGIN
  INSERT INTO analytics_daily (day, metric, n) VALUES (substr(old.completed_date, 1, 10), 'm:' || old.type, -1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily_scoped (category_id, day, metric, location_id, n)
    SELECT a.category_id, substr(old.completed_date, 1, 10), 'm:' || old.type, a.location_id, -1 FROM assets a WHERE a.id = old.item_id
    ON CONFLICT (category_id, day, metric, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_maintenance_logs_update AFTER UPDATE OF item_id, type, completed_date ON maintenance_logs
WHEN old.item_id IS NOT new.item_id OR old.type IS NOT new.type OR old.completed_date IS NOT new.completed_date BEGIN
  INSERT INTO analytics_daily (day, metric, n) VALUES (substr(old.completed_date, 1, 10), 'm:' || old.type, -1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily_scoped (category_id, day, metric, location_id, n)
    SELECT a.category_id, substr(old.completed_date, 1, 10), 'm:' || old.type, a.location_id, -1 FROM assets a WHERE a.id = old.item_id
    ON CONFLICT (category_id, day, metric, location_id) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily (day, metric, n) VALUES (substr(new.completed_date, 1, 10), 'm:' || new.type, 1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_daily_scoped (category_id, day, metric, location_id, n)
    SELECT a.category_id, substr(new.completed_date, 1, 10), 'm:' || new.type, a.location_id, 1 FROM assets a WHERE a.id = new.item_id
    ON CONFLICT (category_id, day, metric, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_schedules_insert AFTER INSERT ON maintenance_schedules WHEN new.status = 'active' BEGIN
  INSERT INTO analytics_schedules_due (next_due_date, remind_from, category_id, location_id, n)
    SELECT new.next_due_date, new.remind_from, a.category_id, a.location_id, 1 FROM assets a
    WHERE a.id = new.item_id AND a.deleted_at IS NULL AND new.status = 'active'
    ON CONFLICT (next_due_date, remind_from, category_id, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_schedules_delete AFTER DELETE ON maintenance_schedules WHEN old.status = 'active' BEGIN
  INSERT INTO analytics_schedules_due (next_due_date, remind_from, category_id, location_id, n)
    SELECT old.next_due_date, old.remind_from, a.category_id, a.location_id, -1 FROM assets a
    WHERE a.id = old.item_id AND a.deleted_at IS NULL AND old.status = 'active'
    ON CONFLICT (next_due_date, remind_from, category_id, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_schedules_update AFTER UPDATE OF status, next_due_date, remind_from, item_id ON maintenance_schedules
WHEN (old.status = 'active' OR new.status = 'active') AND (old.status IS NOT new.status OR old.next_due_date IS NOT new.next_due_date
  OR old.remind_from IS NOT new.remind_from OR old.item_id IS NOT new.item_id)
BEGIN
  INSERT INTO analytics_schedules_due (next_due_date, remind_from, category_id, location_id, n)
    SELECT old.next_due_date, old.remind_from, a.category_id, a.location_id, -1 FROM assets a
    WHERE a.id = old.item_id AND a.deleted_at IS NULL AND old.status = 'active'
    ON CONFLICT (next_due_date, remind_from, category_id, location_id) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_schedules_due (next_due_date, remind_from, category_id, location_id, n)
    SELECT new.next_due_date, new.remind_from, a.category_id, a.location_id, 1 FROM assets a
    WHERE a.id = new.item_id AND a.deleted_at IS NULL AND new.status = 'active'
    ON CONFLICT (next_due_date, remind_from, category_id, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_health_insert AFTER INSERT ON asset_health BEGIN
  INSERT INTO analytics_badge_counts (badge, n) VALUES (new.badge, 1) ON CONFLICT (badge) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_asset_counts (category_id, location_id, status, badge, n)
    SELECT a.category_id, a.location_id, a.status, b.badge, b.d FROM assets a, (SELECT '' AS badge, -1 AS d UNION ALL SELECT new.badge, 1) b
    WHERE a.id = new.asset_id AND a.deleted_at IS NULL
    ON CONFLICT (category_id, location_id, status, badge) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_health_update AFTER UPDATE OF badge ON asset_health WHEN old.badge IS NOT new.badge BEGIN
  INSERT INTO analytics_badge_counts (badge, n) VALUES (old.badge, -1) ON CONFLICT (badge) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_badge_counts (badge, n) VALUES (new.badge, 1) ON CONFLICT (badge) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_asset_counts (category_id, location_id, status, badge, n)
    SELECT a.category_id, a.location_id, a.status, b.badge, b.d FROM assets a, (SELECT old.badge AS badge, -1 AS d UNION ALL SELECT new.badge, 1) b
    WHERE a.id = new.asset_id AND a.deleted_at IS NULL
    ON CONFLICT (category_id, location_id, status, badge) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_health_delete AFTER DELETE ON asset_health BEGIN
  INSERT INTO analytics_badge_counts (badge, n) VALUES (old.badge, -1) ON CONFLICT (badge) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_asset_counts (category_id, location_id, status, badge, n)
    SELECT a.category_id, a.location_id, a.status, b.badge, b.d FROM assets a, (SELECT old.badge AS badge, -1 AS d UNION ALL SELECT '', 1) b
    WHERE a.id = old.asset_id AND a.deleted_at IS NULL
    ON CONFLICT (category_id, location_id, status, badge) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
INSERT INTO analytics_asset_counts (category_id, location_id, status, badge, n)
SELECT a.category_id, a.location_id, a.status, coalesce(h.badge, ''), count(*) FROM assets a LEFT JOIN asset_health h ON h.asset_id = a.id
WHERE a.deleted_at IS NULL GROUP BY 1, 2, 3, 4
--> statement-breakpoint
INSERT INTO analytics_badge_counts (badge, n) SELECT badge, count(*) FROM asset_health GROUP BY badge
--> statement-breakpoint
INSERT INTO analytics_age_months (category_id, location_id, month, n, days)
SELECT category_id, location_id, substr(coalesce(a.purchase_date, substr(a.created_at, 1, 10)), 1, 7), count(*), sum(CAST(julianday(coalesce(a.purchase_date, substr(a.created_at, 1, 10))) - 2440587.5 AS INTEGER))
FROM assets a WHERE a.deleted_at IS NULL GROUP BY 1, 2, 3
--> statement-breakpoint
INSERT INTO analytics_age_days (day, category_id, location_id, n)
SELECT coalesce(a.purchase_date, substr(a.created_at, 1, 10)), category_id, location_id, count(*) FROM assets a WHERE a.deleted_at IS NULL GROUP BY 1, 2, 3
--> statement-breakpoint
INSERT INTO analytics_values (category_id, currency, purchase_date, n, cost)
SELECT category_id, currency, purchase_date, count(*), sum(purchase_cost_minor) FROM assets a WHERE a.deleted_at IS NULL AND a.purchase_cost_minor IS NOT NULL AND a.currency IS NOT NULL AND a.purchase_date IS NOT NULL GROUP BY 1, 2, 3
--> statement-breakpoint
INSERT INTO analytics_values_by_location (location_id, category_id, currency, purchase_date, n, cost)
SELECT location_id, category_id, currency, purchase_date, count(*), sum(purchase_cost_minor) FROM assets a WHERE a.deleted_at IS NULL AND a.purchase_cost_minor IS NOT NULL AND a.currency IS NOT NULL AND a.purchase_date IS NOT NULL GROUP BY 1, 2, 3, 4
--> statement-breakpoint
INSERT INTO analytics_schedules_due (next_due_date, remind_from, category_id, location_id, n)
SELECT m.next_due_date, m.remind_from, a.category_id, a.location_id, count(*) FROM maintenance_schedules m JOIN assets a ON a.id = m.item_id
WHERE m.status = 'active' AND a.deleted_at IS NULL GROUP BY 1, 2, 3, 4
--> statement-breakpoint
INSERT INTO analytics_daily (day, metric, n) SELECT day, metric, count(*) FROM (SELECT substr(created_at, 1, 10) AS day, 'created' AS metric, id AS asset_id FROM assets
  UNION ALL SELECT substr(at, 1, 10), 'retired', asset_id FROM asset_status_events WHERE to_status = 'retired'
  UNION ALL SELECT substr(at, 1, 10), 'lost', asset_id FROM asset_status_events WHERE to_status = 'lost'
  UNION ALL SELECT substr(at, 1, 10), 'found', asset_id FROM asset_status_events WHERE from_status = 'lost'
  UNION ALL SELECT substr(completed_date, 1, 10), 'm:' || type, item_id FROM maintenance_logs) GROUP BY 1, 2
--> statement-breakpoint
INSERT INTO analytics_daily_scoped (category_id, day, metric, location_id, n)
SELECT a.category_id, e.day, e.metric, a.location_id, count(*) FROM (SELECT substr(created_at, 1, 10) AS day, 'created' AS metric, id AS asset_id FROM assets
  UNION ALL SELECT substr(at, 1, 10), 'retired', asset_id FROM asset_status_events WHERE to_status = 'retired'
  UNION ALL SELECT substr(at, 1, 10), 'lost', asset_id FROM asset_status_events WHERE to_status = 'lost'
  UNION ALL SELECT substr(at, 1, 10), 'found', asset_id FROM asset_status_events WHERE from_status = 'lost'
  UNION ALL SELECT substr(completed_date, 1, 10), 'm:' || type, item_id FROM maintenance_logs) e JOIN assets a ON a.id = e.asset_id GROUP BY 1, 2, 3, 4
