import { and, eq, isNull } from "drizzle-orm";
import { assetStatusEvents, assets, assetTimeline, assignments } from "../../src/db/tenant/assets";
import { auditLog } from "../../src/db/tenant/audit";
import { categories, locations } from "../../src/db/tenant/catalog";
import type { customFields } from "../../src/db/tenant/custom-fields";
import { assetHealth, assetLastAudit } from "../../src/db/tenant/health";
import { maintenanceLogs, maintenanceReminders, maintenanceSchedules } from "../../src/db/tenant/maintenance";
import { people } from "../../src/db/tenant/people";
import { sessionSchedules } from "../../src/db/tenant/sessions";
import { nowIso } from "../../src/platform/clock";
import { newId } from "../../src/platform/ids";
import type { TestTenant } from "./tenant";
import { dbOf } from "./tenant-db";

/**
 * Rows written straight into a tenant database, for tests that need exact states (a deletion time,
 * history rows) without going through the owning module's API. Every helper takes overrides, so a
 * test states only what it cares about, e.g. `insertAsset(t, { deletedAt: "2026-01-01T00:00:00.000Z" })`.
 */

export type AssetRow = typeof assets.$inferSelect;
export type PersonRow = typeof people.$inferSelect;
export type CustomFieldRow = typeof customFields.$inferSelect;

let seq = 0;
const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

/** The workspace's default category and location ids (every workspace is provisioned with both). */
export async function defaults(t: TestTenant): Promise<{ categoryId: string; locationId: string }> {
  const db = await dbOf(t);
  const cat = await db
    .select()
    .from(categories)
    .where(and(eq(categories.isDefault, true), isNull(categories.deletedAt)))
    .get();
  const loc = await db
    .select()
    .from(locations)
    .where(and(eq(locations.isDefault, true), isNull(locations.deletedAt)))
    .get();
  if (!cat || !loc) throw new Error("workspace has no default category or location");
  return { categoryId: cat.id, locationId: loc.id };
}

/** A deletedAt/deletedBy pair, for rows that should start in the trash. */
export const trashed = (deletedAt = nowIso(), deletedBy = "usr_test") => ({ deletedAt, deletedBy });

export async function insertAsset(t: TestTenant, fields: Partial<AssetRow> = {}): Promise<AssetRow> {
  const now = nowIso();
  const refs =
    fields.categoryId && fields.locationId
      ? { categoryId: fields.categoryId, locationId: fields.locationId }
      : await defaults(t);
  const row: AssetRow = {
    id: newId("asset"),
    name: `Asset ${uniq()}`,
    uniqueTag: `TAG-${uniq()}`,
    serialNumber: null,
    model: null,
    manufacturer: null,
    ...refs,
    status: "available",
    assigneeId: null,
    assignedAt: null,
    dueBackAt: null,
    reservedUntil: null,
    reservationReason: null,
    purchaseDate: null,
    purchaseCostMinor: null,
    currency: null,
    warrantyExpiresAt: null,
    notes: null,
    customFields: {},
    imageKey: null,
    lastVerifiedAt: null,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    deletedBy: null,
    holderKind: null,
    holderId: null,
    holderName: null,
    requestable: false,
    ...fields,
  };
  // A row inserted as held by a person (assigneeId) gets the matching holder, as a checkout would write it.
  if (row.assigneeId && !fields.holderId) Object.assign(row, { holderKind: "person", holderId: row.assigneeId });
  await (await dbOf(t)).insert(assets).values(row).run();
  return row;
}

export async function insertPerson(t: TestTenant, fields: Partial<PersonRow> = {}): Promise<PersonRow> {
  const now = nowIso();
  const row: PersonRow = {
    id: newId("person"),
    name: `Person ${uniq()}`,
    email: null,
    employeeNumber: null,
    department: null,
    costCenter: null,
    externalId: null,
    managerId: null,
    title: null,
    phone: null,
    locationId: null,
    notes: null,
    status: "active",
    customFields: {},
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    deletedBy: null,
    ...fields,
  };
  await (await dbOf(t)).insert(people).values(row).run();
  return row;
}

/** A closed assignment, a status event, a timeline row and an audit row of `assetId`: its owned history. */
export async function insertAssetHistory(t: TestTenant, assetId: string, person: { id: string; name: string }) {
  const now = nowIso();
  const db = await dbOf(t);
  await db.batch([
    db.insert(assignments).values({
      id: newId("assignment"),
      assetId,
      personId: person.id,
      personName: person.name,
      checkedOutAt: now,
      checkedOutBy: "usr_test",
      dueBackAt: null,
      checkedInAt: now,
      checkedInBy: "usr_test",
      checkinReason: "checkin",
    }),
    db.insert(assetStatusEvents).values({
      id: newId("statusEvent"),
      assetId,
      fromStatus: "available",
      toStatus: "maintenance",
      reason: null,
      meta: null,
      actor: "usr_test",
      at: now,
    }),
    db
      .insert(assetTimeline)
      .values({ id: newId("timeline"), assetId, type: "CREATED", at: now, actor: "usr_test", data: {} }),
    insertAudit(db, "asset", assetId),
  ]);
}

/** Stored health, last-audit row, a maintenance schedule with a reminder, and a maintenance log of `assetId`. */
export async function insertAssetUpkeep(t: TestTenant, assetId: string) {
  const now = nowIso();
  const day = now.slice(0, 10);
  const db = await dbOf(t);
  const scheduleId = newId("maintenanceSchedule");
  await db.batch([
    db.insert(assetHealth).values({ assetId, score: 90, badge: "HEALTHY", reasons: [], basis: "", computedAt: now }),
    db
      .insert(assetLastAudit)
      .values({ assetId, sessionId: newId("session"), sessionName: "Audit", completedAt: now, found: true }),
    db.insert(maintenanceSchedules).values({
      id: scheduleId,
      itemId: assetId,
      title: "Service",
      type: "service",
      anchorDate: day,
      nextDueDate: day,
      reminderDays: 3,
      remindFrom: day,
      createdBy: "usr_test",
      createdAt: now,
      updatedAt: now,
    }),
    db.insert(maintenanceReminders).values({ scheduleId, day, kind: "due", createdAt: now }),
    db.insert(maintenanceLogs).values({
      id: newId("maintenanceLog"),
      itemId: assetId,
      scheduleId,
      type: "service",
      completedDate: now,
      performedBy: "usr_test",
      createdAt: now,
      updatedAt: now,
    }),
  ]);
}

/** A recurring inventory-session schedule, e.g. scoped to a category or location. */
export async function insertSessionSchedule(t: TestTenant, fields: Partial<typeof sessionSchedules.$inferInsert> = {}) {
  const now = nowIso();
  const row = {
    id: newId("sessionSchedule"),
    name: `Schedule ${uniq()}`,
    every: 1,
    unit: "week" as const,
    anchorAt: now,
    nextRunAt: now,
    createdBy: "usr_test",
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
  await (await dbOf(t)).insert(sessionSchedules).values(row).run();
  return row;
}

export function insertAudit(db: Awaited<ReturnType<typeof dbOf>>, entityType: string, entityId: string) {
  return db.insert(auditLog).values({
    id: newId("audit"),
    entityType,
    entityId,
    action: "update",
    field: "name",
    oldValue: "a",
    newValue: "b",
    actor: "usr_test",
    at: nowIso(),
  });
}

/** Counts of the rows an asset owns (reminders: those of its schedules; count them before the schedules go), for asserting a purge removed them (or left them alone). */
export async function assetHistoryCounts(t: TestTenant, assetId: string) {
  const db = await dbOf(t);
  const n = async (q: Promise<unknown[]>) => (await q).length;
  return {
    assignments: await n(db.select().from(assignments).where(eq(assignments.assetId, assetId)).all()),
    statusEvents: await n(db.select().from(assetStatusEvents).where(eq(assetStatusEvents.assetId, assetId)).all()),
    timeline: await n(db.select().from(assetTimeline).where(eq(assetTimeline.assetId, assetId)).all()),
    audit: await n(
      db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entityType, "asset"), eq(auditLog.entityId, assetId)))
        .all(),
    ),
    health: await n(db.select().from(assetHealth).where(eq(assetHealth.assetId, assetId)).all()),
    lastAudit: await n(db.select().from(assetLastAudit).where(eq(assetLastAudit.assetId, assetId)).all()),
    schedules: await n(db.select().from(maintenanceSchedules).where(eq(maintenanceSchedules.itemId, assetId)).all()),
    reminders: await n(
      db
        .select()
        .from(maintenanceReminders)
        .innerJoin(maintenanceSchedules, eq(maintenanceSchedules.id, maintenanceReminders.scheduleId))
        .where(eq(maintenanceSchedules.itemId, assetId))
        .all(),
    ),
    logs: await n(db.select().from(maintenanceLogs).where(eq(maintenanceLogs.itemId, assetId)).all()),
  };
}
