import { z } from "@hono/zod-openapi";
import type { HealthBadge } from "../../db/tenant/health";
import type { TenantDb } from "../../env";
import type { HealthBasis } from "./presets";
import { healthOf } from "./recompute";
import { BadgeSchema } from "./schemas";
import type { StoredHealth } from "./store";

/**
 * The asset list's health options (docs/health.md#routes). The list reads the stored, indexed scores
 * (asset_health) and never scores assets to sort or filter them.
 */
export const HEALTH_SORTS = ["risk_first", "healthy_first"] as const;
export type HealthSort = (typeof HEALTH_SORTS)[number];

export interface HealthListInput {
  healthBadge?: HealthBadge;
  healthSort?: HealthSort;
}

export const healthListQuery = {
  healthBadge: BadgeSchema.optional().openapi({
    param: { name: "healthBadge", in: "query" },
    description: "Only assets with this health badge; combinable with every other filter.",
  }),
  healthSort: z.enum(HEALTH_SORTS).optional().openapi({
    description:
      "Order by stored health score: `risk_first` lowest score first (ties: oldest id first), `healthy_first` the reverse. Overrides the default order; the other filters still apply; the cursor is keyed on (score, id).",
  }),
};

/**
 * Adds `health` to a page of assets: one statement for the page (ids as one JSON parameter); a
 * stale or missing row is re-scored on the spot, so what an item shows is exact even in the
 * moment its row waits for the cron. An asset deleted between the list read and this one is dropped.
 */
export async function attachHealth<T extends { id: string }>(
  db: TenantDb,
  items: T[],
  basis: HealthBasis,
): Promise<(T & { health: StoredHealth })[]> {
  if (items.length === 0) return [];
  const health = await healthOf(
    db,
    items.map((i) => i.id),
    basis,
  );
  return items.filter((i) => health.has(i.id)).map((i) => ({ ...i, health: health.get(i.id)! }));
}
