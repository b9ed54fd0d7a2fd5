import { expect } from "vitest";
import type { Agreement, CreatedHandover } from "../../src/modules/handovers";
import { createAsset } from "../harness/assets-helpers";
import { seedPerson } from "../harness/people";
import { api, type TestTenant } from "../harness/tenant";

/** A 1x1 PNG: the smallest drawn signature. */
export const PNG_1PX =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

export const TEMPLATE = "I, {{person}}, received on {{date}}:\n\n{{items}}\n\nto return by {{dueBack}}.";

export async function makeAgreement(t: TestTenant, body: Record<string, unknown> = {}) {
  const res = await api<Agreement>(t, "/agreements", {
    body: { name: "Equipment agreement", scope: "workspace", body: TEMPLATE, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A person and `n` assets handed over to them together under whatever agreement applies. */
export async function handOver(t: TestTenant, n = 2, extra: Record<string, unknown> = {}) {
  const person = await seedPerson(t, { name: "Grace Hopper" });
  const items = [];
  for (let i = 0; i < n; i++)
    items.push(await createAsset(t, { name: `Laptop ${i + 1}`, serialNumber: `SN-${i + 1}` }));
  const res = await api<CreatedHandover>(t, "/handovers", {
    body: { personId: person.id, itemIds: items.map((a) => a.id), ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { person, items, created: res.body };
}
