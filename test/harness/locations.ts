import { locations } from "../../src/db/tenant/catalog";
import type { Location } from "../../src/modules/locations";
import { api, type TestTenant } from "./tenant";
import { dbOf } from "./tenant-db";

export interface LocationBody {
  id: string;
  name: string;
  parentId: string | null;
}

/** Creates a location through the API (under `parentId` when given) and fails the test on anything but 201. */
export async function makeLocation(t: TestTenant, name: string, parentId?: string | null): Promise<LocationBody> {
  const res = await api<Location>(t, "/locations", { body: parentId === undefined ? { name } : { name, parentId } });
  if (res.status !== 201) throw new Error(`create location ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export const moveLocation = <T = Location>(t: TestTenant, id: string, parentId: string | null) =>
  api<T>(t, `/locations/${id}`, { method: "PATCH", body: { parentId } });
export const parentOf = async (t: TestTenant, id: string): Promise<string | null> =>
  (await api<Location>(t, `/locations/${id}`)).body.parentId;
/** Rows in the locations table, deleted ones included. */
export const locationRowCount = async (t: TestTenant) =>
  (await (await dbOf(t)).select({ id: locations.id }).from(locations).all()).length;
