import { describe, expect, it } from "vitest";
import { createInventoryClient } from "../../client";
// As text, parsed here: imported as JSON, tsc typed the whole 130,000-line document (a tenth of its check).
import checkedInText from "../../client/openapi.json?raw";
import { runExample } from "../../examples/client-example";
import { workerFetch } from "../harness/contract";
import { call, createTenant } from "../harness/tenant";

describe("typed client (openapi-typescript + openapi-fetch)", () => {
  it("was generated from the document the Worker serves (run `npm run client:generate` after a route change)", async () => {
    const res = await call<{ servers?: unknown } & Record<string, unknown>>(
      "https://www.inventory.test/api/v1/openapi.json",
    );
    const { servers: _servers, ...served } = res.body;
    expect(served).toEqual(JSON.parse(checkedInText));
  });

  it("runs the example (list, create, check out with an Idempotency-Key, scan) against the Worker", async () => {
    const t = await createTenant();
    const api = createInventoryClient({
      baseUrl: t.base,
      apiKey: t.apiKey,
      fetch: (req) => workerFetch(req),
    });
    const result = await runExample(api);
    expect(result).toMatchObject({ listed: 0, replayed: true, scan: expect.any(String) });
    expect(result.checkedOutTo).toMatch(/^per_/);
    // It removed what it made: the asset is gone, out of the trash too, and no session is left.
    const item = await api.GET("/inventory-items/{inventoryItemId}", {
      params: { path: { inventoryItemId: result.assetId } },
    });
    expect(item.response.status).toBe(404);
    const trash = await api.GET("/trash", {});
    expect(trash.data?.items).toEqual([]);
    const sessions = await api.GET("/sessions", {});
    expect(sessions.data?.items).toEqual([]);
  });
});
