import { describe, expect, it } from "vitest";
import { checkContract } from "../harness/contract";
import { fetchOpenApi, type JsonSchema, operationsOf } from "../harness/openapi";
import { api, createTenant } from "../harness/tenant";

/**
 * The served document as third-party contract tools read it (Portman, Newman, Ajv, Spectral):
 * every schema is one a JSON Schema validator can satisfy, every answer the server gives is
 * documented, and the root carries what linters ask for. The answers themselves are checked
 * against it by test/harness/contract.ts in every integration test.
 */

const doc = await fetchOpenApi();
const operations = operationsOf(doc);

/** Every schema node of the document, with its JSON pointer. */
function* schemaNodes(node: unknown, path: string): Generator<[string, JsonSchema]> {
  if (!node || typeof node !== "object") return;
  if (!Array.isArray(node)) yield [path, node as JsonSchema];
  for (const [k, v] of Object.entries(node)) yield* schemaNodes(v, `${path}/${k}`);
}

describe("the served OpenAPI document", () => {
  it("expresses nullable references as anyOf [$ref, null], never allOf [$ref, {type: [..., null]}]", () => {
    const broken: string[] = [];
    for (const [path, s] of schemaNodes(doc, "#")) {
      const parts = s.allOf ?? [];
      const nullable = parts.some((p) => Array.isArray(p.type) && p.type.includes("null"));
      if (parts.some((p) => p.$ref) && nullable) broken.push(path);
    }
    expect(broken).toEqual([]);
  });

  it("names every tag it uses at the root, each with a description, and has info.contact and info.license", () => {
    const root = (doc as unknown as { tags?: { name: string; description?: string }[] }).tags ?? [];
    const used = new Set(operations.flatMap((o) => o.op.tags ?? []));
    expect([...used].filter((t) => !root.some((r) => r.name === t))).toEqual([]);
    expect(root.filter((t) => !t.description)).toEqual([]);
    const info = (doc as unknown as { info: { contact?: object; license?: { name?: string } } }).info;
    expect(info.contact).toBeTruthy();
    expect(info.license?.name).toBeTruthy();
  });

  it("points at no document its readers do not have: no 'SPEC <n>' and no 'issue <n>' anywhere", () => {
    // A reader of the document has the docs pages, not the specification or the tracker: text states
    // the rule itself. Keys are walked too, so nothing of the document escapes the check.
    const pointer = /\bSPEC \d|\bissue \d/i;
    const found: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (typeof node === "string") {
        if (pointer.test(node)) found.push(`${path}: ${node}`);
      } else if (node && typeof node === "object") {
        for (const [k, v] of Object.entries(node)) {
          if (pointer.test(k)) found.push(`${path} (key): ${k}`);
          walk(v, `${path}/${k}`);
        }
      }
    };
    walk(doc, "#");
    expect(found).toEqual([]);
  });

  it("documents 429 with Retry-After on every throttled or rate-limited route, and WWW-Authenticate on 401s", () => {
    const missing: string[] = [];
    for (const { operationId, op } of operations) {
      const responses = (op.responses ?? {}) as Record<string, { headers?: Record<string, unknown> }>;
      if (responses["429"] && !responses["429"].headers?.["Retry-After"]) missing.push(`${operationId} 429`);
      if (responses["401"] && !responses["401"].headers?.["WWW-Authenticate"]) missing.push(`${operationId} 401`);
    }
    for (const id of ["login", "acceptInvite", "adminLogin"]) {
      const op = operations.find((o) => o.operationId === id);
      if (!op?.op.responses?.["429"]) missing.push(`${id} has no 429`);
    }
    expect(missing).toEqual([]);
  });

  it("declares X-Request-Id on every response of every operation, once, as a referenced component", () => {
    const components = (doc as unknown as { components: { headers?: Record<string, { required?: boolean }> } })
      .components.headers;
    expect(components?.RequestId?.required).toBe(true);
    const missing: string[] = [];
    for (const { operationId, op } of operations) {
      for (const [status, r] of Object.entries(op.responses ?? {}) as [string, { headers?: Record<string, unknown> }][])
        if (JSON.stringify(r.headers?.["X-Request-Id"]) !== '{"$ref":"#/components/headers/RequestId"}')
          missing.push(`${operationId} ${status}`);
    }
    expect(missing).toEqual([]);
  });

  it("declares the cookies, caching and file-safety headers of the routes that send them", () => {
    const headersOf = (id: string, status: string) =>
      Object.keys(
        (operations.find((o) => o.operationId === id)?.op.responses?.[status] as { headers?: object } | undefined)
          ?.headers ?? {},
      );
    const cookie = [
      ["login", "200"],
      ["refreshToken", "200"],
      ["logout", "204"],
      ["adminLogin", "200"],
      ["adminLogout", "204"],
      ["ssoLogin", "302"],
      ["socialLogin", "302"],
      ["samlCallback", "303"],
      ["samlCallback", "401"],
      ["oidcCallback", "303"],
    ];
    for (const [id, status] of cookie) expect(headersOf(id!, status!), `${id} ${status}`).toContain("Set-Cookie");
    for (const id of ["getCalendarFeed", "viewObject", "exportInventoryItems", "exportPeople"])
      expect(headersOf(id, "200"), id).toContain("Cache-Control");
    for (const status of ["200", "304"])
      expect(headersOf("viewObject", status)).toEqual(
        expect.arrayContaining(["ETag", "Cache-Control", "X-Content-Type-Options", "Content-Security-Policy"]),
      );
  });

  it("gives every webhooks entry an operationId of its own, apart from every route's", () => {
    const hooks = (doc as unknown as { webhooks: Record<string, { post?: { operationId?: string } }> }).webhooks;
    const ids = Object.values(hooks).map((h) => h.post?.operationId);
    expect(ids.length).toBeGreaterThan(30);
    expect(ids.filter((id) => !id)).toEqual([]);
    const all = [...ids, ...operations.map((o) => o.operationId)];
    expect(all.filter((id, i) => all.indexOf(id) !== i)).toEqual([]);
    expect(hooks["asset.checked_out"]?.post?.operationId).toBe("onAssetCheckedOut");
  });
});

describe("the contract check of the harness", () => {
  it("refuses a body that leaves its schema, an undocumented status and an undeclared header", async () => {
    const t = await createTenant();
    const url = `${t.base}/categories`;
    const req = () => new Request(url, { headers: { authorization: `ApiKey ${t.apiKey}` } });
    const page = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
    await expect(checkContract(req(), page({ items: [], nextCursor: null }))).resolves.toBeUndefined();
    await expect(checkContract(req(), page({ items: "none" }))).rejects.toThrow(/leaves its schema/);
    await expect(checkContract(req(), page({ message: "x" }, 418))).rejects.toThrow(/does not document/);
    await expect(
      checkContract(req(), page({ items: [], nextCursor: null }, 200, { location: "/elsewhere" })),
    ).rejects.toThrow(/does not declare/);
    // Every header counts, not a list of meaningful ones: a cookie, a cache rule, anything new.
    for (const header of ["set-cookie", "cache-control", "x-something-new"])
      await expect(checkContract(req(), page({ items: [], nextCursor: null }, 200, { [header]: "x" }))).rejects.toThrow(
        new RegExp(`\`${header}\` header that listCategories's 200 response does not declare`),
      );
    // Declared (the request id, the limiter's policy) and transport headers pass.
    await expect(
      checkContract(
        req(),
        page({ items: [], nextCursor: null }, 200, { "x-request-id": "req_1", "ratelimit-policy": "x", date: "now" }),
      ),
    ).resolves.toBeUndefined();
    const html = new Response("<p>hi</p>", { headers: { "content-type": "text/html" } });
    await expect(checkContract(req(), html)).rejects.toThrow(/text\/html/);
    // The real answer passes (call() checks it too).
    expect((await api(t, "/categories")).status).toBe(200);
  });

  it("accepts an ad-hoc maintenance completion's null schedule (the nullable reference validates)", async () => {
    const t = await createTenant();
    const item = await api<{ id: string }>(t, "/inventory-items", { body: { name: "Drill" } });
    const log = await api<{ schedule: unknown }>(t, "/maintenance/logs", {
      body: { itemId: item.body.id, type: "repair", completedDate: new Date(Date.now() - 3_600_000).toISOString() },
    });
    expect(log.status).toBe(201);
    expect(log.body.schedule).toBeNull();
  });
});
