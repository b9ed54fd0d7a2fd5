-- Prefix indexes for every word prefix of 2 to 10 characters in the asset and people search indexes
-- (0008 had 2 and 3). FTS5 answers `laptop*` from a prefix index as one term, read lazily in either
-- rowid direction and within rowid bounds; without one it merges the doclists of every word starting
-- with `laptop` into one list in memory first, so the cost of a common word grew with its matches
-- (bench/README.md, "One workspace at 1,000,000 assets"). A prefix longer than 10 characters still
-- takes that path; it gives the same results.
-- FTS5 cannot change a table's prefix option in place: each table is dropped, recreated with the same
-- columns and tokenizer, and refilled from its live base rows in one INSERT ... SELECT (the triggers
-- of 0008 name the table and stay). Cost measured on the benchmark's 1,000,000-asset workspace
-- (local SQLite): COST_PLACEHOLDER
DROP TABLE `assets_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `assets_fts` USING fts5(id UNINDEXED, name, unique_tag, serial_number, model, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 7 8 9 10');
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE deleted_at IS NULL;
--> statement-breakpoint
DROP TABLE `people_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `people_fts` USING fts5(id UNINDEXED, name, email, employee_number, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 7 8 9 10');
--> statement-breakpoint
INSERT INTO `people_fts` (rowid, id, name, email, employee_number) SELECT rowid, id, name, email, employee_number FROM `people` WHERE deleted_at IS NULL;
