import type { Role } from "../db/tenant/users";
import type { Scope } from "./scopes";

/** Who is calling. API keys act with the `admin` role on the routes that accept them. */
export type Principal =
  | { kind: "user"; userId: string; email: string; role: Role }
  | { kind: "apiKey"; keyId: string; role: Role; scopes: readonly Scope[] | null }
  | { kind: "platformAdmin"; email: string };

/** The id recorded as the actor of audit entries, events and history. */
export function actorId(p: Principal): string {
  if (p.kind === "user") return p.userId;
  if (p.kind === "apiKey") return p.keyId;
  return `admin:${p.email}`;
}

/** Whose budget and idempotency keys a request uses: the API key, or the user behind a JWT. */
export function credentialKey(p: Principal): string {
  if (p.kind === "apiKey") return `key:${p.keyId}`;
  if (p.kind === "user") return `user:${p.userId}`;
  return `admin:${p.email}`;
}
