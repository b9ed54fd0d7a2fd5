import { CUSTODY, MANAGERS, SCIM } from "./policy-terms";
import type { RouteRule } from "./route-rule";

/** Signed hand-overs and SCIM: their part of the route-policy table (src/access/policy.ts). */
export const IDENTITY_POLICY = {
  // Signed hand-overs (docs/handovers.md): owners and admins keep the agreements; whoever may move
  // assets hands them over and takes the signature; the link pages are public, their token the credential.
  listAgreements: { access: "data", scope: "inventory-items:read" },
  getAgreement: { access: "data", scope: "inventory-items:read" },
  listAgreementVersions: { access: "data", scope: "inventory-items:read" },
  createAgreement: { access: "data", scope: CUSTODY, roles: MANAGERS },
  updateAgreement: { access: "data", scope: CUSTODY, roles: MANAGERS },
  deleteAgreement: { access: "data", scope: CUSTODY, roles: MANAGERS },
  createHandover: { access: "data", scope: CUSTODY },
  listHandovers: { access: "data", scope: "inventory-items:read" },
  getHandover: { access: "data", scope: "inventory-items:read" },
  acceptHandover: { access: "data", scope: CUSTODY },
  declineHandover: { access: "data", scope: CUSTODY },
  createHandoverLink: { access: "data", scope: CUSTODY, issuesSecret: true },
  listReceipts: { access: "data", scope: "inventory-items:read" },
  getReceipt: { access: "data", scope: "inventory-items:read" },
  getReceiptPdf: { access: "data", scope: "inventory-items:read" },
  verifyReceipt: { access: "data", scope: "inventory-items:read" },
  getHandoverLinkPage: { access: "tenantPublic", throttled: true },
  acceptHandoverByLink: { access: "tenantPublic", throttled: true },
  declineHandoverByLink: { access: "tenantPublic", throttled: true },
  // SCIM 2.0 (docs/scim.md): the identity provider's routes under /scim/v2 accept a SCIM token only;
  // the tokens and the group mappings are admin settings.
  listScimTokens: { access: "jwt", roles: MANAGERS },
  createScimToken: { access: "jwt", roles: MANAGERS, issuesSecret: true },
  revokeScimToken: { access: "jwt", roles: MANAGERS },
  listScimGroupMappings: { access: "jwt", roles: MANAGERS },
  createScimGroupMapping: { access: "jwt", roles: MANAGERS },
  updateScimGroupMapping: { access: "jwt", roles: MANAGERS },
  deleteScimGroupMapping: { access: "jwt", roles: MANAGERS },
  scimGetServiceProviderConfig: SCIM,
  scimListResourceTypes: SCIM,
  scimListSchemas: SCIM,
  scimListUsers: SCIM,
  scimCreateUser: SCIM,
  scimGetUser: SCIM,
  scimReplaceUser: SCIM,
  scimPatchUser: SCIM,
  scimDeleteUser: SCIM,
  scimListGroups: SCIM,
  scimCreateGroup: SCIM,
  scimGetGroup: SCIM,
  scimReplaceGroup: SCIM,
  scimPatchGroup: SCIM,
  scimDeleteGroup: SCIM,
} as const satisfies Record<string, RouteRule>;
