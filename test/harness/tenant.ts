import { env } from "cloudflare:workers";
import type { ErrorDetail } from "../../src/platform/errors";
import type { ErrorBody } from "../../src/platform/schemas";
import type { Plan } from "../../src/tenancy/plans";
import { provisionTenant } from "../../src/tenancy/provision";
import { workerFetch } from "./contract";

export const TEST_DOMAIN = "inventory.test";
let counter = 0;

export interface TestTenant {
  id: string;
  slug: string;
  plan: Plan;
  apiKey: string;
  owner: { id: string; email: string; password: string };
  /** Base URL of the tenant's API, e.g. `https://t-ab12.inventory.test/api/v1`. */
  base: string;
}

/** A fresh workspace with its own pool database, owner and API key. */
export async function createTenant(opts: { plan?: Plan; slug?: string } = {}): Promise<TestTenant> {
  const slug =
    opts.slug ?? `t-${Date.now().toString(36)}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const password = "owner-password-123";
  const res = await provisionTenant(env, {
    slug,
    plan: opts.plan ?? "pro",
    ownerEmail: `owner@${slug}.example.com`,
    ownerPassword: password,
  });
  return {
    id: res.tenant.id,
    slug,
    plan: res.tenant.plan,
    apiKey: res.apiKey,
    owner: { id: res.owner.id, email: res.owner.email, password },
    base: `https://${slug}.${TEST_DOMAIN}/api/v1`,
  };
}

export type Auth = { apiKey: string } | { jwt: string } | { header: string } | null;

export interface CallOptions {
  method?: string;
  body?: unknown;
  auth?: Auth;
  headers?: Record<string, string>;
}

/** An error answer whose `details` a test reads: the validation list `{ path, message }[]` unless told otherwise. */
export type Failure<D = ErrorDetail[]> = ErrorBody & { details: D };

/**
 * The body type of a call that names none: `unknown`, so a test that reads the body names its
 * route's response type (`api<Category>(…)`, `api<Page<TimelineEntry>>(…)`, `api<Failure>(…)`).
 */
export type Untyped = unknown;

/** What `call()` answers; `T` is the body type the caller expects (the route's response type, e.g. `Category`). */
export interface CallResult<T = Untyped> {
  status: number;
  body: T;
  headers: Headers;
}

/** Calls the Worker exactly as a client would: full URL (the host picks the tenant), JSON in and out. */
export async function call<T = Untyped>(url: string, opts: CallOptions = {}): Promise<CallResult<T>> {
  const headers = new Headers(opts.headers);
  const auth = opts.auth;
  if (auth && "apiKey" in auth) headers.set("authorization", `ApiKey ${auth.apiKey}`);
  if (auth && "jwt" in auth) headers.set("authorization", `Bearer ${auth.jwt}`);
  if (auth && "header" in auth) headers.set("authorization", auth.header);
  let payload: BodyInit | undefined;
  if (opts.body !== undefined) {
    payload = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const res = await workerFetch(
    new Request(url, { method: opts.method ?? (opts.body !== undefined ? "POST" : "GET"), headers, body: payload }),
  );
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // non-JSON body (docs page): keep the text
  }
  // The body is JSON from the Worker; the caller names the type it expects (the route's response type).
  return { status: res.status, body: body as T, headers: res.headers };
}

/** Calls a tenant route with the tenant's API key unless told otherwise. */
export function api<T = Untyped>(t: TestTenant, path: string, opts: CallOptions = {}) {
  return call<T>(`${t.base}${path}`, { auth: { apiKey: t.apiKey }, ...opts });
}
