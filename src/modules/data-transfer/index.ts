// Data transfer: CSV exports (assets, people, a session's report, stock items and movements) and CSV
// imports (assets, people, stock items),
// imports worked off in the background (Queue chain, cron catch-up). Front door.
export { exportRouter } from "./export-routes";
export { consumeImportMessages, IMPORT_QUEUE, resumeImports, type ImportMessage } from "./import-background";
export { MAX_IMPORT_BYTES } from "./import-csv";
export { importRouter } from "./import-routes";
export type { ImportDryRun, ImportJob, ImportRow } from "./import-schemas";
