DROP INDEX `people_employee_number_idx`;--> statement-breakpoint
CREATE INDEX `people_list_idx` ON `people` (`status`,lower("name"),`id`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `people_employee_number_idx` ON `people` (lower("employee_number"));