import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/platform/schemas";
import { fetchOpenApi } from "../harness/openapi";
import { api, call, createTenant } from "../harness/tenant";

/** 405 with Allow, one message for a bad limit or currency, unknown query parameters ignored. */

describe("a method a path does not serve", () => {
  it("PUT /inventory-items is a 405 whose Allow lists the served methods; an unknown path stays a 404", async () => {
    const t = await createTenant();
    const res = await api<ErrorBody>(t, "/inventory-items", { method: "PUT", body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
    expect(res.body).toMatchObject({ code: "method_not_allowed", requestId: expect.stringMatching(/^req_/) });
    expect(res.body.message).toContain("GET, HEAD, POST");
    const one = await api(t, "/inventory-items/ast_nope", { method: "PUT", body: {} });
    expect(one.status).toBe(405);
    expect(one.headers.get("allow")).toBe("GET, HEAD, PATCH, DELETE");
    const unknown = await api<ErrorBody>(t, "/no-such-thing", { method: "PUT", body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
  });

  it("every documented path answers a method it does not document with 405 and exactly its methods in Allow", async () => {
    const t = await createTenant();
    const origin = new URL(t.base).origin;
    const doc = await fetchOpenApi();
    const paths = Object.entries(doc.paths);
    expect(paths.length).toBeGreaterThan(100);
    for (let i = 0; i < paths.length; i += 16) {
      await Promise.all(
        paths.slice(i, i + 16).map(async ([path]) => {
          const url = origin + path.replace(/\{[^}]+\}/g, "x1");
          const all = paths
            .filter(([p]) => new RegExp(`^${p.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(new URL(url).pathname))
            .flatMap(([, o]) => Object.keys(o).map((m) => m.toUpperCase()));
          const other = ["PUT", "PATCH", "DELETE", "POST"].find((m) => !all.includes(m));
          if (!other) return; // every method served on this URL
          const res = await call<ErrorBody>(url, { method: other });
          expect(res.status, `${other} ${path}`).toBe(405);
          const allow = new Set(res.headers.get("allow")!.split(", "));
          // Every documented path the URL matches counts (`/users/invites` is also `/users/{userId}`).
          const concrete = new URL(url).pathname;
          const served = paths
            .filter(([p]) => new RegExp(`^${p.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(concrete))
            .flatMap(([, o]) => Object.keys(o).map((m) => m.toUpperCase()));
          const expected = new Set(served.includes("GET") ? [...served, "HEAD"] : served);
          expect(allow, path).toEqual(expected);
        }),
      );
    }
  });
});

describe("one clear message", () => {
  it("a bad limit, on any list, says what a limit is", async () => {
    const t = await createTenant();
    for (const path of ["/inventory-items", "/people", "/categories", "/locations", "/stock-items"]) {
      for (const limit of ["ten", "0", "101", "1.5", ""]) {
        const res = await api<ErrorBody>(t, `${path}?limit=${limit}`);
        expect(res.status, `${path} limit=${limit}`).toBe(400);
        expect(res.body.details).toEqual([
          { path: "query.limit", message: "limit must be a whole number from 1 to 100" },
        ]);
      }
    }
  });

  it("a bad currency gets one message", async () => {
    const t = await createTenant();
    for (const currency of ["EURO", "XYZ", "eur"]) {
      const res = await api<ErrorBody>(t, "/inventory-items", { body: { name: "Cam", purchaseCost: 10, currency } });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([
        { path: "body.currency", message: "must be a known ISO 4217 currency code, e.g. EUR" },
      ]);
    }
  });

  it("unknown query parameters are ignored; unknown body fields are a 400", async () => {
    const t = await createTenant();
    expect((await api(t, "/inventory-items?utm_source=mail&limit=5")).status).toBe(200);
    const res = await api<ErrorBody>(t, "/inventory-items", { body: { name: "Cam", colour: "red" } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
  });
});
