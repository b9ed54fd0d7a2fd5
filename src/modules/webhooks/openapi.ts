import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { CATALOGUE, type CatalogueEntry, type Resource } from "../../domain/webhook-delivery";
// The resources the events carry, each schema imported through its module's front door (index.ts).
import { ApiKeySchema } from "../api-keys";
import { AssetSchema } from "../assets";
import { BookingSchema } from "../bookings";
import { KitSchema } from "../kits";
import { RequestSchema } from "../requests";
import { StockItemSchema, StockMovementSchema } from "../stock";
import { CategorySchema } from "../categories";
import { CustomFieldSchema } from "../custom-fields";
import { FeedbackSchema } from "../feedback";
import { LayoutSchema } from "../layouts";
import { LocationSchema } from "../locations";
import { LogSchema } from "../maintenance";
import { ScheduleSchema as MaintenanceScheduleSchema } from "../maintenance";
import { PersonSchema } from "../people";
import { ScheduleSchema as SessionScheduleSchema } from "../session-schedules";
import { ReportSchema } from "../sessions";
import { SessionSchema } from "../sessions";
import { InviteSchema, UserSchema } from "../users";

const looseObject = (name: string, description: string) =>
  z.record(z.string(), z.unknown()).openapi(name, { description });

const RESOURCES: Record<Resource, z.ZodType> = {
  asset: AssetSchema,
  booking: BookingSchema,
  kit: KitSchema,
  request: RequestSchema,
  stockItem: StockItemSchema,
  stockMovement: StockMovementSchema,
  stockLevel: z
    .object({
      itemId: z.string(),
      name: z.string(),
      tag: z.string(),
      unit: z.string(),
      locationId: z.string().nullable().openapi({ description: "Null: the item's total over all locations." }),
      quantity: z.number().int(),
      reorderLevel: z.number().int().nullable(),
    })
    .openapi("WebhookStockLevel"),
  person: PersonSchema,
  category: CategorySchema,
  location: LocationSchema,
  customField: CustomFieldSchema,
  layout: LayoutSchema,
  session: SessionSchema,
  sessionSchedule: SessionScheduleSchema,
  maintenanceSchedule: MaintenanceScheduleSchema,
  maintenanceLog: LogSchema,
  maintenanceReminder: looseObject(
    "WebhookMaintenanceReminder",
    "scheduleId, itemId, title, type, nextDueDate, dueStatus, daysUntilDue, day, recipients, notificationIds.",
  ),
  purged: z
    .object({
      id: z.string(),
      type: z.string(),
      name: z.string(),
      deletedAt: z.string().nullable(),
      deletedBy: z.string().nullable(),
      purgedAt: z.string(),
    })
    .openapi("WebhookPurgedItem"),
  feedback: FeedbackSchema,
  apiKey: ApiKeySchema,
  user: UserSchema,
  invite: InviteSchema,
  verification: z.object({ endpointId: z.string(), url: z.string() }).openapi("WebhookVerification"),
};

/**
 * `data` of an entry: the resource, plus what the entry adds: `changes` when the catalogue's
 * `extra` text starts by naming them (src/domain/webhook-delivery/catalogue.ts), a session's `report` when it names one.
 */
function dataSchema(e: CatalogueEntry): z.ZodType {
  const base = RESOURCES[e.resource];
  if (e.extra?.startsWith("`changes`: the names"))
    return z.intersection(
      base,
      z.object({ changes: z.array(z.string()).openapi({ description: "The fields that changed." }) }),
    );
  if (e.resource === "session" && e.extra?.includes("report"))
    return z.intersection(base, z.object({ report: ReportSchema }));
  return base;
}

const HEADERS = z.object({
  "webhook-id": z.string().openapi({
    description: "The event id: the same on every retry and replay; use it to drop duplicates.",
    example: "evt_01jd3k4m5n6p7q8r9s0t1v2w3x",
  }),
  "webhook-timestamp": z
    .string()
    .openapi({ description: "Unix seconds when this attempt was signed.", example: "1763900000" }),
  "webhook-signature": z.string().openapi({
    description: "Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`; two during a secret rotation.",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  }),
});

/**
 * The entry's operationId, from its event type: `asset.checked_out` → `onAssetCheckedOut`. Unique
 * as the types are, and apart from every route's (no route's id starts with `on` and a capital).
 */
export const webhookOperationId = (type: string) =>
  `on${type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("")}`;

/**
 * One entry per event type in the document's top-level `webhooks` (OpenAPI 3.1): what we POST to
 * an endpoint, and what we expect back (any 2xx within 15 s; 410 disables the endpoint).
 */
export function registerWebhookDocs(app: OpenAPIHono<AppEnv>): void {
  for (const e of CATALOGUE) {
    const payload = z.object({
      id: z.string().openapi({ description: "The event id (= `webhook-id`)." }),
      type: z.literal(e.type),
      timestamp: z.string().openapi({ description: "When the event happened (ISO 8601 UTC)." }),
      tenantId: z.string(),
      data: dataSchema(e),
    });
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: e.type,
      operationId: webhookOperationId(e.type),
      tags: ["Webhook events"],
      summary: e.description,
      description: `\`data\`: the ${e.resource} after the change.${e.extra ? ` Adds ${e.extra}` : ""}`,
      request: { headers: HEADERS, body: { required: true, content: { "application/json": { schema: payload } } } },
      responses: {
        200: { description: "Any 2xx within 15 s acknowledges the delivery." },
        410: { description: "Gone: the endpoint is disabled at once." },
        429: { description: "Retried after `Retry-After` (also honoured on 503)." },
      },
    });
  }
}
