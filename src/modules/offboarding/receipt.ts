import type { ItemRow } from "./holdings";
import type { CaseRow } from "./view";

/**
 * The record a case closes with: what came back and when. THE ONE CALL SITE FOR THE SIGNED RECEIPT:
 * once the handovers module's `issueReceipt(...)` (signed PDF receipts in R2, hash-chained) is on
 * main, this function asks it for a receipt of these returns and keeps its id and SHA-256 here; until
 * then the case keeps this plain record (`kind: "offboarding-record"`, `receiptId: null`).
 */
export function closingRecord(row: CaseRow, items: readonly ItemRow[], at: string): Record<string, unknown> {
  return {
    kind: "offboarding-record",
    receiptId: null,
    caseId: row.id,
    personId: row.personId,
    closedAt: at,
    returns: items
      .filter((i) => i.state === "returned")
      .map((i) => ({ kind: i.kind, itemId: i.itemId, name: i.name, reference: i.reference, returnedAt: i.returnedAt })),
  };
}
