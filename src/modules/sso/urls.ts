import { hostOrigin } from "../../tenancy/host";
import { API_PREFIX_PATH } from "./paths";

/**
 * The fixed service-provider URLs of a workspace, all on its own host: the workspace
 * of a callback is the host's, never something the IdP's response says. Built from the configured
 * base URL (BASE_URL), never from the request, like every URL the service hands out.
 */
export function spUrls(env: { BASE_URL?: string }, slug: string) {
  const origin = hostOrigin(env, slug);
  return {
    origin,
    acsUrl: `${origin}${API_PREFIX_PATH}/auth/saml/callback`,
    /** Our SAML entity id is our metadata URL, the usual convention. */
    spEntityId: `${origin}${API_PREFIX_PATH}/auth/saml/metadata`,
    oidcRedirectUri: `${origin}${API_PREFIX_PATH}/auth/oidc/callback`,
    loginPage: `${origin}/login`,
  };
}
export type SpUrls = ReturnType<typeof spUrls>;
