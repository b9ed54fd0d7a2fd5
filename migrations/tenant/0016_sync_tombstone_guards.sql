-- Sync tombstones (src/db/tenant/sync.ts, docs/api-platform.md): sessions and maintenance schedules
-- are deleted for good, and a sync (`updatedSince`) sees the deletion through a row in
-- sync_tombstones that the delete's own batch writes first (src/events/tombstones.ts). These
-- triggers make that a rule of the database: a delete that did not write its tombstone fails, so no
-- path (a route, the trash purge of an asset, a future job) can drop a row silently. Triggers are
-- not expressible in the drizzle schema; this migration is hand-written. DROP TABLE (the workspace
-- wipe) fires no triggers.
CREATE TRIGGER `sessions_tombstone_guard` BEFORE DELETE ON `sessions`
WHEN NOT EXISTS (SELECT 1 FROM sync_tombstones WHERE entity = 'session' AND id = old.id) BEGIN
  SELECT RAISE(ABORT, 'sync tombstone missing: session');
END;
--> statement-breakpoint
CREATE TRIGGER `maintenance_schedules_tombstone_guard` BEFORE DELETE ON `maintenance_schedules`
WHEN NOT EXISTS (SELECT 1 FROM sync_tombstones WHERE entity = 'maintenance_schedule' AND id = old.id) BEGIN
  SELECT RAISE(ABORT, 'sync tombstone missing: maintenance_schedule');
END;
