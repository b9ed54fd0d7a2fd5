import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Quick-add events (docs/analytics.md#quick-add-events): client analytics of the quick-add flow, stored per user and flow. */
export const QUICK_ADD_EVENTS = [
  "quick_add_opened",
  "asset_created_quick",
  "asset_assigned",
  "advanced_opened",
] as const;
export type QuickAddEventName = (typeof QUICK_ADD_EVENTS)[number];

export const quickAddEvents = sqliteTable(
  "quick_add_events",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    flowId: text("flow_id").notNull(),
    event: text("event", { enum: QUICK_ADD_EVENTS }).notNull(),
    itemId: text("item_id"),
    meta: text("meta", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("quick_add_events_flow_idx").on(t.userId, t.flowId, t.id)],
);
