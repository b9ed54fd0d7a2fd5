/** Front door of the calendar module: iCalendar (RFC 5545) feeds of bookings behind per-user secret URLs (docs/bookings.md). */

// The per-user secret URLs every feed keeps the same way.
export { feedBySecret, listOwnFeeds, newFeedSecret, revokeOwnFeed } from "./feed-store";
// The RFC 5545 writer, for other feeds (licence renewals, docs/licences.md).
export type { IcsEvent } from "./ics";
export { renderCalendar } from "./ics";
export { calendarRouter } from "./routes";
export type { CalendarFeed } from "./service";
