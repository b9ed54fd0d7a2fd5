import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { selfServiceOf } from "../../http/self-service";
import { serviceCtx } from "../../http/service-context";
import { notFound } from "../../platform/errors";
import { availability, listBookings } from "./list";
import { pickUp, returnBooking } from "./pickup";
import {
  AvailabilityPage,
  AvailabilityQuery,
  BookingCustodySchema,
  BookingPage,
  BookingParams,
  BookingSchema,
  CreateBookingBody,
  ListBookingsQuery,
  ReturnBookingBody,
  tags,
  UpdateBookingBody,
} from "./schemas";
import { cancelBooking, createBooking, getBooking, updateBooking } from "./service";

export const bookingsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/bookings",
      operationId: "listBookings",
      tags,
      summary: "List bookings",
      description:
        "Cursor-paginated in (startsAt, id) order. `from`/`to` keep bookings overlapping the window; `status=overdue` are picked-up bookings past their end.",
      request: { query: ListBookingsQuery },
      responses: { 200: json(BookingPage, "A page of bookings") },
    }),
    async (c) => {
      // The self-service role sees its own person's bookings only (none while no person matches it).
      const self = await selfServiceOf(c);
      const query = self ? { ...c.req.valid("query"), personId: self.personId ?? "-" } : c.req.valid("query");
      return c.json(await listBookings(c.var.db, query), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/bookings/availability",
      operationId: "listAvailableInventoryItems",
      tags,
      summary: "Inventory items free over a window",
      description:
        "Live items that can be handed over when the window starts and are not held by an active booking overlapping [from, to). An item that could not be handed over at `from` is not listed: retired, lost, in maintenance, checked out with no dueBackAt or one after `from`, or checked out and already overdue; `POST /bookings` names the reason (409, `details.assets[].code`). Filters as the item list: categoryId, locationId, q (word prefixes of the name, or a prefix of the tag or serial). Cursor-paginated by id.",
      request: { query: AvailabilityQuery },
      responses: { 200: json(AvailabilityPage, "A page of free items") },
    }),
    async (c) => c.json(await availability(c.var.db, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/bookings",
      operationId: "createBooking",
      tags,
      summary: "Book inventory items for a person",
      description:
        "Refused (409, naming the conflicting bookings and items) when the window overlaps another active booking of an item, or an item could not be handed over when the window starts, so that every accepted booking can be picked up: `details.assets[]` is `{ assetId, code, reason }` with `code` one of `retired`, `lost`, `in_maintenance` (no end date is known), `checked_out` (no dueBackAt, or one after startsAt) and `checked_out_overdue` (past its dueBackAt: check it in first). Of concurrent bookings of one item and window exactly one wins.",
      request: body(CreateBookingBody),
      responses: { 201: json(BookingSchema, "Created"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await createBooking(serviceCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/bookings/{bookingId}",
      operationId: "getBooking",
      tags,
      summary: "Get a booking",
      request: { params: BookingParams },
      responses: { 200: json(BookingSchema, "The booking") },
    }),
    async (c) => {
      const booking = await getBooking(c.var.db, c.req.valid("param").bookingId);
      const self = await selfServiceOf(c);
      if (self && booking.personId !== self.personId) throw notFound("Booking");
      return c.json(booking, 200);
    },
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/bookings/{bookingId}",
      operationId: "updateBooking",
      tags,
      summary: "Move or re-note a booking",
      description: "Only a reserved booking moves; the conflict rules apply to the new window.",
      request: { params: BookingParams, ...body(UpdateBookingBody) },
      responses: { 200: json(BookingSchema, "Updated"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await updateBooking(serviceCtx(c), c.req.valid("param").bookingId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/bookings/{bookingId}/cancel",
      operationId: "cancelBooking",
      tags,
      summary: "Cancel a reserved booking",
      request: { params: BookingParams },
      responses: { 200: json(BookingSchema, "Cancelled"), ...errorResponses(409) },
    }),
    async (c) => c.json(await cancelBooking(serviceCtx(c), c.req.valid("param").bookingId), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/bookings/{bookingId}/pick-up",
      operationId: "pickUpBooking",
      tags,
      summary: "Pick a booking up: check every item out",
      description:
        "Checks every booked item out to the booking's person with dueBackAt = endsAt, in one batch: all or none (409 with `details.members`, a reason per refused item). Under an agreement (the kit's, else the items' category's, else the workspace's), one pending hand-over for the booking is recorded in the same write and named in `handover` (docs/handovers.md).",
      request: { params: BookingParams },
      responses: { 200: json(BookingCustodySchema, "Checked out"), ...errorResponses(409) },
    }),
    async (c) => c.json(await pickUp(serviceCtx(c), c.req.valid("param").bookingId), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/bookings/{bookingId}/return",
      operationId: "returnBooking",
      tags,
      summary: "Return a booking's items (some or all)",
      description:
        "Checks the items in; the booking is `returned` when none is outstanding. Under an agreement that asks for a return signature, the pending return hand-over is recorded in the same write and named in `handover` (docs/handovers.md).",
      request: { params: BookingParams, ...body(ReturnBookingBody) },
      responses: { 200: json(BookingCustodySchema, "Returned"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await returnBooking(serviceCtx(c), c.req.valid("param").bookingId, c.req.valid("json")), 200),
  );
