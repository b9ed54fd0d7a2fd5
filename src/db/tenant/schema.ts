// The tenant database schema: one file per aggregate, re-exported here for drizzle and drizzle-kit.

export * from "./assets";
export * from "./audit";
export * from "./bookings";
export * from "./catalog";
export * from "./custom-fields";
export * from "./feedback";
export * from "./health";
export * from "./idempotency";
export * from "./import-export";
export * from "./kits";
export * from "./maintenance";
export * from "./notification-delivery";
export * from "./notifications";
export * from "./outbox";
export * from "./people";
export * from "./quick-add";
export * from "./requests";
export * from "./sessions";
export * from "./sso";
export * from "./stock";
export * from "./sync";
export * from "./users";
export * from "./webhooks";
