import type { categories } from "../../db/tenant/catalog";

export type CategoryRow = typeof categories.$inferSelect;

export const toCategory = (r: CategoryRow) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  expectedLifeMonths: r.expectedLifeMonths,
  isDefault: r.isDefault,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});
