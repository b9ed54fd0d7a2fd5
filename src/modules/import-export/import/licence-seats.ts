import { and, isNull, or, sql } from "drizzle-orm";
import { assets } from "../../../db/tenant/assets";
import { licenceLots, licenceSeats } from "../../../db/tenant/licences";
import { people } from "../../../db/tenant/people";
import type { TenantDb } from "../../../env";
import { inJson } from "../../../platform/d1-write";
import type { ErrorDetail } from "../../../platform/errors";
import { SEAT_HOLDER_KINDS } from "../../licences";
import { ignoredColumns, mapColumns } from "./columns";
import type { ParsedCsv } from "./csv";
import { LICENCE_SEAT_IMPORT_COLUMNS } from "./licence-columns";
import { cellsOf, columnName, type ImportPlan, type PlannedRow, refusedRow, shapeErrors } from "./plan";

type Holder = { kind: "person" | "asset"; id: string; name: string; status: string };
type Found = { holder?: Holder; error?: { field: string; message: string } };

/** The people and assets a file names (by id, email, name or unique tag), in four statements of one JSON parameter each. */
async function holdersOf(db: TenantDb, rows: Record<string, string>[]) {
  const words = (...fs: string[]) => [
    ...new Set(rows.flatMap((r) => fs.map((f) => r[f]?.toLowerCase())).filter((v): v is string => Boolean(v))),
  ];
  const ids = words("holderId", "personId", "assetId");
  const texts = words("holder", "person", "asset");
  const [ps, as] = await Promise.all([
    db
      .select({ id: people.id, name: people.name, email: people.email, status: people.status })
      .from(people)
      .where(
        and(
          isNull(people.deletedAt),
          or(
            inJson(sql`lower(${people.id})`, ids),
            inJson(sql`lower(${people.email})`, texts),
            inJson(sql`lower(${people.name})`, texts),
          ),
        ),
      )
      .all(),
    db
      .select({ id: assets.id, name: assets.name, tag: assets.uniqueTag, status: assets.status })
      .from(assets)
      .where(
        and(
          isNull(assets.deletedAt),
          or(inJson(sql`lower(${assets.id})`, ids), inJson(sql`lower(${assets.uniqueTag})`, texts)),
        ),
      )
      .all(),
  ]);
  const person = (p: (typeof ps)[number]): Holder => ({ kind: "person", id: p.id, name: p.name, status: p.status });
  const asset = (a: (typeof as)[number]): Holder => ({ kind: "asset", id: a.id, name: a.name, status: a.status });
  const byId = new Map<string, Holder>([
    ...ps.map((p) => [p.id.toLowerCase(), person(p)] as const),
    ...as.map((a) => [a.id.toLowerCase(), asset(a)] as const),
  ]);
  const personBy = (text: string): Found => {
    const t = text.toLowerCase();
    const byEmail = ps.filter((p) => p.email?.toLowerCase() === t);
    if (byEmail.length === 1) return { holder: person(byEmail[0]!) };
    const byName = ps.filter((p) => p.name.toLowerCase() === t);
    if (byName.length > 1)
      return { error: { field: "", message: `${byName.length} people are named '${text}'; use the email or id` } };
    return byName[0]
      ? { holder: person(byName[0]) }
      : { error: { field: "", message: `no person with the email or name '${text}'` } };
  };
  const assetBy = (text: string): Found => {
    const a = as.find((x) => x.tag?.toLowerCase() === text.toLowerCase());
    return a ? { holder: asset(a) } : { error: { field: "", message: `no asset with the unique tag '${text}'` } };
  };
  /** The row's holder: an id first (an unknown one falls back to the name beside it, as the asset import does). */
  return (f: Record<string, string>): Found => {
    const given = [
      ["holderId", f.holderId],
      ["personId", f.personId],
      ["assetId", f.assetId],
    ].filter((g): g is [string, string] => Boolean(g[1]));
    for (const [field, id] of given) {
      const h = byId.get(id.toLowerCase());
      const wanted = field === "personId" ? "person" : field === "assetId" ? "asset" : f.holderKind?.toLowerCase();
      if (h && (!wanted || wanted === h.kind)) return { holder: h };
    }
    const text = f.person ?? f.asset ?? f.holder;
    const kind = f.person ? "person" : f.asset ? "asset" : f.holderKind?.toLowerCase();
    if (text) {
      const field = f.person ? "person" : f.asset ? "asset" : "holder";
      const found =
        kind === "asset"
          ? assetBy(text)
          : kind === "person"
            ? personBy(text)
            : personBy(text).holder
              ? personBy(text)
              : assetBy(text);
      return found.error ? { error: { ...found.error, field } } : found;
    }
    if (given[0]) return { error: { field: given[0][0], message: `unknown holder '${given[0][1]}'` } };
    return {
      error: { field: "holderId", message: "required: a holder (holderId, personId, assetId, person or asset)" },
    };
  };
}

/**
 * Plans a seat import: each row gives a seat of the lot `lotId` to a person or an asset. A holder
 * that already holds an open seat of the lot is no change (reported `update` with the seat's id),
 * so an export re-imports as is. The rules of POST /licence-lots/{lotId}/seats are checked before
 * anything is written: the holder is live and active (an asset not retired), the lot's kind takes
 * it, and the lot has a free seat for it after the file's earlier rows (a lot never goes over its
 * seats; the write is guarded again).
 */
export async function planLicenceSeats(db: TenantDb, csv: ParsedCsv): Promise<ImportPlan> {
  const columns = mapColumns(csv.header, LICENCE_SEAT_IMPORT_COLUMNS, [], ["lotId"]);
  const rows = csv.rows.map((cells) => cellsOf(columns, cells));
  const lotIds = [...new Set(rows.map((r) => r.fields.lotId).filter((v): v is string => Boolean(v)))];
  const [lots, open, holderOf] = await Promise.all([
    db
      .select()
      .from(licenceLots)
      .where(and(inJson(licenceLots.id, lotIds), isNull(licenceLots.deletedAt)))
      .all(),
    db
      .select({ id: licenceSeats.id, lotId: licenceSeats.lotId, holderId: licenceSeats.holderId })
      .from(licenceSeats)
      .where(and(inJson(licenceSeats.lotId, lotIds), isNull(licenceSeats.unassignedAt)))
      .all(),
    holdersOf(
      db,
      rows.map((r) => r.fields),
    ),
  ]);
  const lotById = new Map(lots.map((l) => [l.id, l]));
  const seatOf = new Map(open.map((s) => [`${s.lotId} ${s.holderId}`, s.id]));
  const taken = new Map(lots.map((l) => [l.id, l.assignedCount]));
  const firstRow = new Map<string, number>();
  const planned = rows.map(({ fields }, i): PlannedRow => {
    const rowNumber = i + 1;
    const col = (f: string) => columnName(columns, f);
    const errors: ErrorDetail[] = shapeErrors(csv.header, csv.rows[i]!);
    const lot = fields.lotId ? lotById.get(fields.lotId) : undefined;
    if (!fields.lotId) errors.push({ path: col("lotId"), message: "required" });
    else if (!lot) errors.push({ path: col("lotId"), message: `unknown lot '${fields.lotId}'` });
    const found = holderOf(fields);
    if (found.error) errors.push({ path: col(found.error.field), message: found.error.message });
    const h = found.holder;
    const key = lot && h ? `${lot.id} ${h.id}` : null;
    if (key) {
      const first = firstRow.get(key);
      if (first !== undefined) errors.push({ path: "(row)", message: `the same lot and holder as row ${first}` });
      else firstRow.set(key, rowNumber);
    }
    const existing = key ? seatOf.get(key) : undefined;
    if (lot && h && !existing) {
      if (!SEAT_HOLDER_KINDS[lot.kind].includes(h.kind))
        errors.push({
          path: "(row)",
          message: `a ${lot.kind} lot's seats go to ${SEAT_HOLDER_KINDS[lot.kind].join(" or ")}s`,
        });
      else if (h.kind === "person" && h.status !== "active")
        errors.push({ path: "(row)", message: `${h.name} is ${h.status}; activate them first` });
      else if (h.kind === "asset" && h.status === "retired")
        errors.push({ path: "(row)", message: `${h.name} is retired; it cannot take a seat` });
      else if (lot.seats !== null && (taken.get(lot.id) ?? 0) >= lot.seats)
        errors.push({
          path: col("lotId"),
          message: `row ${rowNumber}: no free seat in lot ${lot.id}: ${lot.seats} of ${lot.seats} assigned with the rows before this one`,
        });
    }
    const matchKey = key;
    if (errors.length) return refusedRow(rowNumber, existing ?? null, matchKey, errors);
    if (existing) return { rowNumber, action: "update", targetId: existing, matchKey, input: {}, errors: [] };
    taken.set(lot!.id, (taken.get(lot!.id) ?? 0) + 1);
    return {
      rowNumber,
      action: "create",
      targetId: null,
      matchKey,
      input: { lotId: lot!.id, ...(h!.kind === "person" ? { personId: h!.id } : { assetId: h!.id }) },
      errors: [],
    };
  });
  return { rows: planned, ignoredColumns: ignoredColumns(columns) };
}
