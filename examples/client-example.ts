/**
 * An integrator's script with the typed client: list, create, check out (retried safely with an
 * Idempotency-Key), start an inventory session and scan, then remove what it made. Run it:
 *
 *   npm start             # the local demo workspace, in another terminal
 *   npm run example       # or INVENTORY_URL=https://acme.example.com/api/v1 INVENTORY_API_KEY=ik_... npm run example
 *
 * (examples/run.mjs; on the local demo it dials `*.localhost` itself, see examples/local-fetch.mjs.)
 * test/client/example.test.ts runs `runExample` against the Worker, and CI runs `npm run example`
 * against `npm start` (a README walk-through), so a document that drifts from the code fails CI.
 */
import type { ApiPaths } from "../client/index.ts";
import type { Client } from "openapi-fetch";

export interface ExampleResult {
  listed: number;
  assetId: string;
  checkedOutTo: string;
  replayed: boolean;
  scan: string;
}

export async function runExample(api: Client<ApiPaths>, opts: { idempotencyKey?: string } = {}): Promise<ExampleResult> {
  const list = await api.GET("/inventory-items", { params: { query: { limit: 10 } } });
  if (list.error) throw new Error(`list: ${list.error.message}`);

  const created = await api.POST("/inventory-items", { body: { name: "MacBook Pro 14", serialNumber: "C02XYZ" } });
  if (created.error) throw new Error(`create: ${created.error.message}`);
  const assetId = created.data.id;

  const person = await api.POST("/people", { body: { name: "Ada Lovelace" } });
  if (person.error) throw new Error(`person: ${person.error.message}`);

  // A checkout retried after a network failure must not run twice: same Idempotency-Key, same body.
  const key = opts.idempotencyKey ?? crypto.randomUUID();
  const checkout = () =>
    api.POST("/inventory-items/{inventoryItemId}/checkout", {
      params: { path: { inventoryItemId: assetId }, header: { "idempotency-key": key } },
      body: { personId: person.data.id },
    });
  const first = await checkout();
  if (first.error) throw new Error(`checkout: ${first.error.message}`);
  const retry = await checkout();
  if (retry.error) throw new Error(`checkout retry: ${retry.error.message}`);

  const session = await api.POST("/sessions", { body: { name: "Quarterly audit", status: "active" } });
  if (session.error) throw new Error(`session: ${session.error.message}`);
  const scan = await api.POST("/sessions/{sessionId}/scan", {
    params: { path: { sessionId: session.data.id } },
    body: { itemId: assetId },
  });
  if (scan.error) throw new Error(`scan: ${scan.error.message}`);

  await cleanUp(api, { assetId, personId: person.data.id, sessionId: session.data.id });
  return {
    listed: list.data.items.length,
    assetId,
    checkedOutTo: first.data.assigneeId ?? "",
    replayed: retry.response.headers.get("idempotent-replayed") === "true",
    scan: scan.data.result,
  };
}

/**
 * Leaves the workspace as the example found it: the session cancelled and deleted, the asset
 * checked in, and the asset and person deleted and purged from the trash.
 */
async function cleanUp(api: Client<ApiPaths>, ids: { assetId: string; personId: string; sessionId: string }) {
  const steps = [
    () =>
      api.PATCH("/sessions/{sessionId}", {
        params: { path: { sessionId: ids.sessionId } },
        body: { status: "cancelled" },
      }),
    () => api.DELETE("/sessions/{sessionId}", { params: { path: { sessionId: ids.sessionId } } }),
    () =>
      api.POST("/inventory-items/{inventoryItemId}/checkin", { params: { path: { inventoryItemId: ids.assetId } } }),
    () => api.DELETE("/inventory-items/{inventoryItemId}", { params: { path: { inventoryItemId: ids.assetId } } }),
    () => api.DELETE("/people/{personId}", { params: { path: { personId: ids.personId } } }),
    () =>
      api.POST("/trash/permanent-delete", {
        body: {
          items: [
            { type: "asset", id: ids.assetId },
            { type: "person", id: ids.personId },
          ],
        },
      }),
  ];
  for (const step of steps) {
    const { error } = await step();
    if (error) throw new Error(`clean-up: ${error.message}`);
  }
}
