import { env } from "cloudflare:workers";
import type { Untyped } from "./tenant";
import { type CallOptions, call, TEST_DOMAIN, type TestTenant } from "./tenant";

export const ADMIN_URL = `https://admin.${TEST_DOMAIN}/api/v1`;

let signIns = 0;

/**
 * Signs in on the admin host with the test admin credentials; returns the `Cookie` header value.
 * Each sign-in comes from its own client address: the admin host's sign-in budget (20 a minute per
 * address, src/access/throttle.ts) lives as long as the runtime, which test files share
 * (vitest.config.ts, `isolate: false`), so a fixed address would let one file's sign-ins use up
 * another's. The throttle itself is tested with chosen addresses (test/auth/throttle.test.ts).
 */
export async function adminSignIn(): Promise<string> {
  const n = signIns++;
  const res = await call(`${ADMIN_URL}/admin/auth/login`, {
    body: { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD },
    headers: { "cf-connecting-ip": `198.18.${(n >> 8) & 255}.${n & 255}` },
  });
  const setCookie = res.headers.get("set-cookie");
  if (res.status !== 200 || !setCookie)
    throw new Error(`admin sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return setCookie.split(";")[0]!;
}

/** Calls an admin route with the given session cookie (none when `cookie` is null). */
export function adminApi<T = Untyped>(cookie: string | null, path: string, opts: CallOptions = {}) {
  return call<T>(`${ADMIN_URL}${path}`, { ...opts, headers: { ...opts.headers, ...(cookie ? { cookie } : {}) } });
}

/** A tenant as created through POST /admin/tenants, shaped like the harness's own tenants. */
export function asTestTenant(
  body: { tenantId: string; slug: string; plan: TestTenant["plan"]; apiKey: string; owner: { email: string } },
  password: string,
): TestTenant {
  return {
    id: body.tenantId,
    slug: body.slug,
    plan: body.plan,
    apiKey: body.apiKey,
    owner: { id: "", email: body.owner.email, password },
    base: `https://${body.slug}.${TEST_DOMAIN}/api/v1`,
  };
}

let counter = 0;
export const uniqueSlug = (prefix = "adm") => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
