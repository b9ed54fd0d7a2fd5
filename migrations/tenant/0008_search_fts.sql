-- Quick search (GET /search, src/modules/search): one FTS5 index per searched table, kept current
-- by triggers on the base tables, so every module's writes (API, Durable Object flushes, trash,
-- restores) update it without code of their own. Only live rows are indexed: soft-deleted assets
-- and people (deleted_at set) leave the index and come back on restore. FTS rows share the base
-- row's rowid (cheap delete/replace by rowid) and carry the id, which the search query also checks.
-- Virtual tables are not expressible in the drizzle schema; this migration is hand-written.
-- Note: `wrangler d1 export` refuses databases with FTS5 tables: drop the three *_fts tables
-- (and their triggers) before an export and re-run this migration's statements afterwards.
CREATE VIRTUAL TABLE `assets_fts` USING fts5(id UNINDEXED, name, unique_tag, serial_number, model, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
--> statement-breakpoint
INSERT INTO `assets_fts` (rowid, id, name, unique_tag, serial_number, model) SELECT rowid, id, name, unique_tag, serial_number, model FROM `assets` WHERE deleted_at IS NULL;
--> statement-breakpoint
CREATE TRIGGER `assets_fts_insert` AFTER INSERT ON `assets` WHEN new.deleted_at IS NULL BEGIN
  INSERT OR REPLACE INTO assets_fts (rowid, id, name, unique_tag, serial_number, model) VALUES (new.rowid, new.id, new.name, new.unique_tag, new.serial_number, new.model);
END;
--> statement-breakpoint
CREATE TRIGGER `assets_fts_update` AFTER UPDATE OF name, unique_tag, serial_number, model, deleted_at ON `assets` BEGIN
  DELETE FROM assets_fts WHERE rowid = old.rowid;
  INSERT OR REPLACE INTO assets_fts (rowid, id, name, unique_tag, serial_number, model) SELECT new.rowid, new.id, new.name, new.unique_tag, new.serial_number, new.model WHERE new.deleted_at IS NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `assets_fts_delete` AFTER DELETE ON `assets` BEGIN
  DELETE FROM assets_fts WHERE rowid = old.rowid;
END;
--> statement-breakpoint
CREATE VIRTUAL TABLE `people_fts` USING fts5(id UNINDEXED, name, email, employee_number, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
--> statement-breakpoint
INSERT INTO `people_fts` (rowid, id, name, email, employee_number) SELECT rowid, id, name, email, employee_number FROM `people` WHERE deleted_at IS NULL;
--> statement-breakpoint
CREATE TRIGGER `people_fts_insert` AFTER INSERT ON `people` WHEN new.deleted_at IS NULL BEGIN
  INSERT OR REPLACE INTO people_fts (rowid, id, name, email, employee_number) VALUES (new.rowid, new.id, new.name, new.email, new.employee_number);
END;
--> statement-breakpoint
CREATE TRIGGER `people_fts_update` AFTER UPDATE OF name, email, employee_number, deleted_at ON `people` BEGIN
  DELETE FROM people_fts WHERE rowid = old.rowid;
  INSERT OR REPLACE INTO people_fts (rowid, id, name, email, employee_number) SELECT new.rowid, new.id, new.name, new.email, new.employee_number WHERE new.deleted_at IS NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `people_fts_delete` AFTER DELETE ON `people` BEGIN
  DELETE FROM people_fts WHERE rowid = old.rowid;
END;
--> statement-breakpoint
CREATE VIRTUAL TABLE `sessions_fts` USING fts5(id UNINDEXED, name, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
--> statement-breakpoint
INSERT INTO `sessions_fts` (rowid, id, name) SELECT rowid, id, name FROM `sessions`;
--> statement-breakpoint
CREATE TRIGGER `sessions_fts_insert` AFTER INSERT ON `sessions` BEGIN
  INSERT OR REPLACE INTO sessions_fts (rowid, id, name) VALUES (new.rowid, new.id, new.name);
END;
--> statement-breakpoint
CREATE TRIGGER `sessions_fts_update` AFTER UPDATE OF name ON `sessions` BEGIN
  DELETE FROM sessions_fts WHERE rowid = old.rowid;
  INSERT OR REPLACE INTO sessions_fts (rowid, id, name) VALUES (new.rowid, new.id, new.name);
END;
--> statement-breakpoint
CREATE TRIGGER `sessions_fts_delete` AFTER DELETE ON `sessions` BEGIN
  DELETE FROM sessions_fts WHERE rowid = old.rowid;
END;
