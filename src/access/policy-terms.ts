/** Terms the parts of the route-policy table share (src/access/policy.ts). */
export const MANAGERS = ["owner", "admin"] as const;
/** The scope of every route that moves custody (a checkout, a check-in, a hand-over). */
export const CUSTODY = "inventory-items:write" as const;
/** A SCIM route: a SCIM token, nothing else (docs/scim.md). */
export const SCIM = { access: "scim" } as const;
