import type { RouteRule } from "./route-rule";

// The rule's shape lives in route-rule.ts; importers of the table get it from here too.
export type { Access, RouteRule } from "./route-rule";
export { acceptsIdempotencyKey } from "./route-rule";

import { IDENTITY_POLICY } from "./policy-identity";
import { LABEL_POLICY } from "./policy-labels";
import { LICENCE_POLICY } from "./policy-licences";
import { NOTIFICATION_POLICY } from "./policy-notifications";
import { STOCK_POLICY } from "./policy-stock";
import { CUSTODY, MANAGERS } from "./policy-terms";

const WEBHOOKS = { access: "jwt", roles: MANAGERS, feature: "webhooks" } as const;

/**
 * The route-policy table: for every operation (by operationId), which credentials it accepts,
 * which roles and which plan feature it needs. It is the one place this is decided; `defineRoute`
 * reads it to build both the guard middleware and the OpenAPI `security` of each route, and the
 * shared security suite checks every documented route against it.
 */
export const ROUTE_POLICY = {
  // Auth and users (tenant host)
  login: { access: "tenantPublic", throttled: true },
  // Not throttled per address: a refresh token is a 256-bit secret nobody guesses, and a budget per
  // address signed out everyone behind one address (an office's NAT) who opened the app in the same
  // minute (docs/auth.md).
  refreshToken: { access: "tenantPublic" },
  logout: { access: "tenantPublic" },
  acceptInvite: { access: "tenantPublic", throttled: true },
  requestPasswordReset: { access: "tenantPublic", throttled: true },
  confirmPasswordReset: { access: "tenantPublic", throttled: true },
  getMe: { access: "jwt", selfService: true },
  getMyPermissions: { access: "jwt", selfService: true },
  listUsers: { access: "jwt", roles: MANAGERS },
  updateUser: { access: "jwt", roles: MANAGERS },
  listInvites: { access: "jwt", roles: MANAGERS },
  createInvite: { access: "jwt", roles: MANAGERS, issuesSecret: true },
  revokeInvite: { access: "jwt", roles: MANAGERS },
  listApiKeys: { access: "jwt", roles: MANAGERS },
  createApiKey: { access: "jwt", roles: MANAGERS, issuesSecret: true },
  revokeApiKey: { access: "jwt", roles: MANAGERS },

  // Platform admin (admin host)
  adminLogin: { access: "adminPublic", throttled: true },
  adminLogout: { access: "adminPublic" },
  adminListTenants: { access: "admin" },
  adminListShards: { access: "admin" },
  adminCreateTenant: { access: "admin" },
  adminGetTenant: { access: "admin" },
  adminUpdateTenant: { access: "admin" },
  adminExportTenant: { access: "admin" },
  adminDeleteTenant: { access: "admin" },
  adminMoveTenant: { access: "admin" },
  adminGetTenantMove: { access: "admin" },

  // Categories and locations (docs/categories-and-locations.md)
  listCategories: { access: "data", scope: "categories:read" },
  getDefaultCategory: { access: "data", scope: "categories:read" },
  getCategory: { access: "data", scope: "categories:read" },
  createCategory: { access: "data", scope: "categories:write" },
  updateCategory: { access: "data", scope: "categories:write" },
  deleteCategory: { access: "data", scope: "categories:write" },
  restoreCategory: { access: "data", scope: "categories:write" },
  listLocations: { access: "data", scope: "locations:read" },
  getDefaultLocation: { access: "data", scope: "locations:read" },
  getLocation: { access: "data", scope: "locations:read" },
  createLocation: { access: "data", scope: "locations:write" },
  updateLocation: { access: "data", scope: "locations:write" },
  deleteLocation: { access: "data", scope: "locations:write" },
  restoreLocation: { access: "data", scope: "locations:write" },

  // Assets (docs/assets.md): API keys accepted.
  listInventoryItems: { access: "data", scope: "inventory-items:read", selfService: true },
  getInventoryItemByTag: { access: "data", scope: "inventory-items:read", selfService: true },
  createInventoryItem: { access: "data", scope: "inventory-items:write" },
  getInventoryItem: { access: "data", scope: "inventory-items:read", selfService: true },
  updateInventoryItem: { access: "data", scope: "inventory-items:write" },
  deleteInventoryItem: { access: "data", scope: "inventory-items:write" },
  restoreInventoryItem: { access: "data", scope: "inventory-items:write" },
  changeInventoryItemStatus: { access: "data", scope: "inventory-items:write" },
  getAllowedStatusTransitions: { access: "data", scope: "inventory-items:read" },
  checkoutInventoryItem: { access: "data", scope: "inventory-items:write" },
  checkinInventoryItem: { access: "data", scope: "inventory-items:write" },
  bulkInventoryItems: { access: "data", scope: "inventory-items:write" },
  listInventoryItemStatusEvents: { access: "data", scope: "inventory-items:read" },
  listInventoryItemAssignmentHistory: { access: "data", scope: "inventory-items:read" },
  listInventoryItemAudit: { access: "data", scope: "inventory-items:read" },
  listInventoryItemTimeline: { access: "data", scope: "inventory-items:read" },
  // Bookings (docs/bookings.md): API keys accepted, as for assets.
  listBookings: { access: "data", scope: "bookings:read", selfService: true },
  listAvailableInventoryItems: { access: "data", scope: "bookings:read" },
  createBooking: { access: "data", scope: "bookings:write" },
  getBooking: { access: "data", scope: "bookings:read", selfService: true },
  updateBooking: { access: "data", scope: "bookings:write" },
  cancelBooking: { access: "data", scope: "bookings:write" },
  pickUpBooking: { access: "data", scope: "bookings:write", alsoScope: CUSTODY },
  returnBooking: { access: "data", scope: "bookings:write", alsoScope: CUSTODY },
  ...LICENCE_POLICY,
  // Kits (docs/bookings.md#kits): API keys accepted, as for assets.
  listKits: { access: "data", scope: "kits:read", selfService: true },
  createKit: { access: "data", scope: "kits:write" },
  getKit: { access: "data", scope: "kits:read" },
  updateKit: { access: "data", scope: "kits:write" },
  deleteKit: { access: "data", scope: "kits:write" },
  restoreKit: { access: "data", scope: "kits:write" },
  addKitMembers: { access: "data", scope: "kits:write" },
  removeKitMember: { access: "data", scope: "kits:write" },
  checkoutKit: { access: "data", scope: "kits:write", alsoScope: CUSTODY },
  checkinKit: { access: "data", scope: "kits:write", alsoScope: CUSTODY },
  ...STOCK_POLICY,
  // Requests (docs/requests.md): anyone asks (the self-service role for requestable assets), sees and cancels
  // their own; owners and admins see the queue and answer. JWT only: a request is a person's.
  createRequest: { access: "jwt", selfService: true },
  listRequests: { access: "jwt", selfService: true },
  getRequest: { access: "jwt", selfService: true },
  cancelRequest: { access: "jwt", selfService: true },
  approveRequest: { access: "jwt", roles: MANAGERS },
  declineRequest: { access: "jwt", roles: MANAGERS },
  // Offboarding (docs/offboarding.md): owners and admins start and cancel a case; anyone but the
  // self-service role reads it (the field app's return list).
  listOffboardingCases: { access: "data", scope: "offboarding:read" },
  getOffboardingCase: { access: "data", scope: "offboarding:read" },
  listOffboardingCaseItems: { access: "data", scope: "offboarding:read" },
  startOffboarding: { access: "data", scope: "offboarding:write", roles: MANAGERS },
  cancelOffboardingCase: { access: "data", scope: "offboarding:write", roles: MANAGERS },
  // Calendar feeds (docs/bookings.md): a user's own feeds (JWT); the feed itself carries its secret in the
  // URL (calendar apps cannot send headers), checked in the handler, so it is tenantPublic.
  createCalendarFeed: { access: "jwt", issuesSecret: true },
  listCalendarFeeds: { access: "jwt" },
  revokeCalendarFeed: { access: "jwt" },
  getCalendarFeed: { access: "tenantPublic" },
  ...LABEL_POLICY,
  // Asset health (docs/health.md): reads are "data"; the workspace preset is a setting people change
  // in the product (JWT), owners and admins only.
  getInventoryItemHealth: { access: "data", scope: "inventory-items:read" },
  getInventoryItemsHealthBatch: { access: "data", scope: "inventory-items:read" },
  getHealthSettings: { access: "data", scope: "settings:read" },
  getSettings: { access: "data", scope: "settings:read" },
  updateSettings: { access: "jwt", roles: MANAGERS },
  updateCorsOrigins: { access: "jwt", roles: ["owner"] },
  updateHealthSettings: { access: "jwt", roles: MANAGERS },

  // People (docs/people.md). A deactivation checks the person's assets in and returns their stock, so the
  // routes that can deactivate (PATCH, bulk, import) also need CUSTODY from an API key: always, as
  // the rule is static (read before the body is), not only for the requests that deactivate.
  listPeople: { access: "data", scope: "people:read" },
  createPerson: { access: "data", scope: "people:write" },
  getPerson: { access: "data", scope: "people:read" },
  updatePerson: { access: "data", scope: "people:write", alsoScope: CUSTODY },
  deletePerson: { access: "data", scope: "people:write" },
  restorePerson: { access: "data", scope: "people:write" },
  bulkPeople: { access: "data", scope: "people:write", alsoScope: CUSTODY },
  getPersonAssignmentHistory: { access: "data", scope: "people:read" },

  // Custom fields (docs/custom-fields.md) and layouts (same "custom fields and layouts" group)
  listCustomFields: { access: "data", scope: "custom-fields:read" },
  getCustomField: { access: "data", scope: "custom-fields:read" },
  createCustomField: { access: "data", scope: "custom-fields:write" },
  updateCustomField: { access: "data", scope: "custom-fields:write" },
  deleteCustomField: { access: "data", scope: "custom-fields:write" },
  restoreCustomField: { access: "data", scope: "custom-fields:write" },
  listLayouts: { access: "data", scope: "custom-fields:read" },
  getDefaultLayout: { access: "data", scope: "custom-fields:read" },
  getLayout: { access: "data", scope: "custom-fields:read" },
  createLayout: { access: "data", scope: "custom-fields:write" },
  updateLayout: { access: "data", scope: "custom-fields:write" },
  deleteLayout: { access: "data", scope: "custom-fields:write" },

  // Trash (docs/trash.md): it holds the "data" groups' items, so it is "data" too.
  // Permanent deletion is irreversible: owners and admins (API keys act as admin).
  listTrash: { access: "data", scope: "trash:read" },
  restoreTrashItems: { access: "data", scope: "trash:write", alsoScope: CUSTODY },
  permanentlyDeleteTrashItems: { access: "data", scope: "trash:write", alsoScope: CUSTODY, roles: MANAGERS },
  // Inventory sessions (docs/sessions.md) and recurring session schedules (same group): API keys accepted.
  listSessions: { access: "data", scope: "sessions:read" },
  listActiveSessions: { access: "data", scope: "sessions:read" },
  getSession: { access: "data", scope: "sessions:read" },
  createSession: { access: "data", scope: "sessions:write" },
  updateSession: { access: "data", scope: "sessions:write" },
  deleteSession: { access: "data", scope: "sessions:write" },
  listSessionItems: { access: "data", scope: "sessions:read" },
  getSessionItem: { access: "data", scope: "sessions:read" },
  includeSessionItem: { access: "data", scope: "sessions:write" },
  excludeSessionItem: { access: "data", scope: "sessions:write" },
  listMissingSessionItems: { access: "data", scope: "sessions:read" },
  getSessionReport: { access: "data", scope: "sessions:read" },
  scanSessionItem: { access: "data", scope: "sessions:write" },
  scanSessionBatch: { access: "data", scope: "sessions:write" },
  unscanSessionItem: { access: "data", scope: "sessions:write" },
  getSessionMobile: { access: "data", scope: "sessions:read" },
  listSessionSchedules: { access: "data", scope: "sessions:read" },
  getSessionSchedule: { access: "data", scope: "sessions:read" },
  createSessionSchedule: { access: "data", scope: "sessions:write" },
  updateSessionSchedule: { access: "data", scope: "sessions:write" },
  deleteSessionSchedule: { access: "data", scope: "sessions:write" },

  // Scan events (docs/sessions.md): JWT only.
  getItemScanHistory: { access: "jwt" },

  // Feedback, files (`/objects`) and search: JWT only. The signed upload/view URLs carry their
  // own credential (an HMAC signature checked in the handler), so they are tenantPublic.
  submitFeedback: { access: "jwt" },
  createObjectUpload: { access: "jwt", issuesSecret: true },
  getObjectViewUrl: { access: "jwt" },
  uploadObject: { access: "tenantPublic" },
  viewObject: { access: "tenantPublic" },
  search: { access: "jwt" },

  // Maintenance (docs/maintenance.md): a "data" group, API keys accepted.
  listMaintenanceSchedules: { access: "data", scope: "maintenance:read" },
  listDueMaintenanceSchedules: { access: "data", scope: "maintenance:read" },
  listItemMaintenanceSchedules: { access: "data", scope: "maintenance:read" },
  createMaintenanceSchedule: { access: "data", scope: "maintenance:write" },
  getMaintenanceSchedule: { access: "data", scope: "maintenance:read" },
  updateMaintenanceSchedule: { access: "data", scope: "maintenance:write" },
  deleteMaintenanceSchedule: { access: "data", scope: "maintenance:write" },
  createMaintenanceLog: { access: "data", scope: "maintenance:write" },
  listItemMaintenanceLogs: { access: "data", scope: "maintenance:read" },
  listScheduleMaintenanceLogs: { access: "data", scope: "maintenance:read" },
  getMaintenanceLog: { access: "data", scope: "maintenance:read" },
  updateMaintenanceLog: { access: "data", scope: "maintenance:write" },
  deleteMaintenanceLog: { access: "data", scope: "maintenance:write" },

  ...NOTIFICATION_POLICY,

  // Analytics (docs/analytics.md): stats/analytics accepts API keys.
  getAnalyticsOverview: { access: "data", scope: "stats:read" },
  getAnalyticsStock: { access: "data", scope: "stats:read" },
  getAnalyticsSessions: { access: "data", scope: "stats:read" },
  getAnalyticsLifecycle: { access: "data", scope: "stats:read" },
  getAnalyticsMaintenance: { access: "data", scope: "stats:read" },
  getAnalyticsDepreciation: { access: "data", scope: "stats:read" },
  getAnalyticsReplacementLoss: { access: "data", scope: "stats:read" },
  listAnalyticsReports: { access: "data", scope: "stats:read" },
  // CSV exports and imports (docs/import-export.md): an export reads its group, an import writes
  // it; an import job's status and rows are `imports:read` (a job may hold assets or people).
  exportInventoryItems: { access: "data", scope: "inventory-items:read" },
  exportPeople: { access: "data", scope: "people:read" },
  exportSessionReport: { access: "data", scope: "sessions:read" },
  importInventoryItems: { access: "data", scope: "inventory-items:write" },
  importPeople: { access: "data", scope: "people:write", alsoScope: CUSTODY },
  // Stock CSV: read like the stock lists, written like the stock verbs.
  exportStockItems: { access: "data", scope: "stock:read" },
  exportStockMovements: { access: "data", scope: "stock:read" },
  exportLicenceProducts: { access: "data", scope: "licences:read" },
  exportLicenceLots: { access: "data", scope: "licences:read" },
  exportLicenceSeats: { access: "data", scope: "licences:read" },
  importStockItems: { access: "data", scope: "stock:write" },
  getImport: { access: "data", scope: "imports:read" },
  listImportRows: { access: "data", scope: "imports:read" },
  // Quick-add events (docs/analytics.md#quick-add-events): JWT only, stored per user.
  recordQuickAddEvent: { access: "jwt" },
  // TT10 report (docs/analytics.md#tt10-report): platform-admin cookie.
  adminGetTt10Report: { access: "admin" },
  // Webhooks (docs/webhooks.md): JWT only even with API access, owners and admins, Pro plan feature.
  listWebhookEndpoints: WEBHOOKS,
  createWebhookEndpoint: { ...WEBHOOKS, issuesSecret: true },
  getWebhookEndpoint: WEBHOOKS,
  updateWebhookEndpoint: WEBHOOKS,
  deleteWebhookEndpoint: WEBHOOKS,
  rotateWebhookEndpointSecret: { ...WEBHOOKS, issuesSecret: true },
  verifyWebhookEndpoint: WEBHOOKS,
  listWebhookEventTypes: WEBHOOKS,
  listWebhookDeliveries: WEBHOOKS,
  getWebhookDelivery: WEBHOOKS,
  replayWebhookDelivery: WEBHOOKS,
  replayWebhookEvent: WEBHOOKS,
  getWebhookHealth: WEBHOOKS,
  // Single sign-on (docs/sso.md). Configuration: the owner only, on every plan (the view says
  // whether the plan includes SSO). The bootstrap is public: an unknown host answers
  // {"exists": false} instead of 404. Sign-in routes check the plan themselves (403 on the
  // redirect helper, a page on callbacks), since browsers land on them.
  getSsoConfig: { access: "jwt", roles: ["owner"] },
  updateSsoConfig: { access: "jwt", roles: ["owner"] },
  deleteSsoConfig: { access: "jwt", roles: ["owner"] },
  getAuthBootstrap: { access: "public" },
  ssoLogin: { access: "tenantPublic", throttled: true },
  socialLogin: { access: "tenantPublic", throttled: true },
  getSamlMetadata: { access: "tenantPublic" },
  samlCallback: { access: "tenantPublic", throttled: true },
  oidcCallback: { access: "tenantPublic", throttled: true },
  ...IDENTITY_POLICY,
} as const satisfies Record<string, RouteRule>;

export type OperationId = keyof typeof ROUTE_POLICY;

export const ruleFor = (operationId: OperationId): RouteRule => ROUTE_POLICY[operationId];
