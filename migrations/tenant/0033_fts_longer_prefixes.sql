-- Prefix indexes for every word prefix of 2 to 10 characters in the asset and people search indexes
-- (0008 had 2 and 3). FTS5 answers `laptop*` from a prefix index as one term, read lazily in either
-- rowid direction and within rowid bounds; without one it merges the doclists of every word starting
-- with `laptop` into one list in memory first, so the cost of a common word grew with its matches
-- (bench/README.md, "One workspace at 1,000,000 assets"). A prefix longer than 10 characters still
-- takes that path; it gives the same results.
-- FTS5 cannot change a table's prefix option in place: each table is dropped, recreated with the same
-- columns and tokenizer, and refilled from its live base rows in one pass (the triggers of 0008 name
-- the table and stay). The assets are refilled in rowid ranges of 200,000 (one seek each; a range
-- past the last rowid reads nothing), so each statement stays under D1's per-query time limit (30 s;
-- about 14 s of CPU per range here at 1,000,000 assets, load 6-7).
-- Cost on the benchmark's 1,000,000-asset workspace (local SQLite, 2-core machine at load 6-7, the
-- assets refilled as one INSERT: the ranges do the same work): 296 s wall (70 s CPU) for the whole
-- migration; the asset index grows from 156 MB to 334 MB of FTS5 data (+178 bytes per asset) and the
-- database file from 3,160 to 3,353 MB (34% of D1's 10 GB).
DROP TABLE `assets_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `assets_fts` USING fts5(id UNINDEXED, name, unique_tag, serial_number, model, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 7 8 9 10');
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid <= 200000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 200000 AND rowid <= 400000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 400000 AND rowid <= 600000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 600000 AND rowid <= 800000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 800000 AND rowid <= 1000000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 1000000 AND rowid <= 1200000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 1200000 AND rowid <= 1400000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 1400000 AND rowid <= 1600000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 1600000 AND rowid <= 1800000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 1800000 AND rowid <= 2000000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 2000000 AND rowid <= 2200000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 2200000 AND rowid <= 2400000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 2400000 AND rowid <= 2600000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 2600000 AND rowid <= 2800000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 2800000 AND rowid <= 3000000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 3000000 AND rowid <= 3200000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 3200000 AND rowid <= 3400000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 3400000 AND rowid <= 3600000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 3600000 AND rowid <= 3800000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 3800000 AND rowid <= 4000000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 4000000 AND rowid <= 4200000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 4200000 AND rowid <= 4400000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 4400000 AND rowid <= 4600000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 4600000 AND rowid <= 4800000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 4800000 AND rowid <= 5000000 AND deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE rowid > 5000000 AND deleted_at IS NULL;
--> statement-breakpoint
DROP TABLE `people_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `people_fts` USING fts5(id UNINDEXED, name, email, employee_number, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6 7 8 9 10');
--> statement-breakpoint
INSERT INTO `people_fts` (rowid, id, name, email, employee_number) SELECT rowid, id, name, email, employee_number FROM `people` WHERE deleted_at IS NULL;
