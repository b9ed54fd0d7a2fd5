import { isId, newId } from "../../platform/ids";

/**
 * R2 keys are always `tenants/<tenantId>/...` (docs/files.md). Objects uploaded through
 * /objects live at `tenants/<tenantId>/uploads/<obj_id>`; feedback attachments at
 * `tenants/<tenantId>/feedback/<fbk_id>/<n>.<ext>` (never served through /objects).
 */
export const tenantPrefix = (tenantId: string) => `tenants/${tenantId}/`;

export const newUploadKey = (tenantId: string) => `${tenantPrefix(tenantId)}uploads/${newId("object")}`;

/** Longest key a client can present; real keys are ~70 characters. */
export const MAX_KEY_LENGTH = 256;

/**
 * True when `key` is an upload key of `tenantId`. Anything else (another tenant's key, a feedback
 * key, `..` tricks, garbage) is "not found" to the caller, never "forbidden": existence of other
 * tenants' objects is not revealed.
 */
export function isTenantUploadKey(tenantId: string, key: string): boolean {
  const prefix = `${tenantPrefix(tenantId)}uploads/`;
  return key.length <= MAX_KEY_LENGTH && key.startsWith(prefix) && isId("object", key.slice(prefix.length));
}
