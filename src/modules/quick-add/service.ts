import { quickAddEvents } from "../../db/tenant/quick-add";
import { nowIso } from "../../platform/clock";
import { newId } from "../../platform/ids";
import type { ServiceCtx } from "../../http/service-context";
import type { QuickAddEventInput } from "./schemas";

/** Stores one quick-add event for the signed-in user (the route is JWT only, so the actor is a user id). */
export async function recordQuickAddEvent(ctx: ServiceCtx, input: QuickAddEventInput) {
  const row = {
    id: newId("quickAddEvent"),
    userId: ctx.actor,
    flowId: input.flowId,
    event: input.event,
    itemId: input.itemId ?? null,
    meta: input.meta ?? null,
    createdAt: nowIso(),
  };
  await ctx.db.insert(quickAddEvents).values(row).run();
  return row;
}
