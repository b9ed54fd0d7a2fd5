import { MANAGERS } from "./policy-terms";
import type { RouteRule } from "./route-rule";

/** The labels and codes part of the route-policy table (src/access/policy.ts). */
export const LABEL_POLICY = {
  // Labels (docs/bookings.md#labels): read the assets they print, so a read scope.
  getInventoryItemQrSvg: { access: "data", scope: "inventory-items:read" },
  getStockItemQrSvg: { access: "data", scope: "stock:read" },
  getKitQrSvg: { access: "data", scope: "kits:read" },
  getLocationQrSvg: { access: "data", scope: "locations:read" },
  renderLabelSheet: { access: "data", scope: "labels:read" },
  // Codes, tag batches and label templates (docs/labels.md): a scan's look-up reads; claiming a
  // printed code is field work (any role); reserving batches and templates are managers' work.
  lookupCode: { access: "data", scope: "labels:read" },
  listCodes: { access: "data", scope: "labels:read" },
  attachCode: { access: "data", scope: "labels:write" },
  voidCode: { access: "data", scope: "labels:write" },
  claimCode: { access: "data", scope: "labels:write" },
  reserveTagBatch: { access: "data", scope: "labels:write", roles: MANAGERS },
  listLabelTemplates: { access: "data", scope: "labels:read" },
  getLabelTemplate: { access: "data", scope: "labels:read" },
  previewLabelTemplate: { access: "data", scope: "labels:read" },
  createLabelTemplate: { access: "data", scope: "labels:write", roles: MANAGERS },
  deleteLabelTemplate: { access: "data", scope: "labels:write", roles: MANAGERS },
  printLabels: { access: "data", scope: "labels:read", idempotent: false },
} as const satisfies Record<string, RouteRule>;
