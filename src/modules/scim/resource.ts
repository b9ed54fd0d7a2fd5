import { scimError } from "../../http/scim-errors";

export const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const ENTERPRISE_SCHEMA = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
/** SCIM 1.1's name of the enterprise extension, which OneLogin's Enterprise template still sends. */
const ENTERPRISE_SCHEMA_V1 = "urn:scim:schemas:extension:enterprise:1.0";
export const LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

export type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** meta.version and the ETag header: a weak tag of the row's version counter. */
export const etagOf = (version: number) => `W/"${version}"`;

/** RFC 7644 section 3.14: a write with If-Match must name the current version (or `*`). */
export function checkIfMatch(ifMatch: string | undefined, version: number): void {
  if (!ifMatch) return;
  const tags = ifMatch.split(",").map((t) => t.trim());
  if (tags.includes("*") || tags.includes(etagOf(version)) || tags.includes(`"${version}"`)) return;
  throw scimError("precondition_failed", undefined, "The resource changed since the version named in If-Match");
}

/**
 * A versioned write that changed no row lost a race with another write of the same resource: 412
 * when the client named the version it read (If-Match), else 409 (retry).
 */
export function lostRace(kind: "User" | "Group", ifMatch: string | undefined) {
  return ifMatch
    ? scimError("precondition_failed", undefined, "The resource changed since the version named in If-Match")
    : scimError("conflict", undefined, `The ${kind} changed while this request ran; retry`);
}

/** The audit entry of a SCIM write by the token's actor (the resource before and after). */
export function scimAudit(
  ctx: { actor: string },
  entityType: "scim_user" | "scim_group",
  entityId: string,
  action: "create" | "update" | "delete",
  at: string,
  change: { before?: Json; after?: Json },
) {
  return { entityType, entityId, action, actor: ctx.actor, at, ...change };
}

/**
 * Entra sends booleans as strings ("False"); some providers send "true". RFC 7643 booleans are
 * JSON booleans, so anything else is a 400.
 */
export function booleanOf(v: unknown, path: string): boolean {
  if (typeof v === "boolean") return v;
  if (typeof v === "string" && /^(true|false)$/i.test(v)) return v.toLowerCase() === "true";
  throw scimError("validation_failed", "invalidValue", `${path} must be a boolean`);
}

const textOf = (v: unknown, path: string, max = 512): string | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" && typeof v !== "number")
    throw scimError("validation_failed", "invalidValue", `${path} must be a string`);
  const s = String(v).trim();
  if (s.length > max) throw scimError("validation_failed", "invalidValue", `${path} is longer than ${max} characters`);
  return s.length > 0 ? s : undefined;
};

/** The stored form never repeats what the server owns. */
const withoutServerOwned = ({ id: _id, meta: _meta, ...rest }: Json) => rest;

/**
 * A User as stored: the body the provider sent, with `active` a boolean, the enterprise manager as
 * `{ value }` (Entra sends a bare id) and the schemas it uses listed. 400 unless userName is there.
 */
export function normalizeUser(body: unknown): Json {
  if (!isObject(body)) throw scimError("validation_failed", "invalidSyntax", "The body must be a SCIM User object");
  const out = withoutServerOwned(body);
  const userName = textOf(out.userName, "userName", 256);
  if (!userName) throw scimError("validation_failed", "invalidValue", "userName is required");
  out.userName = userName;
  out.active = out.active === undefined || out.active === null ? true : booleanOf(out.active, "active");
  if (out.externalId !== undefined && out.externalId !== null)
    out.externalId = textOf(out.externalId, "externalId", 256);
  // OneLogin's Enterprise template sends one email as an object: it is a list of one.
  if (isObject(out.emails)) out.emails = [out.emails];
  if (out.emails !== undefined && out.emails !== null && !Array.isArray(out.emails))
    throw scimError("validation_failed", "invalidValue", "emails must be an array");
  fromEnterpriseV1(out);
  const ext = out[ENTERPRISE_SCHEMA];
  if (ext !== undefined && ext !== null) {
    if (!isObject(ext)) throw scimError("validation_failed", "invalidValue", `${ENTERPRISE_SCHEMA} must be an object`);
    const manager = ext.manager;
    if (typeof manager === "string") ext.manager = manager.trim() ? { value: manager.trim() } : undefined;
    else if (isObject(manager) && (manager.value === null || manager.value === "")) ext.manager = undefined;
    else if (manager !== undefined && manager !== null && !isObject(manager))
      throw scimError("validation_failed", "invalidValue", "manager must be an id or { value }");
    if (ext.manager === undefined || ext.manager === null) delete ext.manager;
  }
  const schemas = new Set([USER_SCHEMA]);
  if (isObject(out[ENTERPRISE_SCHEMA])) schemas.add(ENTERPRISE_SCHEMA);
  out.schemas = [...schemas];
  return out;
}

/**
 * The SCIM 1.1 enterprise extension (OneLogin's Enterprise template) read as the 2.0 one: the same
 * attributes, with the manager's `managerId` as its `value`. A body that sends both keeps the 2.0 one.
 */
function fromEnterpriseV1(out: Json): void {
  const v1 = out[ENTERPRISE_SCHEMA_V1];
  if (v1 === undefined) return;
  delete out[ENTERPRISE_SCHEMA_V1];
  if (!isObject(v1)) throw scimError("validation_failed", "invalidValue", `${ENTERPRISE_SCHEMA_V1} must be an object`);
  if (out[ENTERPRISE_SCHEMA] !== undefined) return;
  const { manager, ...rest } = v1;
  const managerValue = isObject(manager) ? (manager.managerId ?? manager.value) : manager;
  out[ENTERPRISE_SCHEMA] = {
    ...rest,
    ...(isObject(manager) && managerValue !== undefined
      ? { manager: { value: managerValue, ...(manager.displayName ? { displayName: manager.displayName } : {}) } }
      : manager !== undefined
        ? { manager }
        : {}),
  };
}

export interface Member {
  value: string;
  display?: string;
}

/** A Group as stored: displayName required, members as `{ value, display? }`. */
export function normalizeGroup(body: unknown): Json & { displayName: string; members: Member[] } {
  if (!isObject(body)) throw scimError("validation_failed", "invalidSyntax", "The body must be a SCIM Group object");
  const out = withoutServerOwned(body);
  const displayName = textOf(out.displayName, "displayName", 256);
  if (!displayName) throw scimError("validation_failed", "invalidValue", "displayName is required");
  const raw = out.members ?? [];
  if (!Array.isArray(raw)) throw scimError("validation_failed", "invalidValue", "members must be an array");
  const seen = new Set<string>();
  const members: Member[] = [];
  for (const m of raw) {
    const value = isObject(m) ? textOf(m.value, "members.value") : undefined;
    if (!value) throw scimError("validation_failed", "invalidValue", "each member needs a value (a User id)");
    if (seen.has(value)) continue;
    seen.add(value);
    members.push(isObject(m) && typeof m.display === "string" ? { value, display: m.display } : { value });
  }
  return { ...out, displayName, members, schemas: [GROUP_SCHEMA] };
}

/** The user's email for the person: the primary one, else the work one, else the first, else a userName that is one. */
export function emailOf(resource: Json): string | null {
  const emails = Array.isArray(resource.emails) ? resource.emails.filter(isObject) : [];
  const pick =
    emails.find((e) => e.primary === true || e.primary === "True" || e.primary === "true") ??
    emails.find((e) => e.type === "work") ??
    emails[0];
  const value = typeof pick?.value === "string" ? pick.value.trim() : "";
  if (value) return value;
  const userName = String(resource.userName ?? "");
  return /^[^@\s]+@[^@\s]+$/.test(userName) ? userName : null;
}

export function displayNameOf(resource: Json): string {
  const name = isObject(resource.name) ? resource.name : {};
  const formatted = typeof name.formatted === "string" ? name.formatted.trim() : "";
  const parts = [name.givenName, name.familyName].filter((p) => typeof p === "string" && p.trim()).join(" ");
  const display = typeof resource.displayName === "string" ? resource.displayName.trim() : "";
  return (display || formatted || parts || String(resource.userName)).slice(0, 200);
}

export const enterpriseOf = (resource: Json): Json =>
  isObject(resource[ENTERPRISE_SCHEMA]) ? (resource[ENTERPRISE_SCHEMA] as Json) : {};

export const managerIdOf = (resource: Json): string | null => {
  const m = enterpriseOf(resource).manager;
  return isObject(m) && typeof m.value === "string" ? m.value : null;
};

export const isJsonObject = isObject;
