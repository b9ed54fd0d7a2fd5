/**
 * Front door of the hand-overs module (docs/handovers.md): agreement templates and their versions,
 * hand-overs that wait for the person's acceptance (in person or by link), PDF receipts in R2 and
 * the workspace's receipt chain. Other code imports this file only.
 */
export { type IssueReceiptInput, issueReceipt } from "./issue";
export { handoverLinksRouter } from "./link-routes";
export { acceptanceForCustody } from "./open";
export { handoversRouter } from "./routes";
export type { Agreement, CreatedHandover, Handover, HandoverDetail, Receipt, ReceiptVerification } from "./schemas";
export { handoverWebhookResources } from "./schemas";
