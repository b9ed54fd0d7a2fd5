import type { CustomFieldEntity, layouts } from "../../db/tenant/custom-fields";
import type { TenantDb } from "../../env";
import { liveDefinitions } from "../custom-fields";
import { visibleSections } from "./fields";

export type LayoutRow = typeof layouts.$inferSelect;

export const toLayout = (r: LayoutRow, live: ReadonlySet<string>) => ({
  id: r.id,
  entity: r.entity,
  name: r.name,
  isDefault: r.isDefault,
  sections: visibleSections(r.entity, r.sections, live),
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export async function present(db: TenantDb, r: LayoutRow) {
  const keys = await liveKeysFor(db, [r.entity]);
  return toLayout(r, keys.get(r.entity) ?? new Set());
}

/** Live custom field keys per entity, loaded once per request, for hiding deleted fields. */
export async function liveKeysFor(db: TenantDb, entities: Iterable<CustomFieldEntity>) {
  const out = new Map<CustomFieldEntity, Set<string>>();
  for (const e of new Set(entities)) out.set(e, new Set((await liveDefinitions(db, e)).map((d) => d.key)));
  return out;
}
