/** Front door of the calendar module: iCalendar (RFC 5545) feeds of bookings behind per-user secret URLs (docs/bookings.md). */
export { calendarRouter } from "./routes";
export type { CalendarFeed } from "./service";
