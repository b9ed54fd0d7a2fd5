// Import and export (docs/import-export.md; "data transfer" is its folder's name only). Front door.
// CSV exports: assets, people, a session's report, stock items and stock movements. CSV imports:
// assets, people and stock items, checked whole first, then worked off in the background (a Queue
// chain, with the cron picking up any chain that stopped).
export { exportRouter } from "./export/routes";
export { consumeImportMessages, IMPORT_QUEUE, type ImportMessage, resumeImports } from "./import/background";
export { MAX_IMPORT_BYTES } from "./import/csv";
export { importRouter } from "./import/routes";
export type { ImportDryRun, ImportJob, ImportRow } from "./import/schemas";
