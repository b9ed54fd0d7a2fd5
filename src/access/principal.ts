import type { Role } from "../db/tenant/users";
import type { Scope } from "./scopes";

/** Who is calling. API keys act with the `admin` role on the routes that accept them. */
export type Principal =
  | { kind: "user"; userId: string; email: string; role: Role }
  | { kind: "apiKey"; keyId: string; role: Role; scopes: readonly Scope[] | null }
  | { kind: "platformAdmin"; email: string }
  /** An identity provider on /scim/v2: it provisions with the admin role, never touching owners. */
  | { kind: "scimToken"; tokenId: string; role: Role };

/** The id recorded as the actor of audit entries, events and history. */
export function actorId(p: Principal): string {
  if (p.kind === "user") return p.userId;
  if (p.kind === "apiKey") return p.keyId;
  if (p.kind === "scimToken") return p.tokenId;
  return `admin:${p.email}`;
}

/** Whose budget and idempotency keys a request uses: the API key, or the user behind a JWT. */
export function credentialKey(p: Principal): string {
  if (p.kind === "apiKey") return `key:${p.keyId}`;
  if (p.kind === "user") return `user:${p.userId}`;
  // A SCIM token's budget is its own, apart from the API keys' and the users'.
  if (p.kind === "scimToken") return `scim:${p.tokenId}`;
  return `admin:${p.email}`;
}
