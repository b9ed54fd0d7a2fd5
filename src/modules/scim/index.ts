/**
 * Front door of the scim module: the SCIM 2.0 service provider (/scim/v2), SCIM tokens and group
 * mappings (docs/scim.md). Other code imports this file only.
 */

export { scimAdminRouter } from "./admin-routes";
export type { CreatedScimToken, ScimGroupMapping, ScimToken } from "./admin-schemas";
export { scimRouter } from "./routes";
export { scimWebhookResources } from "./webhook-resources";
