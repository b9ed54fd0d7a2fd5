import { type ScimPatchOperation, type ScimResource, scimPatch } from "scim-patch";
import { scimError } from "../../http/scim-errors";
import { ENTERPRISE_SCHEMA, isJsonObject, type Json, PATCH_SCHEMA } from "./resource";

/**
 * Applies a PatchOp body with the scim-patch library, after taking providers' habits in: `op` in
 * any case (Entra's "Replace"), a path-less value naming extension attributes by their full URN
 * (Entra), a path-less value repeating the id (Okta), and an empty Operations list (no change).
 */
export function applyPatch(resource: Json, body: unknown): Json {
  if (!isJsonObject(body) || !Array.isArray(body.Operations))
    throw scimError("validation_failed", "invalidSyntax", "The body must be a PatchOp with an Operations array");
  const schemas = Array.isArray(body.schemas) ? body.schemas : [];
  if (!schemas.includes(PATCH_SCHEMA))
    throw scimError("validation_failed", "invalidSyntax", `schemas must include ${PATCH_SCHEMA}`);
  const ops: ScimPatchOperation[] = [];
  for (const raw of body.Operations) {
    if (!isJsonObject(raw) || typeof raw.op !== "string")
      throw scimError("validation_failed", "invalidSyntax", "Each operation needs an op");
    const op = raw.op.toLowerCase();
    if (op !== "add" && op !== "replace" && op !== "remove")
      throw scimError("validation_failed", "invalidSyntax", `Unknown op '${raw.op}'`);
    const path = typeof raw.path === "string" && raw.path.trim() ? raw.path.trim() : undefined;
    if (!path && op !== "remove" && isJsonObject(raw.value)) {
      const { id: _id, meta: _meta, schemas: _s, ...value } = raw.value;
      const plain: Json = {};
      for (const [k, v] of Object.entries(value)) {
        // "urn:…:enterprise:2.0:User:department" as a key: an attribute of the extension.
        if (k.startsWith(`${ENTERPRISE_SCHEMA}:`)) ops.push({ op, path: k, value: v } as ScimPatchOperation);
        else plain[k] = v;
      }
      if (Object.keys(plain).length > 0) ops.push({ op, value: plain } as ScimPatchOperation);
      continue;
    }
    ops.push({
      op,
      ...(path ? { path } : {}),
      ...(raw.value !== undefined ? { value: raw.value } : {}),
    } as ScimPatchOperation);
  }
  if (ops.length === 0) return resource;
  try {
    return scimPatch(resource as unknown as ScimResource, ops, {
      mutateDocument: false,
      treatMissingAsAdd: true,
    }) as unknown as Json;
  } catch (err) {
    const e = err as { scimCode?: string; message?: string };
    if (e.scimCode) throw scimError("validation_failed", e.scimCode, e.message || `Invalid PATCH (${e.scimCode})`);
    throw err;
  }
}
