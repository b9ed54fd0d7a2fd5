/**
 * Front door of the api-keys module. Workspace API keys: create (shown once), list, revoke.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { apiKeysRouter } from "./routes";
export type { ApiKey, CreatedApiKey } from "./schemas";
export { apiKeyWebhookResources } from "./schemas";
export { revokeApiKeysCreatedBy } from "./service";
