import type { CreatedApiKey } from "../../src/modules/api-keys";
import { userJwt } from "./principals";
import { api, type TestTenant } from "./tenant";

/** Creates an API key through the API (owner JWT) and returns its token and id. */
export async function createKey(
  t: TestTenant,
  body: { scopes?: string[] | null; expiresAt?: string | null; name?: string } = {},
): Promise<{ token: string; id: string }> {
  const res = await api<CreatedApiKey>(t, "/api-keys", {
    method: "POST",
    auth: { jwt: await userJwt(t) },
    body: { name: body.name ?? "scoped", ...body },
  });
  if (res.status !== 201) throw new Error(`createKey: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.token, id: res.body.id };
}
