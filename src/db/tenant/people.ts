import { sql } from "drizzle-orm";
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const PERSON_STATUSES = ["active", "deactivated"] as const;

/** People who can hold assets (not necessarily users of the workspace). */
export const people = sqliteTable(
  "people",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email"),
    employeeNumber: text("employee_number"),
    department: text("department"),
    costCenter: text("cost_center"),
    // The identity provider's id for this person (SCIM externalId): unique among live people.
    externalId: text("external_id"),
    // Another person of the workspace (a reporting line: reminders and access reviews go to them).
    managerId: text("manager_id"),
    title: text("title"),
    phone: text("phone"),
    locationId: text("location_id"),
    notes: text("notes"),
    status: text("status", { enum: PERSON_STATUSES }).notNull().default("active"),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    deletedAt: text("deleted_at"),
    deletedBy: text("deleted_by"),
  },
  (t) => [
    uniqueIndex("people_email_live_uq").on(sql`lower(${t.email})`).where(sql`deleted_at IS NULL AND email IS NOT NULL`),
    index("people_live_idx").on(t.deletedAt, t.status, t.id),
    // The list: live people of a status, by name (the cursor is lower(name), id).
    index("people_list_idx").on(t.status, sql`lower(${t.name})`, t.id).where(sql`deleted_at IS NULL`),
    // `q` is a case-insensitive prefix of name, email or employee number: one index range each.
    index("people_name_idx").on(sql`lower(${t.name})`, t.id),
    // Not the partial unique index: with the deleted_at term the planner prefers people_live_idx (a scan of all live people).
    index("people_email_idx").on(sql`lower(${t.email})`),
    uniqueIndex("people_external_id_live_uq")
      .on(t.externalId)
      .where(sql`deleted_at IS NULL AND external_id IS NOT NULL`),
    index("people_manager_idx").on(t.managerId),
    index("people_employee_number_idx").on(sql`lower(${t.employeeNumber})`),
  ],
);
