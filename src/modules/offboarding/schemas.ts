import { z } from "@hono/zod-openapi";
import {
  OFFBOARDING_ITEM_KINDS,
  OFFBOARDING_ITEM_STATES,
  OFFBOARDING_SOURCES,
  OFFBOARDING_STATES,
} from "../../db/tenant/offboarding";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { idParam, isoInstant } from "../../platform/schemas";

export const tags = ["Offboarding"];

export const CaseParams = z.object({ caseId: idParam("caseId", "obc_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export const StartOffboardingBody = z
  .strictObject({
    personId: z.string().min(1).max(64).openapi({ example: "per_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    dueAt: isoInstant.optional().openapi({
      description:
        "When everything should be back; in the future. Default: now plus the workspace's offboardingDueDays (GET /settings).",
    }),
  })
  .openapi("StartOffboarding");

export const ListCasesQuery = z.object({
  ...pageQuery,
  state: z.enum(OFFBOARDING_STATES).optional().openapi({ description: "Only cases in this state." }),
  personId: z.string().min(1).max(64).optional().openapi({ description: "Only this person's cases." }),
});

export const ListItemsQuery = z.object({
  ...pageQuery,
  state: z.enum(OFFBOARDING_ITEM_STATES).optional().openapi({ description: "Only items in this state." }),
});

export const OffboardingCaseSchema = z
  .object({
    id: z.string().openapi({ example: "obc_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    personId: z.string(),
    personName: z.string().nullable(),
    state: z.enum(OFFBOARDING_STATES).openapi({
      description:
        "`open` while items are out; `closed` when everything came back (the person is then deactivated); `cancelled` by re-provisioning or an admin.",
    }),
    source: z.enum(OFFBOARDING_SOURCES).openapi({ description: "Who started it: an admin, or SCIM deprovisioning." }),
    requestId: z.string().nullable().openapi({ description: "The HTTP (or SCIM) request that started it." }),
    dueAt: z.string(),
    startedBy: z.string(),
    startedAt: z.string(),
    overdueAt: z.string().nullable().openapi({ description: "When the cron found it past due with items out." }),
    closedAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    cancelledBy: z.string().nullable(),
    items: z
      .object({ total: z.int(), outstanding: z.int(), returned: z.int(), withdrawn: z.int() })
      .openapi({ description: "Counts of the case's items by state (GET …/items lists them)." }),
    receipt: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: "The closing record: what came back and when (null until closed)." }),
  })
  .openapi("OffboardingCase");

export const OffboardingItemSchema = z
  .object({
    kind: z.enum(OFFBOARDING_ITEM_KINDS).openapi({
      description: "`asset`, `kit`, `stock` (an open stock issue: itemId is the issue movement) or `request` (open).",
    }),
    itemId: z.string(),
    name: z.string(),
    reference: z
      .string()
      .nullable()
      .openapi({ description: "An asset's tag (to scan); a stock issue's stock item id." }),
    parentAssetId: z
      .string()
      .nullable()
      .openapi({ description: "An asset inside another asset the person holds: that asset's id." }),
    quantity: z.int().nullable().openapi({ description: "Stock: the units out when the case started." }),
    state: z.enum(OFFBOARDING_ITEM_STATES).openapi({
      description:
        "`outstanding`; `returned` once back (checked in, returned, a request answered); `withdrawn` when the case was cancelled first.",
    }),
    returnedAt: z.string().nullable(),
  })
  .openapi("OffboardingItem");

export const CasePage = pageOf(OffboardingCaseSchema, "OffboardingCasePage");
export const ItemPage = pageOf(OffboardingItemSchema, "OffboardingItemPage");
export type OffboardingCase = z.infer<typeof OffboardingCaseSchema>;
export type OffboardingItem = z.infer<typeof OffboardingItemSchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const offboardingWebhookResources = { offboardingCase: OffboardingCaseSchema } satisfies WebhookResources;
