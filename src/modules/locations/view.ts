import type { locations } from "../../db/tenant/catalog";

export type LocationRow = typeof locations.$inferSelect;

export const toLocation = (r: LocationRow) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  parentId: r.parentId,
  isDefault: r.isDefault,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});
