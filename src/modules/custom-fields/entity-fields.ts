import type { CustomFieldEntity } from "../../db/tenant/custom-fields";

/** A built-in field a form shows (a layout may place it) and the audit log compares. */
const FORM = { form: true, audited: true } as const;
/** A field the audit log compares that no form shows (custody, reservations, custom field values). */
const AUDITED = { form: false, audited: true } as const;
/** A field of the API's answers, of storage or of the CSV: neither on a form nor audited. */
const SYSTEM = { form: false, audited: false } as const;

/**
 * One field list per entity, in API names: every built-in field a form shows, the audit log
 * compares (in this order), or the API, the storage and the CSV use. The three uses derive from it:
 * a layout places the form fields, the audit compares the audited ones, and a custom field key may
 * shadow none of them (compared case-insensitively).
 */
export const ENTITY_FIELDS = {
  asset: {
    name: FORM,
    uniqueTag: FORM,
    serialNumber: FORM,
    model: FORM,
    manufacturer: FORM,
    categoryId: FORM,
    locationId: FORM,
    status: FORM,
    assigneeId: FORM,
    holder: AUDITED,
    requestable: FORM,
    assignedAt: AUDITED,
    dueBackAt: FORM,
    reservedUntil: AUDITED,
    reservationReason: AUDITED,
    purchaseDate: FORM,
    purchaseCost: FORM,
    currency: FORM,
    warrantyExpiresAt: FORM,
    notes: FORM,
    customFields: AUDITED,
    imageKey: FORM,
    id: SYSTEM,
    createdAt: SYSTEM,
    updatedAt: SYSTEM,
    deletedAt: SYSTEM,
    deletedBy: SYSTEM,
    lastVerifiedAt: SYSTEM,
    purchaseCostMinor: SYSTEM,
    health: SYSTEM,
    assignee: SYSTEM,
    category: SYSTEM,
    location: SYSTEM,
    image: SYSTEM,
    // Columns of the asset CSV (docs/import-export.md): a custom field is a column headed by its key.
    holderKind: SYSTEM,
    holderId: SYSTEM,
    statusReason: SYSTEM,
  },
  person: {
    name: FORM,
    email: FORM,
    employeeNumber: FORM,
    department: FORM,
    costCenter: FORM,
    externalId: FORM,
    managerId: FORM,
    title: FORM,
    phone: FORM,
    locationId: FORM,
    notes: FORM,
    status: FORM,
    customFields: AUDITED,
    id: SYSTEM,
    createdAt: SYSTEM,
    updatedAt: SYSTEM,
    deletedAt: SYSTEM,
    deletedBy: SYSTEM,
    location: SYSTEM,
    assignments: SYSTEM,
  },
  stock_item: {
    name: FORM,
    categoryId: FORM,
    unit: FORM,
    sku: FORM,
    tag: FORM,
    unitCost: FORM,
    currency: FORM,
    returnable: FORM,
    requestable: FORM,
    reorderLevel: FORM,
    notes: FORM,
    customFields: AUDITED,
    fileKeys: FORM,
    id: SYSTEM,
    createdAt: SYSTEM,
    updatedAt: SYSTEM,
    deletedAt: SYSTEM,
    deletedBy: SYSTEM,
    onHand: SYSTEM,
    low: SYSTEM,
    levels: SYSTEM,
    quantities: SYSTEM,
  },
} as const satisfies Record<CustomFieldEntity, Record<string, typeof FORM | typeof AUDITED | typeof SYSTEM>>;

type Fields<E extends CustomFieldEntity> = (typeof ENTITY_FIELDS)[E];
type AuditedField<E extends CustomFieldEntity> = {
  [K in keyof Fields<E>]: Fields<E>[K] extends { audited: true } ? K : never;
}[keyof Fields<E>];

/** The fields of an entity the audit log compares, in their order. */
export const auditedFields = <E extends CustomFieldEntity>(entity: E) =>
  Object.entries(ENTITY_FIELDS[entity]).flatMap(([k, use]) => (use.audited ? [k] : [])) as AuditedField<E>[];

const lower = (entity: CustomFieldEntity) => new Set(Object.keys(ENTITY_FIELDS[entity]).map((k) => k.toLowerCase()));
const RESERVED: Record<CustomFieldEntity, Set<string>> = {
  asset: lower("asset"),
  person: lower("person"),
  stock_item: lower("stock_item"),
};

/** A custom field key may not shadow a built-in field of its entity, compared case-insensitively. */
export const isReservedKey = (entity: CustomFieldEntity, key: string) => RESERVED[entity].has(key.toLowerCase());

/** A built-in field a form of the entity shows (what a layout may place next to custom fields). */
export const isBuiltinFormField = (entity: CustomFieldEntity, key: string) =>
  Object.hasOwn(ENTITY_FIELDS[entity], key) && (ENTITY_FIELDS[entity] as Record<string, { form: boolean }>)[key]!.form;
