import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { ROUTE_POLICY } from "../../src/access/policy";
import { buildApp } from "../../src/app";
import { APP_FILES, APP_PAGES } from "../../src/modules/field-app";
import { fetchOpenApi, operationsOf, toHonoPath } from "../harness/openapi";
import { call } from "../harness/tenant";

const doc = await fetchOpenApi();
const operations = operationsOf(doc);
const SCIM_ERROR_REF = "#/components/schemas/ScimError";
const ERROR_REF = "#/components/schemas/Error";
/** Served by the app itself, not API operations. */
// Not API operations: the bare URL's pointer, the document and its reference page, and the browser
// pages outside the API (UI routes): the field app's pages and files, the SSO entry point.
const NOT_OPERATIONS = new Set([
  "/",
  "/api/v1/openapi.json",
  "/api/v1/docs",
  "/api/v1/docs/scalar.js",
  "/auth/sso-login",
  ...APP_PAGES.map((p) => p.path),
  ...Object.keys(APP_FILES),
]);

describe("GET /api/v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document (@readme/openapi-parser)", async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    // validate() dereferences in place: give it a copy.
    const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0]);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  it("the validator rejects a broken document (so the check above can fail)", async () => {
    const noVersion = structuredClone(doc) as unknown as { info: { version?: string } };
    delete noVersion.info.version;
    expect((await validate(noVersion as Parameters<typeof validate>[0])).valid).toBe(false);
    // A path parameter the operation does not declare (beyond what the JSON schema can check).
    const undeclared = structuredClone(doc) as unknown as { paths: Record<string, unknown> };
    undeclared.paths["/api/v1/nowhere/{nowhereId}"] = {
      get: { operationId: "nowhere", responses: { 200: { description: "ok" } } },
    };
    expect((await validate(undeclared as Parameters<typeof validate>[0])).valid).toBe(false);
  });

  it("declares the ApiKey, Bearer and AdminCookie security schemes", () => {
    expect(doc.components.securitySchemes).toMatchObject({
      ApiKey: { type: "apiKey", in: "header", name: "Authorization" },
      Bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
      AdminCookie: { type: "apiKey", in: "cookie" },
    });
    expect(doc.components.schemas?.Error).toMatchObject({
      required: expect.arrayContaining(["message", "code", "requestId"]),
    });
  });

  it("documents every mounted route, and nothing that is not mounted", () => {
    const mounted = new Set(
      buildApp()
        .routes.filter((r) => r.method !== "ALL" && !NOT_OPERATIONS.has(r.path))
        .map((r) => `${r.method} ${r.path}`),
    );
    const documented = new Set(operations.map((o) => `${o.method} ${toHonoPath(o.path)}`));
    expect(
      [...mounted].filter((r) => !documented.has(r)),
      "mounted but not documented",
    ).toEqual([]);
    expect(
      [...documented].filter((r) => !mounted.has(r)),
      "documented but not mounted",
    ).toEqual([]);
    expect(mounted.size).toBeGreaterThan(0);
  });

  it("documents every operation of the route-policy table (no dead policy entries)", () => {
    const documented = new Set(operations.map((o) => o.operationId));
    expect(Object.keys(ROUTE_POLICY).filter((id) => !documented.has(id))).toEqual([]);
  });

  it("has unique operationIds", () => {
    const ids = operations.map((o) => o.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  describe.each(operations)("$method $path", (o) => {
    it("has an operationId, a summary and tags", () => {
      expect(o.op.operationId).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(o.op.summary?.trim()).toBeTruthy();
      expect(o.op.tags?.length).toBeGreaterThan(0);
    });

    it("documents a success response and its error responses with the Error schema", () => {
      const statuses = Object.keys(o.op.responses ?? {});
      // 101: the WebSocket upgrade of GET /notifications/realtime is its success response;
      // 302: the SSO redirect helpers'.
      expect(statuses.some((s) => /^(2\d\d|101|302)$/.test(s))).toBe(true);
      const errors = statuses.filter((s) => /^[45]\d\d$/.test(s));
      expect(errors).toContain("500");
      if (o.op.requestBody || o.op.parameters?.length) expect(errors).toContain("400");
      if (o.op.security?.length) expect(errors).toContain("401");
      if (o.op.requestBody) expect(errors).toEqual(expect.arrayContaining(["413", "415"]));
      // The SCIM routes answer errors in SCIM's own shape and media type (RFC 7644 §3.12).
      const scim = o.path.startsWith("/scim/v2/");
      for (const status of errors) {
        const content = o.op.responses![status]!.content?.[scim ? "application/scim+json" : "application/json"];
        expect(content?.schema?.$ref, `${status} response`).toBe(scim ? SCIM_ERROR_REF : ERROR_REF);
      }
    });
  });
});

describe("GET /api/v1/docs", () => {
  it("serves an HTML reference page that loads the document", async () => {
    const res = await call("https://docs.inventory.test/api/v1/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.body).toEqual(expect.stringContaining("/api/v1/openapi.json"));
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("loads its script from this Worker (the pinned npm package), never from a CDN, so it works offline", async () => {
    const page = await call("https://docs.inventory.test/api/v1/docs");
    const scripts = [...String(page.body).matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(["/api/v1/docs/scalar.js"]);
    expect(String(page.body)).not.toMatch(/https?:\/\/(cdn|unpkg|fonts)\./);
    const script = await call("https://docs.inventory.test/api/v1/docs/scalar.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/javascript/);
    expect(String(script.body).length).toBeGreaterThan(100_000);
  });
});
