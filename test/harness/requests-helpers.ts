import { asc } from "drizzle-orm";
import { expect } from "vitest";
import { notifications } from "../../src/db/tenant/notifications";
import type { InventoryItem } from "../../src/modules/assets";
import type { Request } from "../../src/modules/requests";
import { seedPerson } from "./people";
import { createUser, type TestUser } from "./principals";
import { api, type TestTenant } from "./tenant";
import { dbOf } from "./tenant-db";

/** A self-service user with a person of the same email (who will hold what is approved). */
export async function requester(t: TestTenant, name = "Rae Requester"): Promise<TestUser & { personId: string }> {
  const user = await createUser(t, "requester");
  const person = await seedPerson(t, { name, email: user.email });
  return { ...user, personId: person.id };
}

export async function asset(t: TestTenant, name: string, requestable = true): Promise<InventoryItem> {
  const res = await api<InventoryItem>(t, "/inventory-items", { body: { name, requestable } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function ask(t: TestTenant, who: TestUser, body: Record<string, unknown>): Promise<Request> {
  const res = await api<Request>(t, "/requests", { body, auth: { jwt: who.jwt } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export const inbox = async (t: TestTenant, userId: string) =>
  (await (await dbOf(t)).select().from(notifications).orderBy(asc(notifications.id)).all()).filter(
    (n) => n.userId === userId,
  );

export const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
