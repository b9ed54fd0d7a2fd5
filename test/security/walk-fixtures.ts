import { type FixtureContext, fixtureFor, NON_RESOURCE_PARAMS } from "../harness/fixtures";
import type { WalkedOperation } from "../harness/openapi";
import type { TestTenant } from "../harness/tenant";
import { hostUrl, req, unique } from "./harness";

/** The workspace a walk acts in, as its owner (JWT) and the platform admin (cookie). */
export interface WalkState {
  t: TestTenant;
  jwt: string;
  cookie: string;
}

/** The fixture context of the walks over the OpenAPI document: resources are made by the owner. */
export function walkContext(s: WalkState, params: Record<string, string>): FixtureContext {
  return {
    tenant: s.t,
    api: (path, opts = {}) => req(`${s.t.base}${path}`, { auth: { jwt: s.jwt }, ...opts }),
    admin: (path, opts = {}) =>
      req(hostUrl("admin", `/api/v1${path}`), { ...opts, headers: { cookie: s.cookie, ...opts.headers } }),
    params,
    unique,
  };
}

/** A real resource for each path parameter of the operation (fixtures of test/harness/fixtures.ts). */
export async function walkResources(s: WalkState, o: WalkedOperation) {
  const params: Record<string, string> = {};
  const ctx = walkContext(s, params);
  for (const name of o.pathParams) {
    const fixture = fixtureFor(o.path, name);
    params[name] = NON_RESOURCE_PARAMS[name] ?? (fixture ? await fixture(ctx) : "missing-fixture");
  }
  return { params, ctx };
}
