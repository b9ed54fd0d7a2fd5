import { eq, sql } from "drizzle-orm";
import { tenants } from "../../db/control/schema";
import type { Bindings } from "../../env";
import { nowIso } from "../../platform/clock";
import { invalidField } from "../../platform/errors";
import { controlDb, type TenantRecord } from "../../tenancy/registry";
import { normalizeOrigin } from "./cors";
import { toSettings } from "./view";

/** An IANA zone name the runtime knows, e.g. `Europe/Oslo`; `Intl` is the authority. */
export function checkTimezone(zone: string): string {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw invalidField("body.timezone", `unknown IANA time zone '${zone}'`);
  }
}

/** Sets the time zone and the request expiry with json_set, so other settings written concurrently are kept. */
export async function updateGeneralSettings(
  env: Bindings,
  tenant: TenantRecord,
  patch: { timezone?: string; requestExpiryDays?: number; offboardingDueDays?: number },
) {
  const next: Record<string, string | number> = {};
  if (patch.timezone !== undefined) next.timezone = checkTimezone(patch.timezone);
  if (patch.requestExpiryDays !== undefined) next.requestExpiryDays = patch.requestExpiryDays;
  if (patch.offboardingDueDays !== undefined) next.offboardingDueDays = patch.offboardingDueDays;
  const updatedAt = nowIso();
  const set = Object.entries(next).reduce(
    (acc, [k, v]) => sql`json_set(${acc}, ${`$.${k}`}, ${v})`,
    sql`${tenants.settings}`,
  );
  await controlDb(env).update(tenants).set({ settings: set, updatedAt }).where(eq(tenants.id, tenant.id)).run();
  return toSettings({ ...tenant, settings: { ...tenant.settings, ...next }, updatedAt });
}

/** Replaces the CORS allowlist (json_set keeps other settings written concurrently). */
export async function updateCorsOrigins(env: Bindings, tenant: TenantRecord, input: { origins: string[] }) {
  const origins = [...new Set(input.origins.map((o, i) => normalizeOrigin(o) ?? invalidOrigin(i, o)))];
  const updatedAt = nowIso();
  await controlDb(env)
    .update(tenants)
    .set({ settings: sql`json_set(${tenants.settings}, '$.corsOrigins', json(${JSON.stringify(origins)}))`, updatedAt })
    .where(eq(tenants.id, tenant.id))
    .run();
  return toSettings({ ...tenant, settings: { ...tenant.settings, corsOrigins: origins }, updatedAt });
}

const invalidOrigin = (i: number, value: string): never => {
  throw invalidField(
    `body.origins.${i}`,
    `'${value}' is not an origin: scheme, host and optional port, e.g. https://app.example.com (no path, no '*')`,
  );
};
