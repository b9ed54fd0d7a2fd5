// The tenant database schema: one file per aggregate, re-exported here for drizzle and drizzle-kit.
export * from "./users";
export * from "./catalog";
export * from "./outbox";
export * from "./assets";
export * from "./people";
export * from "./custom-fields";
export * from "./audit";
export * from "./sessions";
export * from "./maintenance";
export * from "./notifications";
export * from "./feedback";
export * from "./health";
export * from "./quick-add";
export * from "./data-transfer";
export * from "./webhooks";
export * from "./sso";
export * from "./idempotency";
