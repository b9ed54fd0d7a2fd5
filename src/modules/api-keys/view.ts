import { parseScopes } from "../../access/scopes";
import type { apiKeys } from "../../db/tenant/users";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** Never the token or its hash. */
export const toApiKey = (r: ApiKeyRow) => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  createdBy: r.createdBy,
  createdAt: r.createdAt,
  lastUsedAt: r.lastUsedAt,
  revokedAt: r.revokedAt,
  scopes: parseScopes(r.scopes),
  expiresAt: r.expiresAt,
});
