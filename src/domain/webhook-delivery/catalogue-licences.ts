import { type CatalogueEntry, crud } from "./catalogue-entry";

/** Software: products, entitlements (lots), seats and access reviews (docs/licences.md). */
export const LICENCE_EVENTS: readonly CatalogueEntry[] = [
  ...crud("licence_product", "licenceProduct", "software product", { restore: true, purge: true }),
  ...crud("licence_lot", "licenceLot", "licence entitlement (lot)").map((e) =>
    e.type === "licence_lot.created"
      ? { ...e, description: "An entitlement (lot) was added to a software product." }
      : e,
  ),
  {
    type: "licence_seat.assigned",
    description: "A seat of a lot was assigned to a person or an asset.",
    resource: "licenceSeat",
  },
  {
    type: "licence_seat.unassigned",
    description: "A seat was unassigned (by hand, or revoked by an access review: `reviewId`).",
    resource: "licenceSeat",
  },
  {
    type: "licence_seat.released",
    description: "A seat was released because its person was deactivated or its asset retired (`unassignReason`).",
    resource: "licenceSeat",
  },
  {
    type: "licence_seat.reclaimed",
    description: "An unused seat was reclaimed (its holder's user and the managers are notified in the app).",
    resource: "licenceSeat",
  },
  {
    type: "licence.renewal_due",
    description: "A lot's term ends within its notice period (once per lot and term end; sent by the cron).",
    resource: "licenceLot",
    extra: "`productName`; `recipients` and `notificationIds`: the users notified in the app and their notifications.",
  },
  {
    type: "licence.expired",
    description: "A lot's term ended without renewing itself (once per lot and end; sent by the cron).",
    resource: "licenceLot",
    extra: "`productName`; `recipients` and `notificationIds`.",
  },
  {
    type: "licence.renewed",
    description:
      "A term that renews itself passed its end; the cron moved `startDate` and `endDate` on by whole terms.",
    resource: "licenceLot",
    extra: "`previousEndDate`.",
  },
  {
    type: "licence_review.opened",
    description: "An access review of a product's seats was opened.",
    resource: "licenceReview",
  },
  {
    type: "licence_review.decided",
    description: "Seats of an access review were kept or revoked (the review closes with its last decision).",
    resource: "licenceReview",
  },
];
