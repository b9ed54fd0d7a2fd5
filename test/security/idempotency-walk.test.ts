import { beforeAll, describe, expect, it } from "vitest";
import { acceptsIdempotencyKey, ROUTE_POLICY, type RouteRule } from "../../src/access/policy";
import { prepareOperation, SAMPLE_BODIES } from "../harness/fixtures";
import { fetchOpenApi, fillPath, operationsOf, type WalkedOperation } from "../harness/openapi";
import { adminCookie, userJwt } from "../harness/principals";
import { createTenant } from "../harness/tenant";
import { hostUrl, req, unique } from "./harness";
import { validSample } from "./samples";
import { type WalkState, walkResources } from "./walk-fixtures";

/**
 * For every route: walks the OpenAPI document; each operation documents the
 * `Idempotency-Key` header exactly when the policy says it takes one (every POST with credentials
 * that does not only read), and each such route reached by API keys, called twice with one key,
 * answers the second time with the first status and body and `Idempotent-Replayed: true`.
 * (JWT-only POSTs such as logout act on the caller's own session; their replay is in
 * test/api-platform/idempotency.test.ts's kinds, and their header is checked here.)
 */
const doc = await fetchOpenApi();
const operations = operationsOf(doc);
const POLICY: Record<string, RouteRule> = ROUTE_POLICY;

const s = {} as WalkState;
beforeAll(async () => {
  s.t = await createTenant({ plan: "enterprise" });
  [s.jwt, s.cookie] = await Promise.all([userJwt(s.t), adminCookie()]);
});

const resourcesFor = (o: WalkedOperation) => walkResources(s, o);

const headerOf = (o: WalkedOperation) =>
  (o.op.parameters ?? []).some((p) => "in" in p && p.in === "header" && p.name.toLowerCase() === "idempotency-key");

describe.concurrent.each(operations)("$method $path ($operationId)", (o) => {
  const rule = POLICY[o.operationId];
  if (!rule) return; // the shared suite fails for it
  const accepts = acceptsIdempotencyKey(o.method, rule);

  it(`${accepts ? "documents" : "does not document"} Idempotency-Key`, () => {
    expect(headerOf(o)).toBe(accepts);
  });

  if (accepts && rule.access === "data") {
    it("replays the first answer to a retry with the same key", async () => {
      const { params, ctx } = await resourcesFor(o);
      const path = fillPath(o.path, params);
      // As the shared suite: resources of the path are put into the state the operation needs.
      if (o.pathParams.length > 0) await prepareOperation(o.operationId, o.method, path, ctx);
      const body = SAMPLE_BODIES[o.operationId]?.(ctx) ?? (o.body ? validSample(doc, o.body) : undefined);
      const opts = {
        method: o.method,
        auth: { apiKey: s.t.apiKey },
        headers: { "idempotency-key": unique("walk") },
        ...(body === undefined ? {} : { body }),
      };
      const first = await req(hostUrl(s.t.slug, path), opts);
      const again = await req(hostUrl(s.t.slug, path), opts);
      const what = `first ${first.status} ${JSON.stringify(first.body)}, again ${again.status}`;
      expect(first.headers.get("idempotent-replayed"), what).toBeNull();
      // A secret is shown once and never stored: its retry is told so instead of replayed.
      if (rule.issuesSecret && first.status < 300) {
        expect(again.status, what).toBe(409);
        expect((again.body as { code?: string }).code, what).toBe("secret_shown_once");
        return;
      }
      expect(again.headers.get("idempotent-replayed"), what).toBe("true");
      expect(again.status, what).toBe(first.status);
      expect(again.body, what).toEqual(first.body);
    });
  }
});
