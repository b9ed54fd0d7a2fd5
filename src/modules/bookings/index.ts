/**
 * Front door of the bookings module: date-range reservations of inventory items, pick-up and
 * return through the asset write recipe, availability over a window (docs/bookings.md).
 */

export { BOOKINGS_RESERVED_GUARD, cancelReservedBookingsOf } from "./cancel-for-person";
export { MAX_BOOKING_DAYS } from "./conflicts";
export { runBookingReminders } from "./reminders";
export { bookingsRouter } from "./routes";
export { BookingSchema, bookingWebhookResources } from "./schemas";
export { createBooking } from "./service";
export type { Booking } from "./view";
