import { env } from "cloudflare:workers";
import type { InventorySession, SessionObjectApi } from "../../src/domain/inventory-session";
import type { Location } from "../../src/modules/locations";
import type { ScanOutcome, Session } from "../../src/modules/sessions";
import { nowIso } from "../../src/platform/clock";
import { newId } from "../../src/platform/ids";
import { defaults } from "./rows";
import { api, type TestTenant } from "./tenant";
import { rawDbOf } from "./tenant-db";

export interface SeededAsset {
  id: string;
  name: string;
  uniqueTag: string;
  locationId: string;
  categoryId: string;
}

let batch = 0;

/**
 * `n` assets written straight into the tenant database (one JSON parameter per statement, so any
 * count stays under D1's bound-parameter cap). Tags are `<prefix>-<batch>-<i>`, unique per workspace.
 */
export async function seedAssets(
  t: TestTenant,
  n: number,
  opts: { locationId?: string; categoryId?: string; prefix?: string; status?: string } = {},
): Promise<SeededAsset[]> {
  const refs =
    opts.locationId && opts.categoryId
      ? { locationId: opts.locationId, categoryId: opts.categoryId }
      : { ...(await defaults(t)), ...stripUndefined(opts) };
  const b = ++batch;
  const rows: SeededAsset[] = Array.from({ length: n }, (_, i) => ({
    id: newId("asset"),
    name: `Asset ${b}-${i}`,
    uniqueTag: `${opts.prefix ?? "TAG"}-${b}-${i}`,
    locationId: refs.locationId!,
    categoryId: refs.categoryId!,
  }));
  const db = await rawDbOf(t);
  const now = nowIso();
  for (let i = 0; i < rows.length; i += 500) {
    const part = rows.slice(i, i + 500).map((r) => ({ ...r, status: opts.status ?? "available" }));
    await db
      .prepare(`INSERT INTO assets (id, name, unique_tag, category_id, location_id, status, created_at, updated_at)
      SELECT value ->> '$.id', value ->> '$.name', value ->> '$.uniqueTag', value ->> '$.categoryId', value ->> '$.locationId', value ->> '$.status', ?1, ?1
      FROM json_each(?2)`)
      .bind(now, JSON.stringify(part))
      .run();
  }
  return rows;
}

function stripUndefined(o: { locationId?: string; categoryId?: string }) {
  return Object.fromEntries(
    Object.entries(o).filter(([k, v]) => v !== undefined && (k === "locationId" || k === "categoryId")),
  );
}

/** A location (optionally under a parent) through the API. */
export async function createLocation(t: TestTenant, name: string, parentId?: string): Promise<string> {
  const res = await api<Location>(t, "/locations", { body: { name, ...(parentId ? { parentId } : {}) } });
  if (res.status !== 201) throw new Error(`location: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** An active session (created and started in one call). */
export async function startSession(
  t: TestTenant,
  body: Record<string, unknown> = {},
): Promise<{ id: string; [k: string]: unknown }> {
  const res = await api<Session>(t, "/sessions", { body: { name: `Audit ${++batch}`, status: "active", ...body } });
  if (res.status !== 201) throw new Error(`session: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export const scan = <T = ScanOutcome>(t: TestTenant, sessionId: string, body: Record<string, unknown>) =>
  api<T>(t, `/sessions/${sessionId}/scan`, { body });

/** The session's Durable Object stub, named as the Worker names it. */
export function sessionStub(t: TestTenant, sessionId: string) {
  const ns = env.INVENTORY_SESSION as unknown as DurableObjectNamespace<InventorySession>;
  return ns.get(ns.idFromName(`${t.id}:${sessionId}`));
}

export const sessionApi = (t: TestTenant, sessionId: string) =>
  sessionStub(t, sessionId) as unknown as SessionObjectApi;
