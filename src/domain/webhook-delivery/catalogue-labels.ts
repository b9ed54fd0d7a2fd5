import type { CatalogueEntry } from "./catalogue-entry";

/** Codes and labels: codes attached, claimed and voided, tag batches reserved (docs/labels.md). */
export const LABEL_EVENTS: readonly CatalogueEntry[] = [
  {
    type: "code.created",
    description: "A code was attached to an asset, kit, location or stock item.",
    resource: "code",
  },
  {
    type: "code.claimed",
    description: "A reserved (pre-printed) code was claimed for an asset, kit, location or stock item.",
    resource: "code",
  },
  { type: "code.voided", description: "A code was voided: it names nothing any more.", resource: "code" },
  {
    type: "tag_batch.created",
    description: "A batch of tag codes was reserved, to print before the equipment arrives.",
    resource: "tagBatch",
  },
];
