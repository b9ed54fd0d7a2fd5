/**
 * The webhook event catalogue: every event type the modules record in the outbox, under the name
 * integrators subscribe to. `resource` names the object `data` carries (the resource after the
 * change); `extra` documents what is added to it. Update events add `changes`, the changed fields.
 */
export interface CatalogueEntry {
  type: string;
  description: string;
  resource: Resource;
  extra?: string;
}

export type Resource =
  | "asset"
  | "person"
  | "category"
  | "location"
  | "customField"
  | "layout"
  | "session"
  | "sessionSchedule"
  | "maintenanceSchedule"
  | "maintenanceLog"
  | "maintenanceReminder"
  | "purged"
  | "feedback"
  | "apiKey"
  | "user"
  | "invite"
  | "verification"
  | "booking"
  | "kit"
  | "request"
  | "stockItem"
  | "stockMovement"
  | "stockLevel"
  | "offboardingCase"
  | "scimUser"
  | "scimGroup"
  | "scimToken"
  | "scimGroupMapping"
  | "agreement"
  | "handover"
  | "receipt"
  | "licenceProduct"
  | "licenceLot"
  | "licenceSeat"
  | "licenceReview"
  | "code"
  | "tagBatch";

export const CHANGES = "`changes`: the names of the fields that changed.";
/** "An asset", "A kit". */
export const aNoun = (noun: string) => `${/^[aeiou]/.test(noun) ? "An" : "A"} ${noun}`;
export const crud = (
  prefix: string,
  resource: Resource,
  noun: string,
  opts: { restore?: boolean; purge?: boolean } = {},
): CatalogueEntry[] => [
  { type: `${prefix}.created`, description: `${aNoun(noun)} was created.`, resource },
  { type: `${prefix}.updated`, description: `${aNoun(noun)} was updated.`, resource, extra: CHANGES },
  {
    type: `${prefix}.deleted`,
    description: `${aNoun(noun)} was deleted${opts.restore ? " (moved to the trash)" : ""}.`,
    resource,
    extra: opts.restore ? "`deletedAt`." : undefined,
  },
  ...(opts.restore
    ? [{ type: `${prefix}.restored`, description: `${aNoun(noun)} was restored from the trash.`, resource }]
    : []),
  ...(opts.purge
    ? [
        {
          type: `${prefix}.purged`,
          description: `A trashed ${noun} was permanently deleted.`,
          resource: "purged" as const,
        },
      ]
    : []),
];
