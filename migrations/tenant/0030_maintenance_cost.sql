ALTER TABLE `maintenance_logs` ADD `cost_minor` integer;--> statement-breakpoint
ALTER TABLE `maintenance_logs` ADD `currency` text;--> statement-breakpoint
CREATE INDEX `maintenance_logs_cost_idx` ON `maintenance_logs` (`completed_date`,`currency`,`cost_minor`) WHERE cost_minor IS NOT NULL;