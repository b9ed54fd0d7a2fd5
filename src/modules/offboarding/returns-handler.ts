import { eq } from "drizzle-orm";
import { offboardingCases } from "../../db/tenant/offboarding";
import type { EventHandler } from "../../events/consumer";
import { settingsOf } from "../../tenancy/registry";
import { OFFBOARDING_ACTOR } from "./reminders";
import { reconcileOpenCases } from "./returns";

/** Events after which a leaver may hold less: returns, check-ins, answered requests, a new (maybe empty) case. */
const RETURN_TYPES = new Set([
  "asset.checked_in",
  "asset.checked_out", // an asset moved from the leaver to another holder
  "asset.deleted",
  "asset.status_changed",
  "kit.checked_in",
  "stock.returned",
  "request.declined",
  "request.cancelled",
  "request.expired",
  "offboarding.started",
]);

/**
 * The Queue consumer's hook (src/event-handlers.ts): a return ticks the case off moments after it
 * is committed, however it was made (API, field app, bulk, a kit). Idempotent: reconciling compares
 * states, so a repeated event changes nothing. The cron reconciles too, should the Queue lag.
 */
export const offboardingReturns: EventHandler = async ({ db, tenant }, events) => {
  if (!events.some((e) => RETURN_TYPES.has(e.type))) return;
  const anyOpen = await db
    .select({ id: offboardingCases.id })
    .from(offboardingCases)
    .where(eq(offboardingCases.state, "open"))
    .limit(1)
    .get();
  if (!anyOpen) return;
  try {
    await reconcileOpenCases({ db, actor: OFFBOARDING_ACTOR, tenantId: tenant.id, settings: settingsOf(tenant) });
  } catch (err) {
    // Never hold up the other handlers (webhooks) of the batch: the cron reconciles again.
    console.error("offboarding reconcile failed; the cron retries", String(err));
  }
};
