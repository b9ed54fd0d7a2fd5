import { eq } from "drizzle-orm";
import { tenants } from "../../../db/control/schema";
import { applyMigrations } from "../../../db/migrate";
import { TENANT_MIGRATIONS } from "../../../db/migrations.generated";
import type { Bindings } from "../../../env";
import { ApiError } from "../../../platform/errors";
import { rawTenantDb } from "../../../tenancy/pool";
import { claimDatabase } from "../../../tenancy/provision";
import { controlDb } from "../../../tenancy/registry";
import { wipeDatabase } from "../../../tenancy/retire";
import { sessionObject } from "../../sessions";
import { FAULT_COPY, FAULT_STALL, FAULT_SWITCH, FAULT_SWITCH_STALL, faultsOn, injectedFault, stall } from "./faults";
import type { MoveTarget } from "./peers";
import { reservationSlug } from "./peers";
import { migrationTriggers, quoted, runInBatches, writeStatements } from "./tables";

/**
 * The destination shard's side of a move: it reserves a pool database (a registry row that stays
 * `provisioning`, so no new workspace claims it), migrates it and takes its triggers off while
 * rows arrive (the rows come with what the triggers would derive: FTS rows, analytics rollups),
 * and puts the source's triggers back at the end. Every step can be repeated.
 */
export function moveReceiver(env: Bindings): Omit<MoveTarget, "enqueue" | "fill" | "moveResume"> {
  return {
    async moveInBegin({ moveId }) {
      const slug = reservationSlug(moveId, "to");
      const control = controlDb(env);
      const held = await control.select().from(tenants).where(eq(tenants.slug, slug)).get();
      const row = held ?? (await claimDatabase(env, { slug, plan: "free" }));
      const db = rawTenantDb(env, row.dbBinding);
      await applyMigrations(db, TENANT_MIGRATIONS);
      if (!held && (await db.prepare(`SELECT 1 FROM users LIMIT 1`).first())) {
        await control.delete(tenants).where(eq(tenants.id, row.id)).run();
        throw new ApiError("service_unavailable", `Pool database ${row.dbBinding} is not empty`);
      }
      const triggers = await migrationTriggers(db);
      await runInBatches(
        db,
        triggers.map((t) => db.prepare(`DROP TRIGGER IF EXISTS ${quoted(t.name)}`)),
      );
      return { binding: row.dbBinding };
    },

    async moveInRows({ binding, table, rows, rowids }) {
      // The cue is an asset's current name (its history may keep an old one).
      if (faultsOn(env) && table.name === "assets") {
        const page = JSON.stringify(rows);
        if (page.includes(FAULT_COPY)) throw injectedFault(`a page of ${table.name}`);
        if (page.includes(FAULT_STALL)) await stall();
      }
      const db = rawTenantDb(env, binding);
      await runInBatches(db, writeStatements(db, table, rows, rowids), 20);
      return rows.length;
    },

    async moveInSessions({ tenantId, binding, sessions }) {
      for (const s of sessions) await sessionObject({ env, tenantId }, s.sessionId).restore(s.snapshot, binding);
    },

    async moveInFinish({ binding, triggers }) {
      const db = rawTenantDb(env, binding);
      if (faultsOn(env)) {
        const cue = async (name: string) =>
          !!(await db.prepare(`SELECT 1 FROM assets WHERE name = ?`).bind(name).first());
        if (await cue(FAULT_SWITCH)) throw injectedFault("the end of the switch");
        if (await cue(FAULT_SWITCH_STALL)) await stall();
      }
      await runInBatches(
        db,
        triggers.map((t) =>
          db.prepare(t.sql.replace(/^CREATE TRIGGER (?!IF NOT EXISTS)/i, "CREATE TRIGGER IF NOT EXISTS ")),
        ),
      );
    },

    async moveInAbort({ moveId, tenantId, sessionIds }) {
      for (const id of sessionIds) await sessionObject({ env, tenantId }, id).destroy();
      // Only the database this move reserved is wiped, found by its reservation.
      const control = controlDb(env);
      const held = await control
        .select()
        .from(tenants)
        .where(eq(tenants.slug, reservationSlug(moveId, "to")))
        .get();
      if (!held) return;
      await wipeDatabase(rawTenantDb(env, held.dbBinding));
      await control.delete(tenants).where(eq(tenants.id, held.id)).run();
    },
  };
}
