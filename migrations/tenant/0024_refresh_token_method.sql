ALTER TABLE `refresh_tokens` ADD `method` text DEFAULT 'password' NOT NULL;--> statement-breakpoint
-- Hand-written (docs/bookings.md, calendar feeds): calendar feeds end with a deactivation. Feeds made before their
-- user's last deactivation (tokens_valid_after, set only by deactivations until this release) are
-- deleted, so a user reactivated earlier does not keep an old feed URL alive.
DELETE FROM `calendar_feeds` WHERE `created_at` < (
  SELECT `tokens_valid_after` FROM `users` WHERE `users`.`id` = `calendar_feeds`.`user_id`
);
