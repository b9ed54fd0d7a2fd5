import { seedId as id, seededRandom as rng } from "./lib.mjs";

// Generated seed data for bench/bookings.mjs: assets, people, bookings and booking_items written the
// way src/modules/bookings writes them (src/db/tenant/bookings.ts): one booking_items row per booked
// asset with the booking's window copied, `active` = 1 while the booking holds the asset (reserved,
// or picked up and not returned), 0 once cancelled or returned. A third of the assets ("the pool",
// category Cameras) are bookable gear; they are booked in groups of 1-3 assets, each group's
// bookings laid end to end over a year (half past, half ahead), so active windows of one asset never
// overlap, as the conflict rule guarantees. Past bookings are returned (85%) or cancelled; the ones
// running now are picked up (their assets checked out with dueBackAt = endsAt and an open
// assignment); future ones are reserved (90%) or cancelled. The generator also answers which assets
// are free over a window, so the benchmark can check the Worker's first page exactly.

const DAY = 86_400_000;
const OTHER = [
  ["Laptop", "Dell", "Latitude 5440"],
  ["Monitor", "LG", "27UK850"],
  ["Drill", "Makita", "DHP486"],
  ["Projector", "Epson", "EB-L200F"],
  ["Chair", "Herman Miller", "Aeron"],
  ["Scanner", "Zebra", "TC52"],
  ["Multimeter", "Fluke", "87V"],
];
export const GEAR = [
  ["Camera", "Canon", "EOS R6"],
  ["Lens", "Sony", "FE 24-70"],
  ["Tripod", "Manfrotto", "190X"],
  ["Microphone", "Rode", "NTG5"],
];

const q = (v) => (v === null ? "NULL" : typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`);

/** Multi-row INSERTs of 200 rows: far below D1's statement size limit. */
function inserts(table, columns, rows) {
  const out = [];
  for (let i = 0; i < rows.length; i += 200) {
    const values = rows
      .slice(i, i + 200)
      .map((r) => `(${r.map(q).join(",")})`)
      .join(",\n");
    out.push(`INSERT INTO ${table} (${columns.join(",")}) VALUES\n${values};`);
  }
  return out;
}

export function seedSql({ assets, bookings, people, categoryId, gearCategoryId, locationId, now = Date.now() }) {
  const rand = rng(7);
  const iso = (ms) => new Date(ms).toISOString();
  const nowIso = iso(now);
  const yearStart = now - 182 * DAY;
  const yearEnd = now + 183 * DAY;

  const personIds = Array.from({ length: people }, (_, i) => id("per", i, rand));
  const peopleRows = personIds.map((pid, i) => [pid, `Bench Person ${i}`, `person.${i}@example.com`, nowIso, nowIso]);

  // Assets in id order; every tenth asset with i % 10 < 3 is in the pool (spread through the id order).
  const all = [];
  for (let i = 0; i < assets; i++) {
    const pool = i % 10 < 3;
    const [kind, brand, model] = (pool ? GEAR : OTHER)[i % (pool ? GEAR.length : OTHER.length)];
    const status = pool ? "available" : (["lost", "retired", "maintenance"][(i % 100) - 97] ?? "available");
    all.push({
      id: id("ast", i, rand),
      name: `${kind} ${brand} ${model} #${i}`,
      tag: `BK-${String(i).padStart(6, "0")}`,
      pool,
      status,
      assigneeId: null,
      assignedAt: null,
      dueBackAt: null,
      windows: [], // this asset's active windows [startsAt, endsAt) in ms
    });
  }
  const gear = all.filter((a) => a.pool);

  // Groups of 1-3 pool assets, each with an equal share of the bookings laid end to end over the year.
  const groups = [];
  for (let i = 0; i < gear.length; ) {
    const size = 1 + Math.floor(rand() * 3);
    groups.push(gear.slice(i, i + size));
    i += size;
  }
  const perGroup = Math.ceil(bookings / groups.length);
  const slot = (yearEnd - yearStart) / perGroup;
  const bookingRows = [];
  const itemRows = [];
  const assignmentRows = [];
  let made = 0;
  for (const group of groups) {
    for (let k = 0; k < perGroup && made < bookings; k++, made++) {
      const dur = Math.min(slot * 0.8, DAY * (0.5 + rand() * 6.5));
      const starts = Math.round(yearStart + k * slot + rand() * (slot - dur));
      const ends = Math.round(starts + dur);
      const past = ends <= now;
      const running = starts <= now && now < ends;
      const cancelled = rand() < (past ? 0.15 : 0.1);
      const status = cancelled ? "cancelled" : past ? "returned" : running ? "checked_out" : "reserved";
      const active = status === "reserved" || status === "checked_out" ? 1 : 0;
      const bid = id("bkg", made, rand);
      const personId = personIds[Math.floor(rand() * personIds.length)];
      const created = iso(Math.min(starts, now) - 7 * DAY);
      const [startsAt, endsAt] = [iso(starts), iso(ends)];
      bookingRows.push([
        bid,
        personId,
        status,
        startsAt,
        endsAt,
        "usr_bench",
        created,
        created,
        status === "returned" || status === "checked_out" ? startsAt : null,
        status === "returned" ? endsAt : null,
        status === "cancelled" ? created : null,
      ]);
      for (const a of group) {
        itemRows.push([bid, a.id, startsAt, endsAt, active, status === "returned" ? endsAt : null]);
        if (active) a.windows.push([starts, ends]);
        if (status === "checked_out") {
          Object.assign(a, { status: "assigned", assigneeId: personId, assignedAt: startsAt, dueBackAt: endsAt });
          assignmentRows.push([
            id("asg", assignmentRows.length, rand),
            a.id,
            personId,
            `Bench Person ${personIds.indexOf(personId)}`,
            startsAt,
            "usr_bench",
            endsAt,
          ]);
        }
      }
    }
  }

  const assetRows = all.map((a) => [
    a.id,
    a.name,
    a.tag,
    a.pool ? gearCategoryId : categoryId,
    locationId,
    a.status,
    a.assigneeId,
    a.assignedAt,
    a.dueBackAt,
    nowIso,
    nowIso,
  ]);
  const sql = [
    ...inserts("people", ["id", "name", "email", "created_at", "updated_at"], peopleRows),
    ...inserts(
      "assets",
      [
        "id",
        "name",
        "unique_tag",
        "category_id",
        "location_id",
        "status",
        "assignee_id",
        "assigned_at",
        "due_back_at",
        "created_at",
        "updated_at",
      ],
      assetRows,
    ),
    ...inserts(
      "bookings",
      [
        "id",
        "person_id",
        "status",
        "starts_at",
        "ends_at",
        "created_by",
        "created_at",
        "updated_at",
        "picked_up_at",
        "returned_at",
        "cancelled_at",
      ],
      bookingRows,
    ),
    ...inserts("booking_items", ["booking_id", "asset_id", "starts_at", "ends_at", "active", "returned_at"], itemRows),
    ...inserts(
      "assignments",
      ["id", "asset_id", "person_id", "person_name", "checked_out_at", "checked_out_by", "due_back_at"],
      assignmentRows,
    ),
  ].join("\n");

  /** The ids free over [from, to) (ms), in id order, as GET /bookings/availability defines them. */
  const freeIds = (from, to, { gearOnly = false } = {}) =>
    all
      .filter(
        (a) =>
          (!gearOnly || a.pool) &&
          a.status !== "lost" &&
          a.status !== "retired" &&
          !(a.status === "assigned" && (a.dueBackAt === null || Date.parse(a.dueBackAt) > from)) &&
          !a.windows.some(([s, e]) => s < to && e > from),
      )
      .map((a) => a.id);

  return {
    sql,
    freeIds,
    counts: { assets: all.length, gear: gear.length, bookings: bookingRows.length, items: itemRows.length },
    personIds,
    /** A pool asset with several bookings (for the assetId filter) and plain assets nobody books (for POST /bookings). */
    bookedAsset: groups[Math.floor(groups.length / 2)][0].id,
    unbookedAvailable: all.filter((a) => !a.pool && a.status === "available").map((a) => a.id),
  };
}
