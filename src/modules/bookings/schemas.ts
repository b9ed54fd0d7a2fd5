import { z } from "@hono/zod-openapi";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { FUTURE_EXAMPLE, idParam, isoInstant } from "../../platform/schemas";
import { AssetSchema, assetTextQ, handoverField } from "../assets";

export const tags = ["Bookings"];

/** At most this many assets in one booking: their ids travel as one JSON parameter, the pick-up is one batch. */
export const MAX_BOOKING_ASSETS = 100;

export const BOOKING_STATUSES = ["reserved", "checked_out", "overdue", "returned", "cancelled"] as const;

export const BookingSchema = z
  .object({
    id: z.string().openapi({ example: "bkg_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    personId: z.string(),
    kitId: z.string().nullable().openapi({ description: "The kit booked, if the booking was made for a kit." }),
    status: z.enum(BOOKING_STATUSES).openapi({
      description: "`overdue`: checked out and `endsAt` has passed (derived, never stored).",
    }),
    startsAt: z.string(),
    endsAt: z.string(),
    notes: z.string().nullable(),
    assetIds: z.array(z.string()),
    items: z.array(z.object({ assetId: z.string(), returnedAt: z.string().nullable() })),
    createdBy: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    pickedUpAt: z.string().nullable(),
    returnedAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
  })
  .openapi("Booking");

/** A pick-up's or return's answer: the booking, and the pending hand-over recorded with it. */
export const BookingCustodySchema = BookingSchema.extend({ handover: handoverField }).openapi("BookingCustodyResult");

export const BookingPage = pageOf(BookingSchema, "BookingPage");

const assetIds = z
  .array(z.string().min(1).max(64))
  .min(1)
  .max(MAX_BOOKING_ASSETS)
  .refine((ids) => new Set(ids).size === ids.length, "must not repeat an id");

export const CreateBookingBody = z
  .object({
    personId: z.string().min(1).max(64),
    assetIds: assetIds.openapi({ description: `1..${MAX_BOOKING_ASSETS} inventory item ids.` }),
    startsAt: isoInstant.openapi({ example: FUTURE_EXAMPLE.start }),
    endsAt: isoInstant.openapi({
      description: "Exclusive end; after startsAt, in the future, at most 366 days after startsAt.",
      example: FUTURE_EXAMPLE.end,
    }),
    notes: z.string().trim().max(2000).nullable().optional(),
  })
  .strict()
  .openapi("CreateBooking");

export const UpdateBookingBody = z
  .object({
    startsAt: isoInstant.optional().openapi({ example: FUTURE_EXAMPLE.start }),
    endsAt: isoInstant.optional().openapi({ example: FUTURE_EXAMPLE.end }),
    notes: z.string().trim().max(2000).nullable().optional(),
  })
  .strict()
  .openapi("UpdateBooking");

export const ReturnBookingBody = z
  .object({
    assetIds: assetIds.optional().openapi({ description: "The items to return; all outstanding ones when absent." }),
  })
  .strict()
  .openapi("ReturnBooking");

export const BookingParams = z.object({ bookingId: idParam("bookingId", "bkg_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export const ListBookingsQuery = z.object({
  ...pageQuery,
  from: isoInstant.optional().openapi({ description: "Bookings that end after this instant." }),
  to: isoInstant.optional().openapi({ description: "Bookings that start before this instant." }),
  personId: z.string().max(64).optional(),
  assetId: z.string().max(64).optional(),
  status: z.enum(BOOKING_STATUSES).optional(),
});

export const AvailabilityQuery = z.object({
  ...pageQuery,
  from: isoInstant,
  to: isoInstant,
  categoryId: z.string().max(64).optional(),
  locationId: z.string().max(64).optional(),
  q: assetTextQ,
});

export const AvailabilityPage = pageOf(AssetSchema, "AvailableItemPage");

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const bookingWebhookResources = { booking: BookingSchema } satisfies WebhookResources;
