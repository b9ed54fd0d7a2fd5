import { loadSsoConfig } from "../../access/sso/gate";
import type { Bindings, TenantDb } from "../../env";
import { ApiError } from "../../platform/errors";
import { planIncludes } from "../../tenancy/plans";
import type { TenantRecord } from "../../tenancy/registry";
import type { AuthCtx } from "../auth";
import { requireSameBrowser } from "./browser-binding";
import { isOidc, isSaml, refreshStaleMetadata } from "./config";
import {
  finishOidcLogin,
  type OidcCallbackQuery,
  socialProvider,
  startOidcLogin,
  workspaceProvider,
} from "./oidc-flow";
import { finishSamlLogin, startSamlLogin } from "./saml-flow";
import type { SpUrls } from "./urls";
import { signInByEmail } from "./users";

export interface SigninCtx {
  env: Bindings;
  tenant: TenantRecord;
  db: TenantDb;
  urls: SpUrls;
  auth: AuthCtx;
  /** The state cookie this browser got when it started the sign-in (see browser-binding.ts). */
  browserState?: string;
}

export interface SigninStart {
  url: string;
  state: string;
}

const planLacksSso = (t: TenantRecord) =>
  new ApiError("plan_required", `Single sign-on is not included in the ${t.plan} plan`, {
    details: { feature: "sso", plan: t.plan },
  });

/** The workspace's SSO config for sign-in: 403 without the plan, 404 when none is saved. */
async function configFor(ctx: SigninCtx) {
  if (!planIncludes(ctx.tenant.plan, "sso")) throw planLacksSso(ctx.tenant);
  const row = await loadSsoConfig(ctx.env, ctx.tenant.id);
  if (!row) throw new ApiError("not_found", "Single sign-on is not configured for this workspace");
  return row;
}

/** Where to send the browser for SSO (the redirect helper of the sign-in page). */
export async function startSsoLogin(ctx: SigninCtx, now = new Date()): Promise<SigninStart> {
  const row = await configFor(ctx);
  if (isSaml(row)) return startSamlLogin(ctx.db, await refreshStaleMetadata(ctx.env, row, now), ctx.urls, now);
  if (isOidc(row)) return startOidcLogin(ctx.env, ctx.db, await workspaceProvider(ctx.env, row), "oidc", ctx.urls, now);
  throw new ApiError("not_found", "Single sign-on is not configured for this workspace");
}

/** Where to send the browser for the platform's social login; 404 when the operator set none. */
export async function startSocialLogin(ctx: SigninCtx, now = new Date()): Promise<SigninStart> {
  const provider = socialProvider(ctx.env);
  if (!provider) throw new ApiError("not_found", "Social sign-in is not configured on this service");
  return startOidcLogin(ctx.env, ctx.db, provider, "social", ctx.urls, now);
}

export async function samlCallback(
  ctx: SigninCtx,
  form: { SAMLResponse?: string; RelayState?: string },
  now = new Date(),
) {
  const row = await configFor(ctx);
  if (!isSaml(row)) throw new ApiError("validation_failed", "This workspace's single sign-on is not SAML");
  requireSameBrowser(ctx.browserState, form.RelayState);
  const who = await finishSamlLogin(ctx.db, row, ctx.urls, form, now);
  return signInByEmail(ctx.auth, who.email, who.name);
}

/** One OIDC callback for the workspace's provider and the social one: the stored request says which. */
export async function oidcCallback(ctx: SigninCtx, query: OidcCallbackQuery, now = new Date()) {
  requireSameBrowser(ctx.browserState, query.state);
  const result = await finishOidcLogin(
    ctx.env,
    ctx.db,
    async (kind) => {
      if (kind === "social") {
        const social = socialProvider(ctx.env);
        if (!social) throw new ApiError("not_found", "Social sign-in is not configured on this service");
        return social;
      }
      const row = await configFor(ctx);
      if (!isOidc(row)) throw new ApiError("validation_failed", "This workspace's single sign-on is not OIDC");
      return workspaceProvider(ctx.env, row);
    },
    ctx.urls,
    query,
    now,
  );
  return signInByEmail(ctx.auth, result.identity.email, result.identity.name);
}
