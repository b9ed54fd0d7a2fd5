// The platform-admin calls shared by `npm start` (demo seeding) and `npm run tenant:create`.
import { request } from "./http.mjs";

/** Signs in on the admin host and returns the `Cookie` header value for later admin calls. */
export async function adminLogin(adminUrl, { email, password }) {
  const res = await request(`${adminUrl}/api/v1/admin/auth/login`, { method: "POST", body: { email, password } });
  const cookie = res.cookies.find((c) => c.startsWith("admin_session="));
  if (!cookie) throw new Error("Admin login answered without the admin_session cookie");
  return cookie;
}

/**
 * POST /admin/tenants. Returns `{status, body}`: 201 with `{tenantId, slug, plan, owner, apiKey}`
 * or 409 when the slug is taken (the caller decides what that means); other errors throw.
 */
export async function createTenant(adminUrl, cookie, input) {
  const res = await request(`${adminUrl}/api/v1/admin/tenants`, {
    method: "POST",
    body: input,
    headers: { cookie },
    okStatuses: [409],
  });
  return { status: res.status, body: res.body };
}
