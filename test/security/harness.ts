import { expect } from "vitest";
import type { RouteRule } from "../../src/access/policy";
import type { ErrorBody } from "../../src/platform/schemas";
import type { Untyped } from "../harness/tenant";
import { type CallOptions, type CallResult, call, TEST_DOMAIN } from "../harness/tenant";

/** Every request of the security suites goes through here: none of them may ever answer 5xx. */
export async function req<T = Untyped>(url: string, opts: CallOptions = {}) {
  const res = await call<T>(url, opts);
  expect(res.status, `${opts.method ?? "GET"} ${url} answered ${res.status}: ${JSON.stringify(res.body)}`).toBeLessThan(
    500,
  );
  return res;
}

/** The one error envelope, with the status and (optionally) the code, and requestId = x-request-id. */
export function expectError(res: CallResult<unknown>, status: number, code?: string) {
  const what = `answered ${res.status}: ${JSON.stringify(res.body)}`;
  expect(res.status, what).toBe(status);
  expect(res.body, what).toMatchObject({
    message: expect.any(String),
    code: code ?? expect.any(String),
    requestId: expect.stringMatching(/^req_/),
  });
  expect(res.headers.get("x-request-id")).toBe((res.body as ErrorBody).requestId);
}

/** What `defineRoute` must have written into the operation's `security` for this rule. */
export function expectedSecurity(rule: RouteRule): Record<string, string[]>[] {
  if (rule.access === "data")
    return [{ ApiKey: [rule.scope, rule.alsoScope].filter((s) => s !== undefined) }, { Bearer: [] }];
  if (rule.access === "jwt") return [{ Bearer: [] }];
  if (rule.access === "admin") return [{ AdminCookie: [] }];
  if (rule.access === "scim") return [{ ScimToken: [] }];
  return [];
}

export const hostUrl = (label: string, path: string) => `https://${label}.${TEST_DOMAIN}${path}`;

let seq = 0;
export const unique = (label: string) => `${label}-${Date.now().toString(36)}-${(seq++).toString(36)}`;

/** An id of the same shape that names nothing: same prefix, different body. */
export function unknownIdLike(id: string): string {
  const cut = id.lastIndexOf("_");
  const prefix = cut >= 0 ? id.slice(0, cut + 1) : "";
  return `${prefix}${"0".repeat(Math.max(8, id.length - prefix.length))}`;
}
