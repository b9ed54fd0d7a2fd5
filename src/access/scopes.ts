/**
 * API-key scopes: one per path group and level, `<group>:read` or `<group>:write` (write implies
 * read). A key created without scopes holds them all (keys made before scopes existed keep full
 * access). The route-policy table names the scope of every `data` route.
 */
export const SCOPE_GROUPS = [
  "inventory-items",
  "people",
  "categories",
  "locations",
  "custom-fields",
  "sessions",
  "maintenance",
  "trash",
  "settings",
  "stats",
  "imports",
  "bookings",
  "kits",
  "labels",
  "stock",
  "offboarding",
  "licences",
  "notifications",
] as const;
export type ScopeGroup = (typeof SCOPE_GROUPS)[number];
export type ScopeLevel = "read" | "write";
export type Scope = `${ScopeGroup}:${ScopeLevel}`;

export const ALL_SCOPES: readonly Scope[] = SCOPE_GROUPS.flatMap((g) => [`${g}:read`, `${g}:write`] as const);

const isScope = (s: string): s is Scope => (ALL_SCOPES as readonly string[]).includes(s);

/** Stored scopes (JSON text) to a list; null (full access) for unscoped keys or unreadable values. */
export function parseScopes(stored: string | null): Scope[] | null {
  if (stored === null) return null;
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? value.filter((v): v is Scope => typeof v === "string" && isScope(v)) : null;
  } catch {
    return null;
  }
}

/** Whether `granted` (null = every scope) covers `needed`; write implies read. */
export function grants(granted: readonly Scope[] | null, needed: Scope): boolean {
  if (granted === null) return true;
  if (granted.includes(needed)) return true;
  const [group, level] = needed.split(":");
  return level === "read" && granted.includes(`${group}:write` as Scope);
}

/** A key's scopes, normalised: sorted, de-duplicated, a read dropped when its write is there. */
export function normaliseScopes(scopes: readonly Scope[]): Scope[] {
  const set = new Set(scopes);
  return ALL_SCOPES.filter(
    (s) => set.has(s) && !(s.endsWith(":read") && set.has(s.replace(/:read$/, ":write") as Scope)),
  );
}
