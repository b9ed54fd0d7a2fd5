-- Analytics rollups II (docs/analytics.md "How the figures are kept"): three more figures read
-- counters kept exact by SQLite triggers (the pattern of 0018: deltas applied through upserts in the
-- statement that changes the row, whatever the path), so each reads rows that follow days, categories,
-- locations or the answer's own size rather than the workspace:
-- - analytics_gaps / analytics_gaps_scoped: the intervals between consecutive maintenance completions
--   (ordered by (completed_date, id)) of the same item (kind '') and of the same item and type (kind =
--   the type), filed under the UTC day of the later completion: count and sum in integer milliseconds.
--   The scoped table files them under the asset's current category and location, as analytics_daily_scoped.
-- - analytics_unscanned_streaks: per asset, how many of the most recent completed sessions that expected
--   it missed it in a row (rows only while > 0), moved when a session becomes completed.
-- - analytics_due_back: checked-out live assets (due_back_at set) per due-back UTC day, category, location.
-- Hand-written (WITHOUT ROWID tables and triggers); the last statements backfill from the existing rows.
CREATE TABLE analytics_gaps (day TEXT NOT NULL, kind TEXT NOT NULL, n INTEGER NOT NULL, ms INTEGER NOT NULL, PRIMARY KEY (day, kind)) WITHOUT ROWID
--> statement-breakpoint
CREATE TABLE analytics_gaps_scoped (
  category_id TEXT NOT NULL, day TEXT NOT NULL, kind TEXT NOT NULL, location_id TEXT NOT NULL, n INTEGER NOT NULL, ms INTEGER NOT NULL,
  PRIMARY KEY (category_id, day, kind, location_id)
) WITHOUT ROWID
--> statement-breakpoint
CREATE INDEX analytics_gaps_scoped_location_idx ON analytics_gaps_scoped (location_id, day, kind, category_id, n, ms)
--> statement-breakpoint
CREATE TABLE analytics_unscanned_streaks (asset_id TEXT PRIMARY KEY, streak INTEGER NOT NULL) WITHOUT ROWID
--> statement-breakpoint
CREATE INDEX analytics_unscanned_streaks_idx ON analytics_unscanned_streaks (streak, asset_id)
--> statement-breakpoint
CREATE TABLE analytics_due_back (
  day TEXT NOT NULL, category_id TEXT NOT NULL, location_id TEXT NOT NULL, n INTEGER NOT NULL,
  PRIMARY KEY (day, category_id, location_id)
) WITHOUT ROWID
--> statement-breakpoint
CREATE TRIGGER analytics_gaps_logs_insert AFTER INSERT ON maintenance_logs BEGIN
  INSERT INTO analytics_gaps (day, kind, n, ms)
    SELECT day, kind, sum(dn), sum(dms) FROM (SELECT CASE t.k WHEN 0 THEN substr(g.d, 1, 10) ELSE substr(g.s, 1, 10) END AS day, g.kind AS kind,
      1 * CASE t.k WHEN 2 THEN -1 ELSE 1 END AS dn,
      1 * CASE t.k WHEN 0 THEN CAST(round((julianday(g.d) - julianday(g.p)) * 86400000) AS INTEGER) WHEN 1 THEN CAST(round((julianday(g.s) - julianday(g.d)) * 86400000) AS INTEGER) ELSE -CAST(round((julianday(g.s) - julianday(g.p)) * 86400000) AS INTEGER) END AS dms
    FROM (SELECT '' AS kind, new.completed_date AS d, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.id <> new.id AND (l.completed_date, l.id) < (new.completed_date, new.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1) AS p, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.id <> new.id AND (l.completed_date, l.id) > (new.completed_date, new.id) ORDER BY l.completed_date, l.id  LIMIT 1) AS s
      UNION ALL SELECT new.type, new.completed_date, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.type = new.type AND l.id <> new.id AND (l.completed_date, l.id) < (new.completed_date, new.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1), (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.type = new.type AND l.id <> new.id AND (l.completed_date, l.id) > (new.completed_date, new.id) ORDER BY l.completed_date, l.id  LIMIT 1)) g,
      (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2) t
    WHERE (t.k = 0 AND g.p IS NOT NULL) OR (t.k = 1 AND g.s IS NOT NULL) OR (t.k = 2 AND g.p IS NOT NULL AND g.s IS NOT NULL)) WHERE true GROUP BY day, kind
    ON CONFLICT (day, kind) DO UPDATE SET n = n + excluded.n, ms = ms + excluded.ms;
  INSERT INTO analytics_gaps_scoped (category_id, day, kind, location_id, n, ms)
    SELECT a.category_id, e.day, e.kind, a.location_id, sum(e.dn), sum(e.dms) FROM (SELECT CASE t.k WHEN 0 THEN substr(g.d, 1, 10) ELSE substr(g.s, 1, 10) END AS day, g.kind AS kind,
      1 * CASE t.k WHEN 2 THEN -1 ELSE 1 END AS dn,
      1 * CASE t.k WHEN 0 THEN CAST(round((julianday(g.d) - julianday(g.p)) * 86400000) AS INTEGER) WHEN 1 THEN CAST(round((julianday(g.s) - julianday(g.d)) * 86400000) AS INTEGER) ELSE -CAST(round((julianday(g.s) - julianday(g.p)) * 86400000) AS INTEGER) END AS dms
    FROM (SELECT '' AS kind, new.completed_date AS d, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.id <> new.id AND (l.completed_date, l.id) < (new.completed_date, new.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1) AS p, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.id <> new.id AND (l.completed_date, l.id) > (new.completed_date, new.id) ORDER BY l.completed_date, l.id  LIMIT 1) AS s
      UNION ALL SELECT new.type, new.completed_date, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.type = new.type AND l.id <> new.id AND (l.completed_date, l.id) < (new.completed_date, new.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1), (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.type = new.type AND l.id <> new.id AND (l.completed_date, l.id) > (new.completed_date, new.id) ORDER BY l.completed_date, l.id  LIMIT 1)) g,
      (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2) t
    WHERE (t.k = 0 AND g.p IS NOT NULL) OR (t.k = 1 AND g.s IS NOT NULL) OR (t.k = 2 AND g.p IS NOT NULL AND g.s IS NOT NULL)) e, assets a WHERE a.id = new.item_id GROUP BY e.day, e.kind
    ON CONFLICT (category_id, day, kind, location_id) DO UPDATE SET n = n + excluded.n, ms = ms + excluded.ms;
END
--> statement-breakpoint
CREATE TRIGGER analytics_gaps_logs_delete AFTER DELETE ON maintenance_logs BEGIN
  INSERT INTO analytics_gaps (day, kind, n, ms)
    SELECT day, kind, sum(dn), sum(dms) FROM (SELECT CASE t.k WHEN 0 THEN substr(g.d, 1, 10) ELSE substr(g.s, 1, 10) END AS day, g.kind AS kind,
      -1 * CASE t.k WHEN 2 THEN -1 ELSE 1 END AS dn,
      -1 * CASE t.k WHEN 0 THEN CAST(round((julianday(g.d) - julianday(g.p)) * 86400000) AS INTEGER) WHEN 1 THEN CAST(round((julianday(g.s) - julianday(g.d)) * 86400000) AS INTEGER) ELSE -CAST(round((julianday(g.s) - julianday(g.p)) * 86400000) AS INTEGER) END AS dms
    FROM (SELECT '' AS kind, old.completed_date AS d, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.id <> old.id AND (l.completed_date, l.id) < (old.completed_date, old.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1) AS p, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.id <> old.id AND (l.completed_date, l.id) > (old.completed_date, old.id) ORDER BY l.completed_date, l.id  LIMIT 1) AS s
      UNION ALL SELECT old.type, old.completed_date, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.type = old.type AND l.id <> old.id AND (l.completed_date, l.id) < (old.completed_date, old.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1), (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.type = old.type AND l.id <> old.id AND (l.completed_date, l.id) > (old.completed_date, old.id) ORDER BY l.completed_date, l.id  LIMIT 1)) g,
      (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2) t
    WHERE (t.k = 0 AND g.p IS NOT NULL) OR (t.k = 1 AND g.s IS NOT NULL) OR (t.k = 2 AND g.p IS NOT NULL AND g.s IS NOT NULL)) WHERE true GROUP BY day, kind
    ON CONFLICT (day, kind) DO UPDATE SET n = n + excluded.n, ms = ms + excluded.ms;
  INSERT INTO analytics_gaps_scoped (category_id, day, kind, location_id, n, ms)
    SELECT a.category_id, e.day, e.kind, a.location_id, sum(e.dn), sum(e.dms) FROM (SELECT CASE t.k WHEN 0 THEN substr(g.d, 1, 10) ELSE substr(g.s, 1, 10) END AS day, g.kind AS kind,
      -1 * CASE t.k WHEN 2 THEN -1 ELSE 1 END AS dn,
      -1 * CASE t.k WHEN 0 THEN CAST(round((julianday(g.d) - julianday(g.p)) * 86400000) AS INTEGER) WHEN 1 THEN CAST(round((julianday(g.s) - julianday(g.d)) * 86400000) AS INTEGER) ELSE -CAST(round((julianday(g.s) - julianday(g.p)) * 86400000) AS INTEGER) END AS dms
    FROM (SELECT '' AS kind, old.completed_date AS d, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.id <> old.id AND (l.completed_date, l.id) < (old.completed_date, old.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1) AS p, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.id <> old.id AND (l.completed_date, l.id) > (old.completed_date, old.id) ORDER BY l.completed_date, l.id  LIMIT 1) AS s
      UNION ALL SELECT old.type, old.completed_date, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.type = old.type AND l.id <> old.id AND (l.completed_date, l.id) < (old.completed_date, old.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1), (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.type = old.type AND l.id <> old.id AND (l.completed_date, l.id) > (old.completed_date, old.id) ORDER BY l.completed_date, l.id  LIMIT 1)) g,
      (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2) t
    WHERE (t.k = 0 AND g.p IS NOT NULL) OR (t.k = 1 AND g.s IS NOT NULL) OR (t.k = 2 AND g.p IS NOT NULL AND g.s IS NOT NULL)) e, assets a WHERE a.id = old.item_id GROUP BY e.day, e.kind
    ON CONFLICT (category_id, day, kind, location_id) DO UPDATE SET n = n + excluded.n, ms = ms + excluded.ms;
END
--> statement-breakpoint
-- An edit is the old log removed and the new one added, each against the other logs (l.id <> the log's id).
CREATE TRIGGER analytics_gaps_logs_update AFTER UPDATE OF item_id, type, completed_date ON maintenance_logs
WHEN old.item_id IS NOT new.item_id OR old.type IS NOT new.type OR old.completed_date IS NOT new.completed_date BEGIN
  INSERT INTO analytics_gaps (day, kind, n, ms)
    SELECT day, kind, sum(dn), sum(dms) FROM (SELECT CASE t.k WHEN 0 THEN substr(g.d, 1, 10) ELSE substr(g.s, 1, 10) END AS day, g.kind AS kind,
      -1 * CASE t.k WHEN 2 THEN -1 ELSE 1 END AS dn,
      -1 * CASE t.k WHEN 0 THEN CAST(round((julianday(g.d) - julianday(g.p)) * 86400000) AS INTEGER) WHEN 1 THEN CAST(round((julianday(g.s) - julianday(g.d)) * 86400000) AS INTEGER) ELSE -CAST(round((julianday(g.s) - julianday(g.p)) * 86400000) AS INTEGER) END AS dms
    FROM (SELECT '' AS kind, old.completed_date AS d, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.id <> old.id AND (l.completed_date, l.id) < (old.completed_date, old.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1) AS p, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.id <> old.id AND (l.completed_date, l.id) > (old.completed_date, old.id) ORDER BY l.completed_date, l.id  LIMIT 1) AS s
      UNION ALL SELECT old.type, old.completed_date, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.type = old.type AND l.id <> old.id AND (l.completed_date, l.id) < (old.completed_date, old.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1), (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.type = old.type AND l.id <> old.id AND (l.completed_date, l.id) > (old.completed_date, old.id) ORDER BY l.completed_date, l.id  LIMIT 1)) g,
      (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2) t
    WHERE (t.k = 0 AND g.p IS NOT NULL) OR (t.k = 1 AND g.s IS NOT NULL) OR (t.k = 2 AND g.p IS NOT NULL AND g.s IS NOT NULL)) WHERE true GROUP BY day, kind
    ON CONFLICT (day, kind) DO UPDATE SET n = n + excluded.n, ms = ms + excluded.ms;
  INSERT INTO analytics_gaps_scoped (category_id, day, kind, location_id, n, ms)
    SELECT a.category_id, e.day, e.kind, a.location_id, sum(e.dn), sum(e.dms) FROM (SELECT CASE t.k WHEN 0 THEN substr(g.d, 1, 10) ELSE substr(g.s, 1, 10) END AS day, g.kind AS kind,
      -1 * CASE t.k WHEN 2 THEN -1 ELSE 1 END AS dn,
      -1 * CASE t.k WHEN 0 THEN CAST(round((julianday(g.d) - julianday(g.p)) * 86400000) AS INTEGER) WHEN 1 THEN CAST(round((julianday(g.s) - julianday(g.d)) * 86400000) AS INTEGER) ELSE -CAST(round((julianday(g.s) - julianday(g.p)) * 86400000) AS INTEGER) END AS dms
    FROM (SELECT '' AS kind, old.completed_date AS d, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.id <> old.id AND (l.completed_date, l.id) < (old.completed_date, old.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1) AS p, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.id <> old.id AND (l.completed_date, l.id) > (old.completed_date, old.id) ORDER BY l.completed_date, l.id  LIMIT 1) AS s
      UNION ALL SELECT old.type, old.completed_date, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.type = old.type AND l.id <> old.id AND (l.completed_date, l.id) < (old.completed_date, old.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1), (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = old.item_id AND l.type = old.type AND l.id <> old.id AND (l.completed_date, l.id) > (old.completed_date, old.id) ORDER BY l.completed_date, l.id  LIMIT 1)) g,
      (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2) t
    WHERE (t.k = 0 AND g.p IS NOT NULL) OR (t.k = 1 AND g.s IS NOT NULL) OR (t.k = 2 AND g.p IS NOT NULL AND g.s IS NOT NULL)) e, assets a WHERE a.id = old.item_id GROUP BY e.day, e.kind
    ON CONFLICT (category_id, day, kind, location_id) DO UPDATE SET n = n + excluded.n, ms = ms + excluded.ms;
  INSERT INTO analytics_gaps (day, kind, n, ms)
    SELECT day, kind, sum(dn), sum(dms) FROM (SELECT CASE t.k WHEN 0 THEN substr(g.d, 1, 10) ELSE substr(g.s, 1, 10) END AS day, g.kind AS kind,
      1 * CASE t.k WHEN 2 THEN -1 ELSE 1 END AS dn,
      1 * CASE t.k WHEN 0 THEN CAST(round((julianday(g.d) - julianday(g.p)) * 86400000) AS INTEGER) WHEN 1 THEN CAST(round((julianday(g.s) - julianday(g.d)) * 86400000) AS INTEGER) ELSE -CAST(round((julianday(g.s) - julianday(g.p)) * 86400000) AS INTEGER) END AS dms
    FROM (SELECT '' AS kind, new.completed_date AS d, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.id <> new.id AND (l.completed_date, l.id) < (new.completed_date, new.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1) AS p, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.id <> new.id AND (l.completed_date, l.id) > (new.completed_date, new.id) ORDER BY l.completed_date, l.id  LIMIT 1) AS s
      UNION ALL SELECT new.type, new.completed_date, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.type = new.type AND l.id <> new.id AND (l.completed_date, l.id) < (new.completed_date, new.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1), (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.type = new.type AND l.id <> new.id AND (l.completed_date, l.id) > (new.completed_date, new.id) ORDER BY l.completed_date, l.id  LIMIT 1)) g,
      (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2) t
    WHERE (t.k = 0 AND g.p IS NOT NULL) OR (t.k = 1 AND g.s IS NOT NULL) OR (t.k = 2 AND g.p IS NOT NULL AND g.s IS NOT NULL)) WHERE true GROUP BY day, kind
    ON CONFLICT (day, kind) DO UPDATE SET n = n + excluded.n, ms = ms + excluded.ms;
  INSERT INTO analytics_gaps_scoped (category_id, day, kind, location_id, n, ms)
    SELECT a.category_id, e.day, e.kind, a.location_id, sum(e.dn), sum(e.dms) FROM (SELECT CASE t.k WHEN 0 THEN substr(g.d, 1, 10) ELSE substr(g.s, 1, 10) END AS day, g.kind AS kind,
      1 * CASE t.k WHEN 2 THEN -1 ELSE 1 END AS dn,
      1 * CASE t.k WHEN 0 THEN CAST(round((julianday(g.d) - julianday(g.p)) * 86400000) AS INTEGER) WHEN 1 THEN CAST(round((julianday(g.s) - julianday(g.d)) * 86400000) AS INTEGER) ELSE -CAST(round((julianday(g.s) - julianday(g.p)) * 86400000) AS INTEGER) END AS dms
    FROM (SELECT '' AS kind, new.completed_date AS d, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.id <> new.id AND (l.completed_date, l.id) < (new.completed_date, new.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1) AS p, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.id <> new.id AND (l.completed_date, l.id) > (new.completed_date, new.id) ORDER BY l.completed_date, l.id  LIMIT 1) AS s
      UNION ALL SELECT new.type, new.completed_date, (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.type = new.type AND l.id <> new.id AND (l.completed_date, l.id) < (new.completed_date, new.id) ORDER BY l.completed_date DESC, l.id DESC LIMIT 1), (SELECT l.completed_date FROM maintenance_logs l WHERE l.item_id = new.item_id AND l.type = new.type AND l.id <> new.id AND (l.completed_date, l.id) > (new.completed_date, new.id) ORDER BY l.completed_date, l.id  LIMIT 1)) g,
      (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2) t
    WHERE (t.k = 0 AND g.p IS NOT NULL) OR (t.k = 1 AND g.s IS NOT NULL) OR (t.k = 2 AND g.p IS NOT NULL AND g.s IS NOT NULL)) e, assets a WHERE a.id = new.item_id GROUP BY e.day, e.kind
    ON CONFLICT (category_id, day, kind, location_id) DO UPDATE SET n = n + excluded.n, ms = ms + excluded.ms;
END
--> statement-breakpoint
CREATE TRIGGER analytics_gaps_assets_insert AFTER INSERT ON assets BEGIN
  INSERT INTO analytics_gaps_scoped (category_id, day, kind, location_id, n, ms)
    SELECT new.category_id, day, kind, new.location_id, 1 * count(*), 1 * sum(ms) FROM (SELECT substr(d, 1, 10) AS day, kind, CAST(round((julianday(d) - julianday(p)) * 86400000) AS INTEGER) AS ms FROM (
      SELECT l.completed_date AS d, '' AS kind, lag(l.completed_date) OVER (ORDER BY l.completed_date, l.id) AS p FROM maintenance_logs l WHERE l.item_id = new.id
      UNION ALL SELECT l.completed_date, l.type, lag(l.completed_date) OVER (PARTITION BY l.type ORDER BY l.completed_date, l.id) FROM maintenance_logs l WHERE l.item_id = new.id) WHERE p IS NOT NULL) WHERE true GROUP BY day, kind
    ON CONFLICT (category_id, day, kind, location_id) DO UPDATE SET n = n + excluded.n, ms = ms + excluded.ms;
  INSERT INTO analytics_due_back (day, category_id, location_id, n)
    SELECT substr(new.due_back_at, 1, 10), new.category_id, new.location_id, 1 WHERE new.due_back_at IS NOT NULL AND new.deleted_at IS NULL
    ON CONFLICT (day, category_id, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_gaps_assets_move AFTER UPDATE OF category_id, location_id ON assets
WHEN old.category_id IS NOT new.category_id OR old.location_id IS NOT new.location_id BEGIN
  INSERT INTO analytics_gaps_scoped (category_id, day, kind, location_id, n, ms)
    SELECT old.category_id, day, kind, old.location_id, -1 * count(*), -1 * sum(ms) FROM (SELECT substr(d, 1, 10) AS day, kind, CAST(round((julianday(d) - julianday(p)) * 86400000) AS INTEGER) AS ms FROM (
      SELECT l.completed_date AS d, '' AS kind, lag(l.completed_date) OVER (ORDER BY l.completed_date, l.id) AS p FROM maintenance_logs l WHERE l.item_id = old.id
      UNION ALL SELECT l.completed_date, l.type, lag(l.completed_date) OVER (PARTITION BY l.type ORDER BY l.completed_date, l.id) FROM maintenance_logs l WHERE l.item_id = old.id) WHERE p IS NOT NULL) WHERE true GROUP BY day, kind
    ON CONFLICT (category_id, day, kind, location_id) DO UPDATE SET n = n + excluded.n, ms = ms + excluded.ms;
  INSERT INTO analytics_gaps_scoped (category_id, day, kind, location_id, n, ms)
    SELECT new.category_id, day, kind, new.location_id, 1 * count(*), 1 * sum(ms) FROM (SELECT substr(d, 1, 10) AS day, kind, CAST(round((julianday(d) - julianday(p)) * 86400000) AS INTEGER) AS ms FROM (
      SELECT l.completed_date AS d, '' AS kind, lag(l.completed_date) OVER (ORDER BY l.completed_date, l.id) AS p FROM maintenance_logs l WHERE l.item_id = new.id
      UNION ALL SELECT l.completed_date, l.type, lag(l.completed_date) OVER (PARTITION BY l.type ORDER BY l.completed_date, l.id) FROM maintenance_logs l WHERE l.item_id = new.id) WHERE p IS NOT NULL) WHERE true GROUP BY day, kind
    ON CONFLICT (category_id, day, kind, location_id) DO UPDATE SET n = n + excluded.n, ms = ms + excluded.ms;
END
--> statement-breakpoint
CREATE TRIGGER analytics_due_back_assets_update AFTER UPDATE OF due_back_at, category_id, location_id, deleted_at ON assets
WHEN (old.due_back_at IS NOT NULL OR new.due_back_at IS NOT NULL) AND (old.due_back_at IS NOT new.due_back_at OR old.category_id IS NOT new.category_id
  OR old.location_id IS NOT new.location_id OR old.deleted_at IS NOT new.deleted_at) BEGIN
  INSERT INTO analytics_due_back (day, category_id, location_id, n)
    SELECT substr(old.due_back_at, 1, 10), old.category_id, old.location_id, -1 WHERE old.due_back_at IS NOT NULL AND old.deleted_at IS NULL
    ON CONFLICT (day, category_id, location_id) DO UPDATE SET n = n + excluded.n;
  INSERT INTO analytics_due_back (day, category_id, location_id, n)
    SELECT substr(new.due_back_at, 1, 10), new.category_id, new.location_id, 1 WHERE new.due_back_at IS NOT NULL AND new.deleted_at IS NULL
    ON CONFLICT (day, category_id, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
CREATE TRIGGER analytics_gaps_assets_delete AFTER DELETE ON assets BEGIN
  INSERT INTO analytics_gaps_scoped (category_id, day, kind, location_id, n, ms)
    SELECT old.category_id, day, kind, old.location_id, -1 * count(*), -1 * sum(ms) FROM (SELECT substr(d, 1, 10) AS day, kind, CAST(round((julianday(d) - julianday(p)) * 86400000) AS INTEGER) AS ms FROM (
      SELECT l.completed_date AS d, '' AS kind, lag(l.completed_date) OVER (ORDER BY l.completed_date, l.id) AS p FROM maintenance_logs l WHERE l.item_id = old.id
      UNION ALL SELECT l.completed_date, l.type, lag(l.completed_date) OVER (PARTITION BY l.type ORDER BY l.completed_date, l.id) FROM maintenance_logs l WHERE l.item_id = old.id) WHERE p IS NOT NULL) WHERE true GROUP BY day, kind
    ON CONFLICT (category_id, day, kind, location_id) DO UPDATE SET n = n + excluded.n, ms = ms + excluded.ms;
  INSERT INTO analytics_due_back (day, category_id, location_id, n)
    SELECT substr(old.due_back_at, 1, 10), old.category_id, old.location_id, -1 WHERE old.due_back_at IS NOT NULL AND old.deleted_at IS NULL
    ON CONFLICT (day, category_id, location_id) DO UPDATE SET n = n + excluded.n;
END
--> statement-breakpoint
-- Completion: an expected item scanned (or a found item scanned) ends the asset's streak; an expected
-- item missed lengthens it. Sessions complete in completed_at order (completed_at is the completion time).
CREATE TRIGGER analytics_streaks_session_completed AFTER UPDATE OF status ON sessions
WHEN new.status = 'completed' AND old.status IS NOT 'completed' BEGIN
  DELETE FROM analytics_unscanned_streaks WHERE asset_id IN (
    SELECT si.asset_id FROM session_items si WHERE si.session_id = new.id AND si.scan_id IS NOT NULL AND (si.excluded = 0 OR si.source = 'found'));
  INSERT INTO analytics_unscanned_streaks (asset_id, streak)
    SELECT si.asset_id, 1 FROM session_items si WHERE si.session_id = new.id AND si.scan_id IS NULL AND si.excluded = 0 AND si.source <> 'found'
    ON CONFLICT (asset_id) DO UPDATE SET streak = streak + 1;
END
--> statement-breakpoint
-- The product never deletes a completed session (only drafts and cancelled ones; an asset's purge keeps
-- session items), but should one go (or leave the completed status), its assets' streaks are recounted
-- from the remaining history (a scan of session_items: no index by asset; never on a product path).
CREATE TRIGGER analytics_streaks_session_delete AFTER DELETE ON sessions WHEN old.status = 'completed' BEGIN
  DELETE FROM analytics_unscanned_streaks WHERE asset_id IN (SELECT asset_id FROM session_items WHERE session_id = old.id);
  INSERT INTO analytics_unscanned_streaks (asset_id, streak)
    SELECT asset_id, streak FROM (SELECT asset_id, coalesce(min(CASE WHEN missed = 0 THEN rn END) - 1, count(*)) AS streak FROM (
      SELECT si.asset_id, (si.scan_id IS NULL AND si.excluded = 0 AND si.source <> 'found') AS missed,
        row_number() OVER (PARTITION BY si.asset_id ORDER BY s.completed_at DESC, s.id DESC) AS rn
      FROM session_items si JOIN sessions s ON s.id = si.session_id
      WHERE s.status = 'completed' AND ((si.excluded = 0 AND si.source <> 'found') OR (si.source = 'found' AND si.scan_id IS NOT NULL)) AND si.asset_id IN (SELECT x.asset_id FROM session_items x WHERE x.session_id = old.id)) GROUP BY asset_id) WHERE streak > 0;
END
--> statement-breakpoint
CREATE TRIGGER analytics_streaks_session_reopen AFTER UPDATE OF status ON sessions
WHEN old.status = 'completed' AND new.status IS NOT 'completed' BEGIN
  DELETE FROM analytics_unscanned_streaks WHERE asset_id IN (SELECT asset_id FROM session_items WHERE session_id = old.id);
  INSERT INTO analytics_unscanned_streaks (asset_id, streak)
    SELECT asset_id, streak FROM (SELECT asset_id, coalesce(min(CASE WHEN missed = 0 THEN rn END) - 1, count(*)) AS streak FROM (
      SELECT si.asset_id, (si.scan_id IS NULL AND si.excluded = 0 AND si.source <> 'found') AS missed,
        row_number() OVER (PARTITION BY si.asset_id ORDER BY s.completed_at DESC, s.id DESC) AS rn
      FROM session_items si JOIN sessions s ON s.id = si.session_id
      WHERE s.status = 'completed' AND ((si.excluded = 0 AND si.source <> 'found') OR (si.source = 'found' AND si.scan_id IS NOT NULL)) AND si.asset_id IN (SELECT x.asset_id FROM session_items x WHERE x.session_id = old.id)) GROUP BY asset_id) WHERE streak > 0;
END
--> statement-breakpoint
INSERT INTO analytics_gaps (day, kind, n, ms) SELECT day, kind, count(*), sum(ms) FROM (SELECT item_id, substr(d, 1, 10) AS day, kind, CAST(round((julianday(d) - julianday(p)) * 86400000) AS INTEGER) AS ms FROM (
  SELECT item_id, completed_date AS d, '' AS kind, lag(completed_date) OVER (PARTITION BY item_id ORDER BY completed_date, id) AS p FROM maintenance_logs
  UNION ALL SELECT item_id, completed_date, type, lag(completed_date) OVER (PARTITION BY item_id, type ORDER BY completed_date, id) FROM maintenance_logs) WHERE p IS NOT NULL) GROUP BY 1, 2
--> statement-breakpoint
INSERT INTO analytics_gaps_scoped (category_id, day, kind, location_id, n, ms)
SELECT a.category_id, g.day, g.kind, a.location_id, count(*), sum(g.ms) FROM (SELECT item_id, substr(d, 1, 10) AS day, kind, CAST(round((julianday(d) - julianday(p)) * 86400000) AS INTEGER) AS ms FROM (
  SELECT item_id, completed_date AS d, '' AS kind, lag(completed_date) OVER (PARTITION BY item_id ORDER BY completed_date, id) AS p FROM maintenance_logs
  UNION ALL SELECT item_id, completed_date, type, lag(completed_date) OVER (PARTITION BY item_id, type ORDER BY completed_date, id) FROM maintenance_logs) WHERE p IS NOT NULL) g JOIN assets a ON a.id = g.item_id GROUP BY 1, 2, 3, 4
--> statement-breakpoint
INSERT INTO analytics_unscanned_streaks (asset_id, streak) SELECT asset_id, streak FROM (SELECT asset_id, coalesce(min(CASE WHEN missed = 0 THEN rn END) - 1, count(*)) AS streak FROM (
      SELECT si.asset_id, (si.scan_id IS NULL AND si.excluded = 0 AND si.source <> 'found') AS missed,
        row_number() OVER (PARTITION BY si.asset_id ORDER BY s.completed_at DESC, s.id DESC) AS rn
      FROM session_items si JOIN sessions s ON s.id = si.session_id
      WHERE s.status = 'completed' AND ((si.excluded = 0 AND si.source <> 'found') OR (si.source = 'found' AND si.scan_id IS NOT NULL))) GROUP BY asset_id) WHERE streak > 0
--> statement-breakpoint
INSERT INTO analytics_due_back (day, category_id, location_id, n)
SELECT substr(due_back_at, 1, 10), category_id, location_id, count(*) FROM assets WHERE due_back_at IS NOT NULL AND deleted_at IS NULL GROUP BY 1, 2, 3
