import { expect } from "vitest";
import { seedPerson } from "../harness/people";
import { api, type TestTenant } from "../harness/tenant";

export const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

export async function newAsset(t: TestTenant, name = "Camera") {
  const res = await api(t, "/inventory-items", { body: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; uniqueTag: string; status: string };
}

export async function newPerson(t: TestTenant, name = "Ada Lovelace") {
  return seedPerson(t, { name });
}

export async function book(
  t: TestTenant,
  body: { personId: string; assetIds: string[]; startsAt: string; endsAt: string; notes?: string },
) {
  return api(t, "/bookings", { body });
}
