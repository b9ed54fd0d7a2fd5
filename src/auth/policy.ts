import type { Role } from "../db/tenant/users";
import type { PlanFeature } from "../tenancy/plans";

/**
 * How a route is reached:
 * - `public`: no tenant, no credential (OpenAPI document, docs).
 * - `tenantPublic`: tenant host, no credential (sign-in, refresh, invite acceptance).
 * - `data`: tenant host, `ApiKey` or `Bearer <JWT>` (SPEC 5: the resource groups open to API keys).
 * - `jwt`: tenant host, `Bearer <JWT>` only; an API key gets 403.
 * - `adminPublic` / `admin`: admin host; `admin` needs the platform-admin cookie.
 */
export type Access = "public" | "tenantPublic" | "data" | "jwt" | "adminPublic" | "admin";

export interface RouteRule {
  access: Access;
  /** Roles allowed; absent means every role. */
  roles?: readonly Role[];
  /** Plan feature the tenant needs (403 `plan_required` otherwise). */
  feature?: PlanFeature;
  /** Credential-guessing surface: limited per client address (429 with Retry-After). */
  throttled?: boolean;
}

const MANAGERS = ["owner", "admin"] as const;
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
  refreshToken: { access: "tenantPublic", throttled: true },
  logout: { access: "tenantPublic" },
  acceptInvite: { access: "tenantPublic", throttled: true },
  getMe: { access: "jwt" },
  listUsers: { access: "jwt", roles: MANAGERS },
  updateUser: { access: "jwt", roles: MANAGERS },
  listInvites: { access: "jwt", roles: MANAGERS },
  createInvite: { access: "jwt", roles: MANAGERS },
  revokeInvite: { access: "jwt", roles: MANAGERS },
  listApiKeys: { access: "jwt", roles: MANAGERS },
  createApiKey: { access: "jwt", roles: MANAGERS },
  revokeApiKey: { access: "jwt", roles: MANAGERS },

  // Platform admin (admin host)
  adminLogin: { access: "adminPublic", throttled: true },
  adminLogout: { access: "adminPublic" },
  adminListTenants: { access: "admin" },
  adminCreateTenant: { access: "admin" },
  adminGetTenant: { access: "admin" },
  adminUpdateTenant: { access: "admin" },
  adminExportTenant: { access: "admin" },
  adminDeleteTenant: { access: "admin" },

  // Categories and locations (SPEC 4.3)
  listCategories: { access: "data" },
  getDefaultCategory: { access: "data" },
  getCategory: { access: "data" },
  createCategory: { access: "data" },
  updateCategory: { access: "data" },
  deleteCategory: { access: "data" },
  restoreCategory: { access: "data" },
  listLocations: { access: "data" },
  getDefaultLocation: { access: "data" },
  getLocation: { access: "data" },
  createLocation: { access: "data" },
  updateLocation: { access: "data" },
  deleteLocation: { access: "data" },
  restoreLocation: { access: "data" },

  // Assets (SPEC 4.4): API keys accepted.
  listInventoryItems: { access: "data" },
  getInventoryItemByTag: { access: "data" },
  createInventoryItem: { access: "data" },
  getInventoryItem: { access: "data" },
  updateInventoryItem: { access: "data" },
  deleteInventoryItem: { access: "data" },
  restoreInventoryItem: { access: "data" },
  changeInventoryItemStatus: { access: "data" },
  getAllowedStatusTransitions: { access: "data" },
  checkoutInventoryItem: { access: "data" },
  checkinInventoryItem: { access: "data" },
  listInventoryItemStatusEvents: { access: "data" },
  listInventoryItemAssignmentHistory: { access: "data" },
  listInventoryItemAudit: { access: "data" },
  listInventoryItemTimeline: { access: "data" },
  // Asset health (SPEC 2.3, 4.4): reads are "data"; the workspace preset is a setting people change
  // in the product (JWT), owners and admins only.
  getInventoryItemHealth: { access: "data" },
  getInventoryItemsHealthBatch: { access: "data" },
  getHealthSettings: { access: "data" },
  getSettings: { access: "data" },
  updateSettings: { access: "jwt", roles: MANAGERS },
  updateCorsOrigins: { access: "jwt", roles: ["owner"] },
  updateHealthSettings: { access: "jwt", roles: MANAGERS },

  // People (SPEC 4.5)
  listPeople: { access: "data" },
  createPerson: { access: "data" },
  getPerson: { access: "data" },
  updatePerson: { access: "data" },
  deletePerson: { access: "data" },
  restorePerson: { access: "data" },
  getPersonAssignmentHistory: { access: "data" },

  // Custom fields (SPEC 4.8) and layouts (same "custom fields and layouts" group)
  listCustomFields: { access: "data" },
  getCustomField: { access: "data" },
  createCustomField: { access: "data" },
  updateCustomField: { access: "data" },
  deleteCustomField: { access: "data" },
  restoreCustomField: { access: "data" },
  listLayouts: { access: "data" },
  getDefaultLayout: { access: "data" },
  getLayout: { access: "data" },
  createLayout: { access: "data" },
  updateLayout: { access: "data" },
  deleteLayout: { access: "data" },

  // Trash (SPEC 4.12). SPEC 5 leaves API keys open; it holds the "data" groups' items, so "data".
  // Permanent deletion is irreversible: owners and admins (API keys act as admin).
  listTrash: { access: "data" },
  restoreTrashItems: { access: "data" },
  permanentlyDeleteTrashItems: { access: "data", roles: MANAGERS },
  // Inventory sessions (SPEC 4.6) and recurring session schedules (same group): API keys accepted.
  listSessions: { access: "data" },
  listActiveSessions: { access: "data" },
  getSession: { access: "data" },
  createSession: { access: "data" },
  updateSession: { access: "data" },
  deleteSession: { access: "data" },
  listSessionItems: { access: "data" },
  getSessionItem: { access: "data" },
  includeSessionItem: { access: "data" },
  excludeSessionItem: { access: "data" },
  listMissingSessionItems: { access: "data" },
  getSessionReport: { access: "data" },
  scanSessionItem: { access: "data" },
  scanSessionBatch: { access: "data" },
  unscanSessionItem: { access: "data" },
  getSessionMobile: { access: "data" },
  listSessionSchedules: { access: "data" },
  getSessionSchedule: { access: "data" },
  createSessionSchedule: { access: "data" },
  updateSessionSchedule: { access: "data" },
  deleteSessionSchedule: { access: "data" },

  // Scan events (SPEC 4.9, 5): JWT only.
  getItemScanHistory: { access: "jwt" },

  // Feedback, objects and search (SPEC 4.9, 5): JWT only. The signed upload/view URLs carry their
  // own credential (an HMAC signature checked in the handler), so they are tenantPublic.
  submitFeedback: { access: "jwt" },
  createObjectUpload: { access: "jwt" },
  getObjectViewUrl: { access: "jwt" },
  uploadObject: { access: "tenantPublic" },
  viewObject: { access: "tenantPublic" },
  search: { access: "jwt" },

  // Maintenance (SPEC 4.10): a "data" group, API keys accepted.
  listDueMaintenanceSchedules: { access: "data" },
  listItemMaintenanceSchedules: { access: "data" },
  createMaintenanceSchedule: { access: "data" },
  getMaintenanceSchedule: { access: "data" },
  updateMaintenanceSchedule: { access: "data" },
  deleteMaintenanceSchedule: { access: "data" },
  createMaintenanceLog: { access: "data" },
  listItemMaintenanceLogs: { access: "data" },
  listScheduleMaintenanceLogs: { access: "data" },
  getMaintenanceLog: { access: "data" },
  updateMaintenanceLog: { access: "data" },
  deleteMaintenanceLog: { access: "data" },

  // Notifications (SPEC 4.9, 5): JWT only; each user sees only their own. The realtime WebSocket
  // carries its own credential (a single-use ticket from createRealtimeTicket, checked in the
  // handler) because browsers cannot set headers on a WebSocket, so it is tenantPublic.
  listNotifications: { access: "jwt" },
  getUnreadNotificationCount: { access: "jwt" },
  markAllNotificationsRead: { access: "jwt" },
  updateNotification: { access: "jwt" },
  createRealtimeTicket: { access: "jwt" },
  openRealtimeChannel: { access: "tenantPublic" },

  // Analytics (SPEC 4.7, 5): stats/analytics accepts API keys.
  getAnalyticsOverview: { access: "data" },
  getAnalyticsSessions: { access: "data" },
  getAnalyticsLifecycle: { access: "data" },
  getAnalyticsMaintenance: { access: "data" },
  getAnalyticsDepreciation: { access: "data" },
  getAnalyticsReplacementLoss: { access: "data" },
  listAnalyticsReports: { access: "data" },
  // CSV exports and imports (SPEC 4.14 leaves them open): the data they move is the "data" groups'.
  exportInventoryItems: { access: "data" },
  exportPeople: { access: "data" },
  exportSessionReport: { access: "data" },
  importInventoryItems: { access: "data" },
  importPeople: { access: "data" },
  getImport: { access: "data" },
  listImportRows: { access: "data" },
  // Quick-add events (SPEC 2.7, 5): JWT only, stored per user.
  recordQuickAddEvent: { access: "jwt" },
  // TT10 report (SPEC 2.12, 4.13): platform-admin cookie.
  adminGetTt10Report: { access: "admin" },
  // Webhooks (SPEC 4.11, 5): JWT only even with API access, owners and admins, Pro plan feature.
  listWebhookEndpoints: WEBHOOKS,
  createWebhookEndpoint: WEBHOOKS,
  getWebhookEndpoint: WEBHOOKS,
  updateWebhookEndpoint: WEBHOOKS,
  deleteWebhookEndpoint: WEBHOOKS,
  rotateWebhookEndpointSecret: WEBHOOKS,
  verifyWebhookEndpoint: WEBHOOKS,
  listWebhookEventTypes: WEBHOOKS,
  listWebhookDeliveries: WEBHOOKS,
  getWebhookDelivery: WEBHOOKS,
  replayWebhookDelivery: WEBHOOKS,
  replayWebhookEvent: WEBHOOKS,
  getWebhookHealth: WEBHOOKS,
  // Single sign-on (SPEC 4.1, 4.2, 5). Configuration: the owner only, on every plan (the view says
  // whether the plan includes SSO). The bootstrap is public: an unknown host answers
  // {"exists": false} instead of 404. Sign-in routes check the plan themselves (403 on the
  // redirect helper, a page on callbacks), since browsers land on them.
  getSsoConfig: { access: "jwt", roles: ["owner"] },
  updateSsoConfig: { access: "jwt", roles: ["owner"] },
  getAuthBootstrap: { access: "public" },
  ssoLogin: { access: "tenantPublic", throttled: true },
  socialLogin: { access: "tenantPublic", throttled: true },
  getSamlMetadata: { access: "tenantPublic" },
  samlCallback: { access: "tenantPublic", throttled: true },
  oidcCallback: { access: "tenantPublic", throttled: true },
} as const satisfies Record<string, RouteRule>;

export type OperationId = keyof typeof ROUTE_POLICY;

export const ruleFor = (operationId: OperationId): RouteRule => ROUTE_POLICY[operationId];
