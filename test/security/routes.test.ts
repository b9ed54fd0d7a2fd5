import { beforeAll, describe, expect, it } from "vitest";
import { ROUTE_POLICY, type RouteRule } from "../../src/access/policy";
import { ALL_SCOPES, SCOPE_GROUPS } from "../../src/access/scopes";
import type { CreatedApiKey } from "../../src/modules/api-keys";
import type { ErrorBody } from "../../src/platform/schemas";
import {
  type FixtureContext,
  fixtureFor,
  NON_RESOURCE_PARAMS,
  prepareOperation,
  SAMPLE_BODIES,
} from "../harness/fixtures";
import { fetchOpenApi, fillPath, operationsOf, type WalkedOperation } from "../harness/openapi";
import { adminCookie, createUser, type TestUser, userJwt } from "../harness/principals";
import { type Auth, type CallOptions, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { expectError, expectedSecurity, hostUrl, req, unique, unknownIdLike } from "./harness";
import { malformedBody, UNKNOWN_FIELD, validSample } from "./samples";

/**
 * The shared security suite: walks EVERY operation of the served OpenAPI document and checks it
 * against its entry in the route-policy table (credentials, roles, plan, host), tenant isolation of
 * its path ids, and validation of its body and query. A new route is covered by being documented;
 * a new path parameter needs a fixture in test/harness/fixtures.ts (the suite fails until it has one).
 */

const doc = await fetchOpenApi();
const operations = operationsOf(doc);
const POLICY: Record<string, RouteRule> = ROUTE_POLICY;

/** The suite's workspaces: fixtures of this file, shared by its tests, never modified by them. */
const s = {} as {
  a: TestTenant;
  b: TestTenant;
  free: TestTenant;
  aJwt: string;
  bJwt: string;
  freeJwt: string;
  member: TestUser;
  /** The self-service role: refused everywhere the policy table does not mark `selfService`. */
  requester: TestUser;
  cookie: string;
  /** Per scope group: a key with every scope but that group's, and a key with only its `read`. */
  withoutGroup: Record<string, string>;
  readOnly: Record<string, string>;
};

beforeAll(async () => {
  // One after the other: concurrent provisioning can misreport a lost pool-database race as a slug conflict.
  const a = await createTenant({ plan: "enterprise" });
  const b = await createTenant({ plan: "enterprise" });
  const free = await createTenant({ plan: "free" });
  const [aJwt, bJwt, freeJwt, member, requester, cookie] = await Promise.all([
    userJwt(a),
    userJwt(b),
    userJwt(free),
    createUser(a, "member"),
    createUser(a, "requester"),
    adminCookie(),
  ]);
  Object.assign(s, { a, b, free, aJwt, bJwt, freeJwt, member, requester, cookie });
  const scopedKey = async (scopes: string[]) => {
    const res = await req<CreatedApiKey>(`${a.base}/api-keys`, {
      auth: { jwt: aJwt },
      body: { name: "scoped", scopes },
    });
    expect(res.status).toBe(201);
    return res.body.token as string;
  };
  s.withoutGroup = {};
  s.readOnly = {};
  for (const group of SCOPE_GROUPS) {
    s.withoutGroup[group] = await scopedKey(ALL_SCOPES.filter((x) => !x.startsWith(`${group}:`)));
    s.readOnly[group] = await scopedKey([`${group}:read`]);
  }
});

const isTenantRoute = (rule: RouteRule) =>
  rule.access === "tenantPublic" || rule.access === "data" || rule.access === "jwt";
const isAdminRoute = (rule: RouteRule) => rule.access === "admin" || rule.access === "adminPublic";

/** How an authorized caller reaches an operation: its host label and credentials. */
function authorized(rule: RouteRule, tenant: () => TestTenant, jwt: () => string): { host: string; opts: CallOptions } {
  if (isAdminRoute(rule))
    return { host: "admin", opts: rule.access === "admin" ? { headers: { cookie: s.cookie } } : {} };
  return { host: tenant().slug, opts: rule.access === "tenantPublic" ? { auth: null } : { auth: { jwt: jwt() } } };
}

function fixtureContext(params: Record<string, string>): FixtureContext {
  return {
    tenant: s.a,
    api: (path, opts = {}) => req(`${s.a.base}${path}`, { auth: { jwt: s.aJwt }, ...opts }),
    admin: (path, opts = {}) =>
      req(hostUrl("admin", `/api/v1${path}`), { ...opts, headers: { cookie: s.cookie, ...opts.headers } }),
    params,
    unique,
  };
}

/** Creates one resource per path parameter (in order, so nested fixtures see their parents). */
async function createPathResources(
  o: WalkedOperation,
): Promise<{ params: Record<string, string>; ctx: FixtureContext }> {
  const params: Record<string, string> = {};
  const ctx = fixtureContext(params);
  for (const name of o.pathParams) {
    if (name in NON_RESOURCE_PARAMS) {
      params[name] = NON_RESOURCE_PARAMS[name]!;
      continue;
    }
    const fixture = fixtureFor(o.path, name);
    if (!fixture) {
      throw new Error(
        `No fixture for path parameter '${name}' of ${o.operationId}: add one to PARAM_FIXTURES in test/harness/fixtures.ts (or to NON_RESOURCE_PARAMS if it is not a resource id)`,
      );
    }
    params[name] = await fixture(ctx);
  }
  return { params, ctx };
}

const placeholders = (o: WalkedOperation) =>
  Object.fromEntries(o.pathParams.map((p) => [p, NON_RESOURCE_PARAMS[p] ?? "zz_00000000000000000000000000"]));
const jsonOpts = (o: WalkedOperation, body: unknown): CallOptions =>
  body === undefined ? { method: o.method } : { method: o.method, body };

it("walks a document that has operations", () => {
  expect(operations.length).toBeGreaterThan(0);
});

/**
 * Every operation that changes an asset's custody (who holds it) or existence
 * (delete, restore, purge), whatever its group, needs `inventory-items:write` from an API key. A new
 * such route is added here; the walk below then proves the refusal against the running Worker.
 */
const CUSTODY_OR_EXISTENCE = [
  "createInventoryItem",
  "deleteInventoryItem",
  "restoreInventoryItem",
  "checkoutInventoryItem",
  "checkinInventoryItem",
  "bulkInventoryItems",
  "importInventoryItems",
  "checkoutKit",
  "checkinKit",
  "pickUpBooking",
  "returnBooking",
  "restoreTrashItems",
  "permanentlyDeleteTrashItems",
  // A deactivation checks the person's assets in (and returns their stock).
  "updatePerson",
  "bulkPeople",
  "importPeople",
];
it("every route that changes an asset's custody or existence needs inventory-items:write", () => {
  for (const id of CUSTODY_OR_EXISTENCE) {
    const rule = POLICY[id];
    expect(rule, id).toBeDefined();
    expect([rule!.scope, rule!.alsoScope], id).toContain("inventory-items:write");
  }
});

// Concurrent: the tests only read the shared workspaces and write their own fixture resources.
describe.concurrent.each(operations)("$method $path ($operationId)", (o) => {
  const rule = POLICY[o.operationId];

  it("has a route-policy entry that its documented security matches", () => {
    expect(rule, `${o.operationId} is not a key of ROUTE_POLICY (src/access/policy.ts)`).toBeDefined();
    expect(o.op.security ?? []).toEqual(expectedSecurity(rule!));
    // Every route API keys reach declares the scope it needs.
    if (rule!.access === "data") expect(rule!.scope, `${o.operationId} has no scope`).toBeDefined();
  });
  if (!rule) return;

  const path = fillPath(o.path, placeholders(o));
  const plain = { method: o.method };

  if (rule.access === "data" || rule.access === "jwt") {
    it("refuses a request without credentials (401)", async () => {
      expectError(await req(hostUrl(s.a.slug, path), { ...plain, auth: null }), 401, "unauthenticated");
    });
    it("refuses an API key sent as Bearer (401)", async () => {
      expectError(
        await req(hostUrl(s.a.slug, path), { ...plain, auth: { header: `Bearer ${s.a.apiKey}` } }),
        401,
        "unauthenticated",
      );
    });
    it("refuses a JWT of another workspace (401)", async () => {
      expectError(await req(hostUrl(s.a.slug, path), { ...plain, auth: { jwt: s.bJwt } }), 401, "unauthenticated");
    });
    if (rule.access === "jwt") {
      it("refuses a valid API key: JWT only (403)", async () => {
        expectError(await req(hostUrl(s.a.slug, path), { ...plain, auth: { apiKey: s.a.apiKey } }), 403, "forbidden");
      });
    }
    if (rule.scope) {
      const [group, level] = rule.scope.split(":") as [string, string];
      it(`refuses an API key without the '${group}' scopes (403 insufficient_scope)`, async () => {
        const res = await req<Failure<{ requiredScope: string }>>(hostUrl(s.a.slug, path), {
          ...plain,
          auth: { apiKey: s.withoutGroup[group]! },
        });
        expectError(res, 403, "insufficient_scope");
        expect(res.body.details.requiredScope).toBe(rule.scope);
      });
      if (level === "write") {
        it(`refuses a read-only '${group}:read' key (403 insufficient_scope)`, async () => {
          const res = await req<Failure<unknown>>(hostUrl(s.a.slug, path), {
            ...plain,
            auth: { apiKey: s.readOnly[group]! },
          });
          expectError(res, 403, "insufficient_scope");
          expect(res.body.details).toEqual({ requiredScope: rule.scope, grantedScopes: [`${group}:read`] });
        });
      } else {
        it(`lets a '${group}:read' key past the scope check`, async () => {
          const res = await req<ErrorBody | null>(hostUrl(s.a.slug, path), {
            ...plain,
            auth: { apiKey: s.readOnly[group]! },
          });
          expect(res.body?.code).not.toBe("insufficient_scope");
          expect([401, 403]).not.toContain(res.status);
        });
      }
    }
    if (rule.alsoScope) {
      const [group] = rule.alsoScope.split(":") as [string];
      it(`refuses an API key with every scope but '${group}' (403 insufficient_scope: ${rule.alsoScope})`, async () => {
        const res = await req<Failure<{ requiredScope: string }>>(hostUrl(s.a.slug, path), {
          ...plain,
          auth: { apiKey: s.withoutGroup[group]! },
        });
        expectError(res, 403, "insufficient_scope");
        expect(res.body.details.requiredScope).toBe(rule.alsoScope);
      });
    }
    if (rule.roles && !rule.roles.includes("member")) {
      it(`refuses a member: roles ${rule.roles.join(", ")} (403)`, async () => {
        expectError(await req(hostUrl(s.a.slug, path), { ...plain, auth: { jwt: s.member.jwt } }), 403, "forbidden");
      });
    }
    if (rule.selfService) {
      it("lets the self-service role (requester) past the guard", async () => {
        const res = await req<ErrorBody | null>(hostUrl(s.a.slug, path), { ...plain, auth: { jwt: s.requester.jwt } });
        expect([401, 403], JSON.stringify(res.body)).not.toContain(res.status);
      });
      // Past the guard, the handler narrows it to its own (src/http/self-service.ts): the fixtures are
      // the owner's, another person's, or not requestable, so none of them is the requester's to reach.
      if (o.pathParams.length > 0)
        it("narrows the self-service role (requester) to its own: a resource not its own is 404", async () => {
          const { params, ctx } = await createPathResources(o);
          await prepareOperation(o.operationId, o.method, fillPath(o.path, params), ctx);
          const body = SAMPLE_BODIES[o.operationId]?.(ctx) ?? (o.body ? validSample(doc, o.body) : undefined);
          expectError(
            await req(hostUrl(s.a.slug, fillPath(o.path, params)), {
              auth: { jwt: s.requester.jwt },
              ...jsonOpts(o, body),
            }),
            404,
            "not_found",
          );
        });
    } else {
      it("refuses the self-service role (requester) (403)", async () => {
        expectError(await req(hostUrl(s.a.slug, path), { ...plain, auth: { jwt: s.requester.jwt } }), 403, "forbidden");
      });
    }
    if (rule.feature) {
      it(`refuses a workspace whose plan lacks '${rule.feature}' (403 plan_required)`, async () => {
        expectError(
          await req(hostUrl(s.free.slug, path), { ...plain, auth: { jwt: s.freeJwt } }),
          403,
          "plan_required",
        );
      });
    }
  }

  if (isTenantRoute(rule)) {
    it("is unknown on an unknown workspace host and on the admin host (404)", async () => {
      const auth: Auth = rule.access === "tenantPublic" ? null : { apiKey: s.a.apiKey };
      const [unknownHost, adminHost] = await Promise.all([
        req(hostUrl(unique("nowhere"), path), { ...plain, auth }),
        req(hostUrl("admin", path), { ...plain, auth, headers: { cookie: s.cookie } }),
      ]);
      expectError(unknownHost, 404, "not_found");
      expectError(adminHost, 404, "not_found");
    });
  }

  if (rule.access === "admin") {
    it("refuses a request without the admin cookie, also with workspace credentials (401)", async () => {
      const [none, apiKey] = await Promise.all([
        req(hostUrl("admin", path), plain),
        req(hostUrl("admin", path), { ...plain, auth: { apiKey: s.a.apiKey } }),
      ]);
      expectError(none, 401, "unauthenticated");
      expectError(apiKey, 401, "unauthenticated");
    });
  }
  if (isAdminRoute(rule)) {
    it("does not exist on a workspace host (404)", async () => {
      expectError(
        await req(hostUrl(s.a.slug, path), { ...plain, auth: { jwt: s.aJwt }, headers: { cookie: s.cookie } }),
        404,
        "not_found",
      );
    });
  }

  // Not walked here: the SCIM routes take a SCIM token and nothing else (their isolation, another
  // workspace's token included, is scim-walk.test.ts), and a hand-over link's token is its
  // own credential, signed for its workspace (another's fails its signature: 403, test/handovers/link.test.ts).
  const ownCredential = rule.access === "scim" || o.path.includes("/handover-links/");
  if (o.pathParams.length > 0 && !ownCredential) {
    const title = isTenantRoute(rule)
      ? "answers 404 for another workspace's ids and for unknown ids, and serves its own"
      : "answers 404 for unknown ids and serves known ones";
    it(title, async () => {
      const { params, ctx } = await createPathResources(o);
      await prepareOperation(o.operationId, o.method, fillPath(o.path, params), ctx);
      const body = SAMPLE_BODIES[o.operationId]?.(ctx) ?? (o.body ? validSample(doc, o.body) : undefined);
      const own = authorized(
        rule,
        () => s.a,
        () => s.aJwt,
      );
      if (isTenantRoute(rule)) {
        // Tenant B, fully authorized on its own host, asks for tenant A's resources.
        const other = authorized(
          rule,
          () => s.b,
          () => s.bJwt,
        );
        expectError(
          await req(hostUrl(other.host, fillPath(o.path, params)), { ...other.opts, ...jsonOpts(o, body) }),
          404,
          "not_found",
        );
        if (rule.access === "data") {
          expectError(
            await req(hostUrl(s.b.slug, fillPath(o.path, params)), {
              auth: { apiKey: s.b.apiKey },
              ...jsonOpts(o, body),
            }),
            404,
            "not_found",
          );
        }
      }
      for (const name of o.pathParams.filter((p) => !(p in NON_RESOURCE_PARAMS))) {
        const unknown = fillPath(o.path, { ...params, [name]: unknownIdLike(params[name]!) });
        expectError(await req(hostUrl(own.host, unknown), { ...own.opts, ...jsonOpts(o, body) }), 404, "not_found");
      }
      // Positive control, last (it may delete): the owner reaches the resource with the same request,
      // so the 404s above are about ownership, not a bad fixture or sample body.
      const res = await req(hostUrl(own.host, fillPath(o.path, params)), { ...own.opts, ...jsonOpts(o, body) });
      expect(
        res.status < 400 || res.status === 409,
        `control request answered ${res.status}: ${JSON.stringify(res.body)} (fix the fixture or add SAMPLE_BODIES.${o.operationId})`,
      ).toBe(true);
    });
  }

  if (o.body) {
    const own = () =>
      authorized(
        rule,
        () => s.a,
        () => s.aJwt,
      );
    it("rejects a body with wrong types and an unknown field (400 with details)", async () => {
      const res = await req<Failure>(hostUrl(own().host, path), {
        ...own().opts,
        method: o.method,
        body: malformedBody(doc, o.body),
      });
      expectError(res, 400, "validation_failed");
      expect(res.body.details).toEqual(expect.any(Array));
      expect(res.body.details.length).toBeGreaterThan(0);
    });
    it("rejects an otherwise valid body with an unknown field (400)", async () => {
      const valid = validSample(doc, o.body) as Record<string, unknown>;
      const res = await req<ErrorBody>(hostUrl(own().host, path), {
        ...own().opts,
        method: o.method,
        body: { ...valid, [UNKNOWN_FIELD]: 1 },
      });
      expectError(res, 400, "validation_failed");
      expect(JSON.stringify(res.body.details)).toContain(UNKNOWN_FIELD);
    });
  }

  if (o.queryParams.some((p) => p.name === "limit")) {
    it("rejects limit above its maximum (400)", async () => {
      const own = authorized(
        rule,
        () => s.a,
        () => s.aJwt,
      );
      const res = await req<ErrorBody>(hostUrl(own.host, `${path}?limit=100000`), { ...own.opts, method: o.method });
      expectError(res, 400, "validation_failed");
      expect(JSON.stringify(res.body.details)).toContain("limit");
    });
  }
});
