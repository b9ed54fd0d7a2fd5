import { eq } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { quickAddEvents } from "../../db/tenant/quick-add";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { invalidField } from "../../platform/errors";
import { newId } from "../../platform/ids";
import type { QuickAddEventInput } from "./schemas";

/** Stores one quick-add event for the signed-in user (the route is JWT only, so the actor is a user id). */
export async function recordQuickAddEvent(ctx: ServiceCtx, input: QuickAddEventInput) {
  // The item must be this workspace's (another workspace's id is simply unknown here): a 400 naming it.
  if (input.itemId) {
    const item = await ctx.db.select({ id: assets.id }).from(assets).where(eq(assets.id, input.itemId)).get();
    if (!item) throw invalidField("body.itemId", "no inventory item with this id in this workspace");
  }
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
