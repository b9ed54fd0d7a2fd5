import { eq } from "drizzle-orm";
import { tenants } from "../db/control/schema";
import { applyMigrations } from "../db/migrate";
import { TENANT_MIGRATIONS } from "../db/migrations.generated";
import { categories, locations } from "../db/tenant/catalog";
import { apiKeys, users } from "../db/tenant/users";
import type { Bindings } from "../env";
import { mintApiKey } from "../platform/api-key-token";
import { nowIso } from "../platform/clock";
import { randomToken } from "../platform/crypto";
import { isUniqueViolation } from "../platform/d1";
import { ApiError, conflict, invalidField } from "../platform/errors";
import { newId } from "../platform/ids";
import { hashPassword } from "../platform/passwords";
import { RESERVED_SLUGS } from "./host";
import type { Plan } from "./plans";
import { poolBindings, rawTenantDb, tenantDb } from "./pool";
import { controlDb, type TenantRecord } from "./registry";
import { shardName, shardRegion } from "./shard";

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,30}[a-z0-9])$/;
export const DEFAULT_CATEGORY_NAME = "General";
export const DEFAULT_LOCATION_NAME = "Main";

export interface ProvisionInput {
  slug: string;
  plan: Plan;
  ownerEmail: string;
  ownerPassword?: string;
  /** Where the router placed it by (src/router/shards.ts); this shard checks the jurisdiction is its own. */
  locationHint?: string;
  jurisdiction?: string;
}

export interface ProvisionResult {
  tenant: TenantRecord;
  owner: { id: string; email: string; password?: string };
  apiKey: string;
}

export function checkSlug(slug: string): void {
  if (!SLUG_PATTERN.test(slug)) {
    throw new ApiError(
      "validation_failed",
      "slug: 3-32 lowercase letters, digits or hyphens, not starting or ending with a hyphen",
      { details: [{ path: "body.slug", message: "invalid slug" }] },
    );
  }
  if (RESERVED_SLUGS.has(slug)) {
    throw new ApiError("validation_failed", `slug: '${slug}' is reserved`, {
      details: [{ path: "body.slug", message: "reserved" }],
    });
  }
}

/**
 * Creates a workspace: claims a free pool database (the registry's unique index on `db_binding`
 * settles races), migrates it with the bundled migrations, then seeds owner, first API key and the
 * default category and location in one atomic batch. On failure the claim is released.
 */
export async function provisionTenant(env: Bindings, input: ProvisionInput): Promise<ProvisionResult> {
  checkSlug(input.slug);
  // Data residency is a rule, not a preference: never create the workspace outside its jurisdiction.
  if (input.jurisdiction && input.jurisdiction !== shardRegion(env).jurisdiction)
    throw invalidField(
      "body.jurisdiction",
      `no shard of this deployment keeps its databases in '${input.jurisdiction}'`,
    );
  const control = controlDb(env);
  if (await control.select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, input.slug)).get()) {
    throw conflict(`The workspace '${input.slug}' already exists`);
  }
  const tenant = await claimDatabase(env, input);
  try {
    const raw = rawTenantDb(env, tenant.dbBinding);
    await applyMigrations(raw, TENANT_MIGRATIONS);
    const db = tenantDb(env, tenant.dbBinding);
    // A pool database must be empty before it serves a new tenant: never hand one tenant's data to another.
    if (await db.select({ id: users.id }).from(users).limit(1).get()) {
      throw new ApiError("service_unavailable", `Pool database ${tenant.dbBinding} is not empty`);
    }
    const now = nowIso();
    const password = input.ownerPassword ?? randomToken(12);
    const owner = {
      id: newId("user"),
      email: input.ownerEmail.toLowerCase(),
      name: null,
      role: "owner" as const,
      status: "active" as const,
      passwordHash: await hashPassword(password),
      lastLoginAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const key = await mintApiKey();
    await db.batch([
      db.insert(users).values(owner),
      db.insert(apiKeys).values({
        id: newId("apiKey"),
        name: "Initial key",
        prefix: key.prefix,
        keyHash: key.hash,
        createdBy: owner.id,
        createdAt: now,
      }),
      db.insert(categories).values({
        id: newId("category"),
        name: DEFAULT_CATEGORY_NAME,
        isDefault: true,
        createdAt: now,
        updatedAt: now,
      }),
      db.insert(locations).values({
        id: newId("location"),
        name: DEFAULT_LOCATION_NAME,
        isDefault: true,
        createdAt: now,
        updatedAt: now,
      }),
    ]);
    const active = { ...tenant, status: "active" as const, updatedAt: nowIso() };
    await control
      .update(tenants)
      .set({ status: "active", updatedAt: active.updatedAt })
      .where(eq(tenants.id, tenant.id))
      .run();
    return {
      tenant: active,
      owner: { id: owner.id, email: owner.email, ...(input.ownerPassword ? {} : { password }) },
      apiKey: key.token,
    };
  } catch (err) {
    await control.delete(tenants).where(eq(tenants.id, tenant.id)).run();
    throw err;
  }
}

/**
 * Inserts the registry row on this shard's first free pool binding; a lost race moves on to the next
 * one. A workspace move reserves its destination database this way too, with a row that never
 * leaves `provisioning` (src/modules/admin/move/).
 */
export async function claimDatabase(
  env: Bindings,
  input: Pick<ProvisionInput, "slug" | "plan">,
): Promise<TenantRecord> {
  const control = controlDb(env);
  const shard = shardName(env);
  const used = new Set(
    (await control.select({ b: tenants.dbBinding }).from(tenants).where(eq(tenants.shard, shard)).all()).map(
      (r) => r.b,
    ),
  );
  const now = nowIso();
  for (const binding of poolBindings(env).filter((b) => !used.has(b))) {
    const row: TenantRecord = {
      id: newId("tenant"),
      slug: input.slug,
      plan: input.plan,
      status: "provisioning",
      shard,
      dbBinding: binding,
      settings: {},
      createdAt: now,
      updatedAt: now,
    };
    try {
      await control.insert(tenants).values(row).run();
      return row;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (isUniqueViolation(err, "tenants.slug")) throw conflict(`The workspace '${input.slug}' already exists`);
    }
  }
  throw new ApiError(
    "service_unavailable",
    "No free workspace database in the pool; an operator must add pool databases (see README)",
  );
}
