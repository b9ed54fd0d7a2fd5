/** Slugs that name platform hosts and can never be tenants. */
export const RESERVED_SLUGS = new Set(["admin", "www", "api", "app"]);

export const ADMIN_HOST_LABEL = "admin";

/** Where the service is reached when `BASE_URL` is not configured: `npm start`'s default. */
export const DEFAULT_BASE_URL = "http://localhost:8787";

/**
 * The configured public base (`BASE_URL`, e.g. `https://example.com`; locally `http://localhost:8787`):
 * its host name is the base domain that every accepted host must end with, and its scheme and port
 * build every URL the service hands out. Nothing is taken from the request's Host header.
 */
export function publicBase(env: { BASE_URL?: string }): URL {
  return new URL(env.BASE_URL || DEFAULT_BASE_URL);
}

/**
 * The workspace label of a request: `acme` for `acme.<base domain>`, `admin` for `admin.<base domain>`;
 * null for anything else (the bare base domain, a deeper name such as `demo.evil.<base>`, another
 * domain, an IP address). The host is checked whole; the port is not part of it.
 */
export function hostLabel(url: string, env: { BASE_URL?: string }): string | null {
  const hostname = new URL(url).hostname.toLowerCase().replace(/\.$/, "");
  const suffix = `.${publicBase(env).hostname.toLowerCase()}`;
  if (!hostname.endsWith(suffix)) return null;
  const label = hostname.slice(0, -suffix.length);
  return /^[a-z0-9-]+$/.test(label) ? label : null;
}

/** The public origin of a workspace (or of the admin host), from the configuration. */
export function hostOrigin(env: { BASE_URL?: string }, label: string): string {
  const base = publicBase(env);
  return `${base.protocol}//${label}.${base.host}`;
}

/** `<workspace origin>/api/v1<path>`: the URLs the service hands out (invites, uploads, realtime). */
export const workspaceApiUrl = (env: { BASE_URL?: string }, slug: string, path: string) =>
  `${hostOrigin(env, slug)}/api/v1${path}`;
