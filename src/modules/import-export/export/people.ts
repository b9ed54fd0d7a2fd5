import { sql } from "drizzle-orm";
import type { TenantDb } from "../../../env";
import { encodeCursor } from "../../../platform/pagination";
import { liveDefinitions } from "../../custom-fields";
import type { ListPeopleInput } from "../../people";
import { listPeopleQuery } from "../../people";
import type { Cell } from "../csv";
import { customCell } from "../custom-cells";
import { namesOf } from "../names";
import { EXPORT_PAGE } from "./assets";

export const PERSON_COLUMNS = [
  "id",
  "name",
  "email",
  "employeeNumber",
  "department",
  "title",
  "phone",
  "locationId",
  "location",
  "notes",
  "status",
  "createdAt",
  "updatedAt",
] as const;

/** SQLite's lower() folds ASCII only; the cursor must fold the same way (as the people list does). */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The people export: the people list's query (filters, order by name) EXPORT_PAGE rows at a time. */
export async function peopleExport(db: TenantDb, filters: Omit<ListPeopleInput, "limit" | "cursor">) {
  const [defs, locations] = await Promise.all([
    liveDefinitions(db, "person"),
    namesOf(db, sql`SELECT id, name FROM locations`),
  ]);
  const header = [...PERSON_COLUMNS, ...defs.map((d) => d.key)];
  async function* pages(): AsyncGenerator<Cell[][]> {
    let cursor: string | undefined;
    for (;;) {
      const rows = await listPeopleQuery(db, { ...filters, limit: EXPORT_PAGE, cursor }).all();
      const page = rows.slice(0, EXPORT_PAGE);
      yield page.map((p) => [
        p.id,
        p.name,
        p.email,
        p.employeeNumber,
        p.department,
        p.title,
        p.phone,
        p.locationId,
        p.locationId ? locations.get(p.locationId) : null,
        p.notes,
        p.status,
        p.createdAt,
        p.updatedAt,
        ...defs.map((d) => customCell(p.customFields[d.key])),
      ]);
      const last = page[page.length - 1];
      if (rows.length <= EXPORT_PAGE || !last) return;
      cursor = encodeCursor([asciiLower(last.name), last.id]);
    }
  }
  return { header, pages: pages() };
}
