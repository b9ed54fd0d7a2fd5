/**
 * Front door of the files module (docs/files.md; "objects" is its route's and folder's name only).
 * Uploaded files in R2: signed upload and view URLs, type sniffing.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */

export type { FileType } from "./file-types";
export { describeTypes, FEEDBACK_TYPES, FILE_TYPES, SNIFF_BYTES, sniff } from "./file-types";
export { tenantPrefix } from "./keys";
export { objectsRouter } from "./routes";
export type { ObjectUpload, ObjectViewUrl, UploadedObject } from "./schemas";
export { assertTenantObject } from "./service";
export { concat } from "./upload";
