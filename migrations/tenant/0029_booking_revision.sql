ALTER TABLE `bookings` ADD `revision` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written (docs/bookings.md, calendar feeds): the calendar's SEQUENCE was the seconds from created_at to updated_at.
-- Existing bookings start from that value, so no event's SEQUENCE goes down for a calendar app
-- that has seen it; then every UPDATE of a booking that does not set `revision` itself bumps it
-- by one (recursive triggers are off, and the trigger's own UPDATE sets it anyway).
UPDATE `bookings` SET `revision` = max(0, CAST((julianday(`updated_at`) - julianday(`created_at`)) * 86400 AS INTEGER));
--> statement-breakpoint
CREATE TRIGGER `bookings_revision` AFTER UPDATE ON `bookings` WHEN new.revision = old.revision BEGIN
  UPDATE bookings SET revision = old.revision + 1 WHERE rowid = new.rowid;
END;
