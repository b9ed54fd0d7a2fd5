import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ROUTE_POLICY, type RouteRule } from "../../src/access/policy";
import { encodeCursor, withCursorScope } from "../../src/platform/pagination";
import { fixtureFor, NON_RESOURCE_PARAMS } from "../harness/fixtures";
import { fetchOpenApi, fillPath, operationsOf, type WalkedOperation } from "../harness/openapi";
import { adminCookie, userJwt } from "../harness/principals";
import { type CallOptions, createTenant, type Failure, TEST_DOMAIN, type TestTenant } from "../harness/tenant";
import { expectError, hostUrl, req, unique } from "./harness";
import { validSample } from "./samples";

/**
 * The outside probe's findings, per documented operation: hosts are checked whole, an
 * invalid API key is a 401 before any 403, cursors belong to their list, bodies cannot set a
 * prototype and errors stay small however many problems a body has.
 */

const doc = await fetchOpenApi();
const operations = operationsOf(doc);
const POLICY: Record<string, RouteRule> = ROUTE_POLICY;

const s = {} as { a: TestTenant; b: TestTenant; aJwt: string; cookie: string };

beforeAll(async () => {
  const a = await createTenant({ plan: "enterprise" });
  const b = await createTenant({ plan: "enterprise" });
  Object.assign(s, { a, b, aJwt: await userJwt(a), cookie: await adminCookie() });
});

const placeholders = (o: WalkedOperation) =>
  Object.fromEntries(o.pathParams.map((p) => [p, "zz_00000000000000000000000000"]));
const isTenantRoute = (rule: RouteRule) =>
  rule.access === "tenantPublic" || rule.access === "data" || rule.access === "jwt";
const isAdminRoute = (rule: RouteRule) => rule.access === "admin" || rule.access === "adminPublic";

function authorized(rule: RouteRule): { host: string; opts: CallOptions } {
  if (isAdminRoute(rule))
    return { host: "admin", opts: rule.access === "admin" ? { headers: { cookie: s.cookie } } : {} };
  return { host: s.a.slug, opts: rule.access === "tenantPublic" ? { auth: null } : { auth: { jwt: s.aJwt } } };
}

/** Real resources for a list's path parameters (a list under an unknown parent is a 404 first). */
async function realPath(o: WalkedOperation): Promise<string> {
  const params: Record<string, string> = {};
  const ctx = {
    tenant: s.a,
    api: <T>(p: string, opts: CallOptions = {}) => req<T>(`${s.a.base}${p}`, { auth: { jwt: s.aJwt }, ...opts }),
    admin: <T>(p: string, opts: CallOptions = {}) =>
      req<T>(hostUrl("admin", `/api/v1${p}`), { ...opts, headers: { cookie: s.cookie, ...opts.headers } }),
    params,
    unique,
  };
  for (const name of o.pathParams) params[name] = NON_RESOURCE_PARAMS[name] ?? (await fixtureFor(o.path, name)!(ctx));
  return fillPath(o.path, params);
}

// Public routes (the sign-in bootstrap) answer on any host by design: a host that is not a
// workspace gets `{ exists: false }`, so they have no host rule to check here.
// The SCIM routes take a SCIM token only and answer in SCIM's own shape: their walk (credentials,
// hosts, bodies, filters) is scim-walk.test.ts, ETags and providers' habits test/scim/.
const checked = operations.filter(
  (o) =>
    POLICY[o.operationId] && POLICY[o.operationId]!.access !== "public" && POLICY[o.operationId]!.access !== "scim",
);

describe.concurrent.each(checked)("$method $path ($operationId)", (o) => {
  const rule = POLICY[o.operationId];
  if (!rule) return;
  const path = fillPath(o.path, placeholders(o));
  const plain = { method: o.method };

  if (isTenantRoute(rule)) {
    it("is unknown on a host that only starts with the workspace slug or ends elsewhere (404)", async () => {
      const auth = rule.access === "tenantPublic" ? null : { apiKey: s.a.apiKey };
      for (const host of [
        `${s.a.slug}.evil.${TEST_DOMAIN}`,
        `${s.a.slug}.${TEST_DOMAIN}.evil.test`,
        `x.${s.a.slug}.${TEST_DOMAIN}`,
      ]) {
        expectError(await req(`https://${host}${path}`, { ...plain, auth }), 404, "not_found");
      }
    });
  }
  if (isAdminRoute(rule)) {
    it("is unknown on a host that only starts with admin (404), also with the admin cookie", async () => {
      for (const host of [
        `admin.${s.a.slug}.${TEST_DOMAIN}`,
        `admin.evil.${TEST_DOMAIN}`,
        `admin.${TEST_DOMAIN}.evil.test`,
      ]) {
        expectError(await req(`https://${host}${path}`, { ...plain, headers: { cookie: s.cookie } }), 404, "not_found");
      }
    });
  }

  if (rule.access === "data" || rule.access === "jwt") {
    it("answers an invalid API key and another workspace's API key with 401 and WWW-Authenticate", async () => {
      for (const key of [`ik_${"0".repeat(40)}`, s.b.apiKey]) {
        const res = await req(hostUrl(s.a.slug, path), { ...plain, auth: { apiKey: key } });
        expectError(res, 401, "unauthenticated");
        expect(res.headers.get("www-authenticate")).toBeTruthy();
      }
    });
  }

  if (o.queryParams.some((p) => p.name === "cursor")) {
    it("refuses a cursor of another list, an unsigned one and an edited one (400)", async () => {
      const own = authorized(rule);
      const listPath = await realPath(o);
      // The list's required query parameters (e.g. an availability window), sampled from the document.
      const required = o.queryParams
        .filter((p) => p.required && p.name !== "cursor")
        .map((p) => `&${p.name}=${encodeURIComponent(String(validSample(doc, p.schema)))}`)
        .join("");
      // Well-formed cursors of the right arity, signed for another list, or not signed at all.
      const foreign = (arity: number) =>
        withCursorScope({ list: `listCategories x/api/v1/categories`, secret: env.JWT_SECRET }, () =>
          encodeCursor(Array.from({ length: arity }, (_, i) => `k${i}`)),
        );
      for (const arity of [1, 2, 3]) {
        const signed = foreign(arity);
        for (const cursor of [signed, signed.split(".")[0]!, `${signed.slice(0, 4)}A${signed.slice(5)}`]) {
          const res = await req<Failure<unknown>>(
            hostUrl(own.host, `${listPath}?cursor=${encodeURIComponent(cursor)}${required}`),
            {
              ...own.opts,
              ...plain,
            },
          );
          expectError(res, 400, "validation_failed");
          expect(JSON.stringify(res.body.details)).toContain("cursor");
        }
      }
    });
  }

  if (o.body) {
    it("refuses __proto__ anywhere in the body (400), and answers 500 unknown keys with a bounded error", async () => {
      const own = authorized(rule);
      const valid = JSON.stringify(validSample(doc, o.body));
      const withProto = valid.startsWith("{}")
        ? '{"__proto__":{"polluted":1}}'
        : valid.replace(/^\{/, '{"__proto__":{"polluted":1},');
      const proto = await req<Failure<unknown>>(hostUrl(own.host, path), {
        ...own.opts,
        method: o.method,
        body: withProto,
      });
      expectError(proto, 400, "validation_failed");
      expect(JSON.stringify(proto.body.details)).toContain("__proto__");

      const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`unknown_${i}`, i]));
      const res = await req<Failure<unknown>>(hostUrl(own.host, path), { ...own.opts, method: o.method, body: many });
      expectError(res, 400, "validation_failed");
      expect(JSON.stringify(res.body).length).toBeLessThan(8_000);
      if (Array.isArray(res.body.details)) expect(res.body.details.length).toBeLessThanOrEqual(21);
    });
  }
});
