import type { FieldDef } from "./definitions";

export const toCustomField = (r: FieldDef) => ({
  id: r.id,
  entity: r.entity,
  key: r.key,
  label: r.label,
  type: r.type,
  options: r.options ?? null,
  required: r.required,
  helpText: r.helpText,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});
