import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ROLES } from "./users";

/**
 * SCIM 2.0 provisioning (docs/scim.md). The identity provider's view of a user or group is kept
 * as it sent it (`resource`, the SCIM JSON), so PATCH and filters work on exactly what it knows;
 * what it means here (a person, a workspace user with a role) is projected from it on each write.
 */

/** Bearer tokens an identity provider presents on /scim/v2; stored as a SHA-256 hash only. */
export const scimTokens = sqliteTable(
  "scim_tokens",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** First characters of the token, to tell tokens apart in lists. */
    prefix: text("prefix").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdBy: text("created_by"),
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("scim_tokens_hash_uq").on(t.tokenHash)],
);

export const scimUsers = sqliteTable(
  "scim_users",
  {
    id: text("id").primaryKey(),
    userName: text("user_name").notNull(),
    externalId: text("external_id"),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    /** The person this SCIM user is (a holder of equipment). */
    personId: text("person_id").notNull(),
    /** The workspace user a group mapping gave it, if any. */
    userId: text("user_id"),
    /** The SCIM resource as stored (RFC 7643 User with the enterprise extension), without `meta`. */
    resource: text("resource", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** meta.version: bumped on every write; If-Match compares it. */
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // userName is unique and case-insensitive (RFC 7643 section 4.1.1: caseExact false).
    uniqueIndex("scim_users_user_name_uq").on(sql`lower(${t.userName})`),
    index("scim_users_external_id_idx").on(t.externalId),
    index("scim_users_person_idx").on(t.personId),
  ],
);

export const scimGroups = sqliteTable(
  "scim_groups",
  {
    id: text("id").primaryKey(),
    displayName: text("display_name").notNull(),
    externalId: text("external_id"),
    /** The SCIM Group resource as stored, members included, without `meta`. */
    resource: text("resource", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("scim_groups_display_name_uq").on(sql`lower(${t.displayName})`)],
);

/**
 * What membership of a SCIM group gives (an admin setting): a role (a workspace user), a location
 * and a department for the person. A member of several groups gets the highest role among them.
 */
export const scimGroupMappings = sqliteTable(
  "scim_group_mappings",
  {
    id: text("id").primaryKey(),
    /** The group's displayName as the identity provider sends it (case-insensitive). */
    groupName: text("group_name").notNull(),
    role: text("role", { enum: ROLES }),
    locationId: text("location_id"),
    department: text("department"),
    createdBy: text("created_by"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("scim_group_mappings_group_uq").on(sql`lower(${t.groupName})`)],
);
