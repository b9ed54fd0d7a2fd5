/**
 * What the rest of the assets module uses of custody (check-out, check-in, holders and the booking
 * rule), so the bulk actions describe custody changes with the single routes' own parts.
 */
export { askAcceptance, askReturns, type HandoverRef, HandoverRefSchema, type PendingAcceptance } from "./acceptance";
export { blockingBookingsOf, noBlockingBookingOf } from "./booking-rule";
export { notCheckedOut } from "./checkin";
export { intoBookingRefusal } from "./checkout";
export {
  type AssignmentRow,
  checkinAssetSet,
  checkinChange,
  checkoutAssetSet,
  checkoutChange,
  personHolder,
} from "./checkout-change";
export { checkoutRefusal, personRefusal } from "./checkout-target";
