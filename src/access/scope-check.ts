import { ApiError } from "../platform/errors";
import { grants, type Scope } from "./scopes";

/** 403 `insufficient_scope` naming the scope the key lacks, so an integrator knows what to ask for. */
export function requireScope(granted: readonly Scope[] | null, needed: Scope): void {
  if (grants(granted, needed)) return;
  throw new ApiError("insufficient_scope", `This API key lacks the scope '${needed}'`, {
    details: { requiredScope: needed, grantedScopes: granted ?? [] },
  });
}
