/**
 * Front door of the bookings module: date-range reservations of inventory items, pick-up and
 * return through the asset write recipe, availability over a window (docs/bookings.md).
 */
export { bookingsRouter } from "./routes";
export { BookingSchema } from "./schemas";
export type { Booking } from "./view";
export { createBooking } from "./service";
export { MAX_BOOKING_DAYS } from "./conflicts";
export { runBookingReminders } from "./reminders";
export { bookingWebhookResources } from "./schemas";
