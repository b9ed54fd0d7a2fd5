/** Slugs that name platform hosts and can never be tenants. */
export const RESERVED_SLUGS = new Set(["admin", "www", "api", "app"]);

export const ADMIN_HOST_LABEL = "admin";

/**
 * The tenant label of a request: the first `.`-separated label of the URL's hostname
 * (`acme.example.com` and `acme.localhost` → `acme`). Read from the URL, not a separate Host
 * header, so `SELF.fetch("https://acme.test/...")` in tests and real requests agree.
 * A bare host (`localhost`, an IP address) has no tenant.
 */
export function hostLabel(url: string): string | null {
  const hostname = new URL(url).hostname.toLowerCase();
  if (!hostname.includes(".") || /^[\d.]+$/.test(hostname) || hostname.startsWith("[")) return null;
  return hostname.split(".")[0] ?? null;
}
