import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { describe, expect, it } from "vitest";
import { JSON_BODY_LIMIT } from "../../src/app";
import type { AppEnv } from "../../src/env";
import { onError, onNotFound } from "../../src/http/error-handler";
import { requestId } from "../../src/http/request-id";
import type { Category } from "../../src/modules/categories";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { workerFetch } from "../harness/contract";
import { createTenant, TEST_DOMAIN } from "../harness/tenant";
import { expectError, req } from "../security/harness";

/** Raw fetch for bodies `call()` would JSON-encode; the response parsed like `call()` does. */
async function raw<T = ErrorBody>(url: string, init: RequestInit) {
  const res = await workerFetch(new Request(url, init));
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep text
  }
  expect(res.status, `${init.method} ${url} answered ${res.status}: ${text.slice(0, 300)}`).toBeLessThan(500);
  return { status: res.status, body: body as T, headers: res.headers };
}

describe("error envelope", () => {
  it("answers malformed or non-object JSON with 400", async () => {
    const t = await createTenant();
    const headers = { authorization: `ApiKey ${t.apiKey}`, "content-type": "application/json" };
    for (const body of ['{"name": "Laptops"', "not json", ""]) {
      const res = await raw(`${t.base}/categories`, { method: "POST", headers, body });
      expectError(res, 400);
    }
    for (const body of ["null", "[]", '"Laptops"', "42"]) {
      expectError(await raw(`${t.base}/categories`, { method: "POST", headers, body }), 400, "validation_failed");
    }
    const list = await req<Page<Category>>(`${t.base}/categories`, { auth: { apiKey: t.apiKey } });
    expect(list.body.items.map((c: { name: string }) => c.name)).toEqual(["General"]);
  });

  it("answers a non-JSON content type on a JSON route with 415", async () => {
    const t = await createTenant();
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const res = await raw(`${t.base}/categories`, {
        method: "POST",
        headers: { authorization: `ApiKey ${t.apiKey}`, "content-type": type },
        body: '{"name":"Laptops"}',
      });
      expectError(res, 415, "unsupported_media_type");
    }
    // A body without any content type is not JSON either.
    const res = await raw(`${t.base}/categories`, {
      method: "POST",
      headers: { authorization: `ApiKey ${t.apiKey}` },
      body: new TextEncoder().encode('{"name":"Laptops"}'),
    });
    expectError(res, 415, "unsupported_media_type");
  });

  it(`answers a body over ${JSON_BODY_LIMIT} bytes with 413, with or without Content-Length`, async () => {
    const t = await createTenant();
    const big = JSON.stringify({ name: "x", description: "y".repeat(JSON_BODY_LIMIT) });
    const headers = { authorization: `ApiKey ${t.apiKey}`, "content-type": "application/json" };
    expectError(await raw(`${t.base}/categories`, { method: "POST", headers, body: big }), 413, "payload_too_large");
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 64 * 1024) controller.enqueue(bytes.slice(i, i + 64 * 1024));
        controller.close();
      },
    });
    expectError(
      await raw(`${t.base}/categories`, { method: "POST", headers, body: stream, duplex: "half" } as RequestInit),
      413,
      "payload_too_large",
    );
  });

  it("answers unknown routes with a 404 envelope on every kind of host", async () => {
    const t = await createTenant();
    for (const url of [
      `${t.base}/no-such-thing`,
      `https://admin.${TEST_DOMAIN}/api/v1/nope`,
      `https://${TEST_DOMAIN}/nope`,
      "https://localhost/api/v1/categories/x/y/z",
    ]) {
      expectError(await req(url, { auth: { apiKey: t.apiKey } }), 404, "not_found");
    }
    // A served path with another method is a 405 (test/platform/api-nits.test.ts).
    expectError(
      await req(`${t.base}/categories`, { method: "PUT", auth: { apiKey: t.apiKey }, body: {} }),
      405,
      "method_not_allowed",
    );
  });

  it("puts x-request-id on successes too, a fresh one per request", async () => {
    const t = await createTenant();
    const [a, b] = await Promise.all([
      req(`${t.base}/categories`, { auth: { apiKey: t.apiKey } }),
      req(`${t.base}/categories`, { auth: { apiKey: t.apiKey } }),
    ]);
    expect(a.status).toBe(200);
    expect(a.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });
});

describe("onError / onNotFound (a tiny app with the real handlers)", () => {
  function tinyApp() {
    const app = new Hono<AppEnv>();
    app.use("*", requestId);
    app.get("/boom", () => {
      throw new Error("SELECT secret FROM internals /srv/app.ts:42");
    });
    app.get("/reject", async () => {
      throw Object.assign(new TypeError("Cannot read properties of undefined (reading 'bind')"), {
        stack: "at secret.ts:1",
      });
    });
    app.get("/http", () => {
      throw new HTTPException(405, { message: "Method not allowed here" });
    });
    app.notFound(onNotFound);
    app.onError(onError);
    return app;
  }

  it("turns an unexpected exception into a 500 without internals", async () => {
    for (const path of ["/boom", "/reject"]) {
      const res = await tinyApp().request(`https://t.${TEST_DOMAIN}${path}`);
      const text = await res.text();
      expect(res.status).toBe(500);
      const body = JSON.parse(text);
      expect(body).toEqual({
        message: expect.any(String),
        code: "internal_error",
        requestId: expect.stringMatching(/^req_/),
      });
      expect(res.headers.get("x-request-id")).toBe(body.requestId);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(text).not.toMatch(/secret|internals|\.ts|bind|stack/i);
    }
  });

  it("maps Hono's HTTP errors and unknown routes to the envelope", async () => {
    const app = tinyApp();
    const http = await app.request(`https://t.${TEST_DOMAIN}/http`);
    expect(http.status).toBe(405);
    expect(await http.json()).toMatchObject({
      code: "method_not_allowed",
      requestId: http.headers.get("x-request-id"),
    });
    const missing = await app.request(`https://t.${TEST_DOMAIN}/nowhere`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: "not_found", requestId: missing.headers.get("x-request-id") });
  });
});
