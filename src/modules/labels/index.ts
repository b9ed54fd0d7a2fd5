/** Front door of the labels module: codes on things, tag batches, label templates and printable labels (docs/labels.md). */
export { addCodes, type CodeEntry, codeCellsOf, parseCodesCell } from "./code-cells";
export { codesRouter } from "./code-routes";
export { labelWebhookResources } from "./code-schemas";
export { printRouter } from "./print-routes";
export { labelsRouter } from "./routes";
