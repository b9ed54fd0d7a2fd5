import { expect } from "vitest";
import type { InventoryItem, MemberRefusal } from "../../src/modules/assets";
import type { Booking } from "../../src/modules/bookings";
import { seedPerson } from "./people";
import { api, type Failure, type TestTenant } from "./tenant";

export const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

/** A booking that holds an item over the window asked for (a 409's `details.bookings` entry). */
export interface HeldBy {
  bookingId: string;
  assetId: string;
  startsAt: string;
  endsAt: string;
}

/** The 409 of creating or moving a booking: the overlapping bookings and the unusable items. */
export type BookingConflict = Failure<{ bookings: HeldBy[]; assets: MemberRefusal[] }>;
/** The 409 of a plain checkout that would run into a booking. */
export type CheckoutIntoBooking = Failure<{ bookings: Omit<HeldBy, "assetId">[] }>;
/** The 409 of an all-or-none verb on several items (kit checkout, pick-up): a reason per refused item. */
export type MembersRefused = Failure<{ members: MemberRefusal[] }>;

export async function newAsset(t: TestTenant, name = "Camera") {
  const res = await api<InventoryItem>(t, "/inventory-items", { body: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function newPerson(t: TestTenant, name = "Ada Lovelace") {
  return seedPerson(t, { name });
}

/** POST /bookings; `T` is the answer the test expects (the booking, or `BookingConflict` for a 409). */
export async function book<T = Booking>(
  t: TestTenant,
  body: { personId: string; assetIds: string[]; startsAt: string; endsAt: string; notes?: string },
) {
  return api<T>(t, "/bookings", { body });
}
