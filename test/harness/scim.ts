import { loginOwner } from "./auth";
import { api, type CallOptions, call, type TestTenant } from "./tenant";

/** A SCIM token of the workspace, made by its owner through POST /scim-tokens. */
export async function scimToken(t: TestTenant): Promise<string> {
  const jwt = await loginOwner(t);
  const res = await api<{ token: string }>(t, "/scim-tokens", { auth: { jwt }, body: { name: "IdP" } });
  if (res.status !== 201) throw new Error(`scim token: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

/** Calls /scim/v2 on the workspace host as an identity provider does (application/scim+json). */
export function scim<T = Record<string, unknown>>(t: TestTenant, token: string, path: string, opts: CallOptions = {}) {
  const base = t.base.replace(/\/api\/v1$/, "/scim/v2");
  return call<T>(`${base}${path}`, {
    auth: { header: `Bearer ${token}` },
    ...opts,
    headers: { "content-type": "application/scim+json", ...opts.headers },
  });
}
