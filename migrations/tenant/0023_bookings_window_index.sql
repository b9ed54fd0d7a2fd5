DROP INDEX `bookings_starts_idx`;--> statement-breakpoint
CREATE INDEX `bookings_starts_idx` ON `bookings` (`starts_at`,`id`,`ends_at`);