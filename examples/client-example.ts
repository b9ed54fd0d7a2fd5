/**
 * An integrator's script with the typed client: list, create, check out (retried safely with an
 * Idempotency-Key), start an inventory session and scan. Run it against a workspace:
 *
 *   INVENTORY_URL=https://acme.example.com/api/v1 INVENTORY_API_KEY=ik_... npx tsx examples/client-example.ts
 *
 * test/client/example.test.ts runs `runExample` against the Worker, so a document that drifts from
 * the code fails CI.
 */
import { createInventoryClient, type ApiPaths } from "../client";
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

  return {
    listed: list.data.items.length,
    assetId,
    checkedOutTo: first.data.assigneeId ?? "",
    replayed: retry.response.headers.get("idempotent-replayed") === "true",
    scan: scan.data.result,
  };
}

// As a script (not when imported by the test).
const env = (globalThis as { process?: { env: Record<string, string | undefined>; argv: string[] } }).process;
if (env?.argv[1]?.endsWith("client-example.ts") && env.env.INVENTORY_URL && env.env.INVENTORY_API_KEY) {
  const api = createInventoryClient({ baseUrl: env.env.INVENTORY_URL, apiKey: env.env.INVENTORY_API_KEY });
  console.log(await runExample(api));
}
