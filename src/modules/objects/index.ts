export { FEEDBACK_TYPES, FILE_TYPES, SNIFF_BYTES, describeTypes, sniff } from "./file-types";
export type { FileType } from "./file-types";
export { tenantPrefix } from "./keys";
export { objectsRouter } from "./routes";
export { assertTenantObject } from "./service";
export { concat } from "./upload";
