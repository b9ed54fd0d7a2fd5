import type { CustomFieldEntity } from "../../db/tenant/custom-fields";

/**
 * The built-in fields a form can show for each entity: what a layout may place next to custom fields.
 * Kept next to the reserved-key rule so the two lists cannot drift apart.
 */
export const BUILTIN_FORM_FIELDS: Record<CustomFieldEntity, readonly string[]> = {
  asset: [
    "name",
    "uniqueTag",
    "serialNumber",
    "model",
    "manufacturer",
    "categoryId",
    "locationId",
    "status",
    "assigneeId",
    "dueBackAt",
    "purchaseDate",
    "purchaseCost",
    "currency",
    "warrantyExpiresAt",
    "notes",
    "imageKey",
    "requestable",
  ],
  person: ["name", "email", "employeeNumber", "department", "title", "phone", "locationId", "notes", "status"],
  stock_item: [
    "name",
    "categoryId",
    "unit",
    "sku",
    "tag",
    "unitCost",
    "currency",
    "returnable",
    "requestable",
    "reorderLevel",
    "notes",
    "fileKeys",
  ],
};

/** Response and storage fields that are not on forms but still cannot be custom field keys. */
const SYSTEM_FIELDS: Record<CustomFieldEntity, readonly string[]> = {
  asset: [
    "id",
    "customFields",
    "createdAt",
    "updatedAt",
    "deletedAt",
    "deletedBy",
    "lastVerifiedAt",
    "assignedAt",
    "reservedUntil",
    "reservationReason",
    "purchaseCostMinor",
    "health",
    "assignee",
    "category",
    "location",
    "image",
    // Columns of the asset CSV (docs/import-export.md): a custom field is a column headed by its key.
    "holder",
    "holderKind",
    "holderId",
    "statusReason",
  ],
  person: ["id", "customFields", "createdAt", "updatedAt", "deletedAt", "deletedBy", "location", "assignments"],
  stock_item: [
    "id",
    "customFields",
    "createdAt",
    "updatedAt",
    "deletedAt",
    "deletedBy",
    "onHand",
    "low",
    "levels",
    "quantities",
  ],
};

const reserved = (entity: CustomFieldEntity) =>
  new Set([...BUILTIN_FORM_FIELDS[entity], ...SYSTEM_FIELDS[entity]].map((k) => k.toLowerCase()));
const RESERVED: Record<CustomFieldEntity, Set<string>> = {
  asset: reserved("asset"),
  person: reserved("person"),
  stock_item: reserved("stock_item"),
};

/** A custom field key may not shadow a built-in field of its entity, compared case-insensitively. */
export const isReservedKey = (entity: CustomFieldEntity, key: string) => RESERVED[entity].has(key.toLowerCase());

export const isBuiltinFormField = (entity: CustomFieldEntity, key: string) => BUILTIN_FORM_FIELDS[entity].includes(key);
