import { beforeAll, describe, expect, it } from "vitest";
import { ROUTE_POLICY, type RouteRule } from "../../src/access/policy";
import { fetchOpenApi, fillPath, operationsOf, type WalkedOperation } from "../harness/openapi";
import { adminCookie, userJwt } from "../harness/principals";
import { scimToken } from "../harness/scim";
import { type CallOptions, type CallResult, createTenant, TEST_DOMAIN, type TestTenant } from "../harness/tenant";
import { hostUrl, req } from "./harness";

/**
 * The security walk of the SCIM routes (docs/scim.md): every operation the document serves under
 * /scim/v2, read from the document (a new SCIM route is walked by being documented), against the
 * credentials it must refuse, the hosts it must not answer on and the bodies and filters it must
 * refuse, always in SCIM's own error shape (RFC 7644 section 3.12) as application/scim+json. The
 * generic walks (routes.test.ts, hardening.test.ts) expect the API's envelope, so they leave these
 * routes to this file.
 */

const doc = await fetchOpenApi();
const POLICY: Record<string, RouteRule> = ROUTE_POLICY;
const operations = operationsOf(doc).filter((o) => o.path.startsWith("/scim/v2/"));
const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

const s = {} as {
  a: TestTenant;
  b: TestTenant;
  token: string;
  revoked: string;
  bToken: string;
  jwt: string;
  cookie: string;
};

beforeAll(async () => {
  const a = await createTenant();
  const b = await createTenant();
  const jwt = await userJwt(a);
  const [token, revoked, bToken, cookie] = await Promise.all([scimToken(a), scimToken(a), scimToken(b), adminCookie()]);
  const listed = await req<{ items: { id: string; prefix: string }[] }>(`${a.base}/scim-tokens`, { auth: { jwt } });
  const revokedId = listed.body.items.find((t) => revoked.startsWith(t.prefix))!.id;
  expect((await req(`${a.base}/scim-tokens/${revokedId}`, { method: "DELETE", auth: { jwt } })).status).toBe(204);
  Object.assign(s, { a, b, token, revoked, bToken, jwt, cookie });
});

/** The SCIM error: status as a string, the scimType when one is named, content type and request id. */
function expectScimError(res: CallResult<unknown>, status: number, scimType?: string | string[]) {
  const what = `answered ${res.status} ${res.headers.get("content-type")}: ${JSON.stringify(res.body)}`;
  expect(res.status, what).toBe(status);
  expect(res.headers.get("content-type"), what).toContain("application/scim+json");
  expect(res.body, what).toMatchObject({ schemas: [ERROR_SCHEMA], status: String(status), detail: expect.any(String) });
  expect(res.headers.get("x-request-id"), what).toMatch(/^req_/);
  const got = (res.body as { scimType?: string }).scimType;
  if (typeof scimType === "string") expect(got, what).toBe(scimType);
  if (Array.isArray(scimType)) expect(scimType, what).toContain(got);
}

const placeholder = (o: WalkedOperation) =>
  fillPath(o.path, Object.fromEntries(o.pathParams.map((p) => [p, "zz_00000000000000000000000000"])));
const hasBody = (o: WalkedOperation) => Boolean(o.op.requestBody?.content?.["application/scim+json"]);
const SCIM_JSON = { "content-type": "application/scim+json" };

/** A request to the operation on `host` (a workspace slug or a whole host name), with a `{}` body where it takes one. */
function send(o: WalkedOperation, host: string, opts: CallOptions = {}) {
  const url = host.includes(".") ? `https://${host}${placeholder(o)}` : hostUrl(host, placeholder(o));
  return req(url, {
    method: o.method,
    ...(hasBody(o) ? { body: {} } : {}),
    ...opts,
    headers: { ...(hasBody(o) ? SCIM_JSON : {}), ...opts.headers },
  });
}

describe("the SCIM routes in the document", () => {
  it("are all SCIM routes in the policy table, and the walk has them all", () => {
    expect(operations.length).toBeGreaterThanOrEqual(15);
    for (const o of operations) expect(POLICY[o.operationId]?.access, o.operationId).toBe("scim");
    const scimIds = Object.entries(POLICY)
      .filter(([, r]) => r.access === "scim")
      .map(([id]) => id);
    expect(operations.map((o) => o.operationId).sort()).toEqual(scimIds.sort());
  });
});

describe.concurrent.each(operations)("$method $path ($operationId)", (o) => {
  it("refuses every credential but the workspace's own live SCIM token (401, SCIM shape, WWW-Authenticate)", async () => {
    const refused: [string, CallOptions][] = [
      ["no credentials", { auth: null }],
      ["a revoked SCIM token", { auth: { header: `Bearer ${s.revoked}` } }],
      ["another workspace's SCIM token", { auth: { header: `Bearer ${s.bToken}` } }],
      ["a SCIM token with another scheme", { auth: { header: `ApiKey ${s.token}` } }],
      ["an unknown SCIM-shaped token", { auth: { header: `Bearer scim_${"0".repeat(40)}` } }],
      ["the workspace's API key", { auth: { apiKey: s.a.apiKey } }],
      ["the workspace's API key as Bearer", { auth: { header: `Bearer ${s.a.apiKey}` } }],
      ["the owner's JWT", { auth: { jwt: s.jwt } }],
      ["the platform admin's cookie", { auth: null, headers: { cookie: s.cookie } }],
      ["an empty Bearer", { auth: { header: "Bearer " } }],
    ];
    for (const [what, opts] of refused) {
      const res = await send(o, s.a.slug, opts);
      expectScimError(res, 401);
      expect(res.headers.get("www-authenticate"), what).toContain("Bearer");
    }
  });

  it("refuses the right token on another workspace's host (401) without naming the other workspace", async () => {
    const res = await send(o, s.b.slug, { auth: { header: `Bearer ${s.token}` } });
    expectScimError(res, 401);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(s.a.slug);
    expect(text).not.toContain(s.a.id);
  });

  it("is unknown on hosts that only start with the workspace slug or end elsewhere (404, SCIM shape)", async () => {
    for (const host of [
      `${s.a.slug}.evil.${TEST_DOMAIN}`,
      `${s.a.slug}.${TEST_DOMAIN}.evil.test`,
      `x.${s.a.slug}.${TEST_DOMAIN}`,
      `admin.${TEST_DOMAIN}`,
      `no-such-workspace-${s.a.slug}.${TEST_DOMAIN}`,
    ]) {
      const res = await send(o, host, { auth: { header: `Bearer ${s.token}` } });
      expectScimError(res, 404);
      expect(JSON.stringify(res.body)).not.toContain(s.a.id);
    }
  });

  if (hasBody(o)) {
    it("refuses bodies that are too big, set a prototype, are not JSON or not an object (4xx, SCIM shape)", async () => {
      const own = (body: unknown, headers: Record<string, string> = SCIM_JSON) =>
        send(o, s.a.slug, { auth: { header: `Bearer ${s.token}` }, body, headers });
      const schemas = JSON.stringify(["urn:ietf:params:scim:schemas:core:2.0:User"]);
      expectScimError(await own(`{"__proto__":{"polluted":1},"schemas":${schemas}}`), 400, "invalidSyntax");
      expectScimError(
        await own(`{"schemas":${schemas},"name":{"constructor":{"__proto__":{"polluted":1}}}}`),
        400,
        "invalidSyntax",
      );
      const wide = Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [`k${i}`, i]));
      expectScimError(await own(wide), 400, "invalidSyntax");
      expectScimError(await own({ schemas: ["x"], filler: "x".repeat(1_100_000) }), 413);
      expectScimError(await own('{"userName": '), 400, "invalidSyntax");
      expectScimError(await own("[1,2,3]"), 400, "invalidSyntax");
      expectScimError(await own("{}", { "content-type": "text/plain" }), 415);
      expect(({} as { polluted?: number }).polluted).toBeUndefined();
    });
  }

  if (o.queryParams.some((p) => p.name === "filter")) {
    it("refuses bad filters (400 invalidFilter) and bad paging (400 invalidValue)", async () => {
      const list = (query: string) =>
        req(`${hostUrl(s.a.slug, o.path)}?${query}`, { auth: { header: `Bearer ${s.token}` } });
      for (const filter of [
        "userName eq",
        'userName zz "a"',
        '((userName eq "a")',
        'emails[type eq "work"',
        'userName eq "a" and',
        "eq",
        `userName eq "${"a".repeat(2_100)}"`,
      ])
        expectScimError(await list(`filter=${encodeURIComponent(filter)}`), 400, "invalidFilter");
      for (const query of ["startIndex=abc", "count=1.5", "count=ten"])
        expectScimError(await list(query), 400, "invalidValue");
      // RFC 7644 section 3.4.2.4: a startIndex below 1 means 1, a negative count 0, and a count
      // above the maximum the maximum; none of them is an error.
      for (const [query, page] of [
        ["startIndex=0", { startIndex: 1 }],
        ["startIndex=-5&count=-1", { startIndex: 1, itemsPerPage: 0 }],
        ["count=100000", { startIndex: 1 }],
      ] as const) {
        const res = await list(query);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject(page);
      }
    });
  }
});
