import { beforeAll, describe, expect, it } from "vitest";
import { acceptsIdempotencyKey, ROUTE_POLICY, type RouteRule } from "../../src/access/policy";
import { idempotencyKeys } from "../../src/db/tenant/idempotency";
import { SAMPLE_BODIES } from "../harness/fixtures";
import {
  deref,
  fetchOpenApi,
  fillPath,
  type JsonSchema,
  type OpenApiDoc,
  operationsOf,
  type WalkedOperation,
} from "../harness/openapi";
import { adminCookie, userJwt } from "../harness/principals";
import { createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { expectError, hostUrl, req, unique } from "./harness";
import { validSample } from "./samples";
import { type WalkState, walkResources } from "./walk-fixtures";

/**
 * For every route: an answer that carries a secret (a key, token, signing secret,
 * ticket or credential URL) is never stored by `Idempotency-Key`. The policy table flags exactly
 * the operations whose documented success answer carries one, and a replay of each answers 409
 * `secret_shown_once` naming the resource, with nothing of the secret left in idempotency_keys.
 */
const doc = await fetchOpenApi();
const POLICY: Record<string, RouteRule> = ROUTE_POLICY;
const idempotent = operationsOf(doc).filter((o) => {
  const rule = POLICY[o.operationId];
  return rule !== undefined && acceptsIdempotencyKey(o.method, rule);
});

/** A field is a secret by its name, or by its documentation saying it is a credential or shown once. */
const SECRET_NAME = /^(secret|token|ticket|password|apiKey|accessToken|refreshToken)$/;
const SECRET_WORDING = /shown once|shown only (here|now|in this)|is the credential|carries (a|the|its) [\w' ]*secret/i;

function secretFields(d: OpenApiDoc, schema: JsonSchema | undefined, depth = 0): string[] {
  const s = deref(d, schema);
  if (!s || depth > 4) return [];
  const nested = [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap((x) =>
    secretFields(d, x, depth + 1),
  );
  const own = Object.entries(s.properties ?? {}).flatMap(([name, prop]) => {
    const p = deref(d, prop);
    const isSecret = SECRET_NAME.test(name) || SECRET_WORDING.test(p?.description ?? "");
    return isSecret ? [name] : secretFields(d, p, depth + 1);
  });
  return [...own, ...nested];
}

const secretsOf = (o: WalkedOperation) =>
  Object.entries(o.op.responses ?? {})
    .filter(([status]) => status.startsWith("2"))
    .flatMap(([, r]) => secretFields(doc, r.content?.["application/json"]?.schema));

const s = {} as WalkState;
beforeAll(async () => {
  s.t = await createTenant({ plan: "enterprise" });
  [s.jwt, s.cookie] = await Promise.all([userJwt(s.t), adminCookie()]);
});

describe("secret-bearing answers and Idempotency-Key", () => {
  it("the policy flags exactly the idempotent operations whose success answer carries a secret", () => {
    const carrying = idempotent.filter((o) => secretsOf(o).length > 0).map((o) => o.operationId);
    const flagged = idempotent.filter((o) => POLICY[o.operationId]?.issuesSecret).map((o) => o.operationId);
    expect(carrying.sort()).toEqual(flagged.sort());
    expect(flagged.length).toBeGreaterThanOrEqual(7);
  });

  describe.concurrent.each(idempotent.filter((o) => POLICY[o.operationId]?.issuesSecret))(
    "$method $path ($operationId)",
    (o) => {
      it("a replay answers 409 secret_shown_once and the secret is nowhere in idempotency_keys", async () => {
        const { params, ctx } = await walkResources(s, o);
        const body = SAMPLE_BODIES[o.operationId]?.(ctx) ?? (o.body ? validSample(doc, o.body) : undefined);
        const key = unique("secret");
        const opts = {
          method: o.method,
          auth: { jwt: s.jwt },
          headers: { "idempotency-key": key },
          ...(body === undefined ? {} : { body }),
        };
        const url = hostUrl(s.t.slug, fillPath(o.path, params));
        const first = await req<Record<string, unknown>>(url, opts);
        expect(first.status, JSON.stringify(first.body)).toBeLessThan(300);
        const again = await req<{ details: { resourceId?: string; originalStatus: number } }>(url, opts);
        expectError(again, 409, "secret_shown_once");
        expect(again.headers.get("idempotent-replayed")).toBe("true");
        expect(again.body.details.originalStatus).toBe(first.status);
        if (typeof first.body.id === "string") expect(again.body.details.resourceId).toBe(first.body.id);

        const stored = await (await dbOf(s.t)).select().from(idempotencyKeys).all();
        const row = stored.find((r) => r.key === key);
        expect(row?.state).toBe("done");
        const names = secretsOf(o);
        expect(names.length).toBeGreaterThan(0);
        for (const name of names) {
          const value = first.body[name];
          expect(typeof value, name).toBe("string");
          for (const r of stored) expect(JSON.stringify(r)).not.toContain(value);
        }
      });
    },
  );
});
