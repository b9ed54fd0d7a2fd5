import { z } from "@hono/zod-openapi";
import { HEALTH_BADGES, LINK_RELS, REASON_CODE_LIST, REASON_CODES, SEVERITIES } from "../../db/tenant/health";
import { PRESETS, SENSITIVITIES } from "./presets";

const codeTable = Object.entries(REASON_CODES)
  .map(([code, text]) => `- \`${code}\`: ${text}`)
  .join("\n");

export const ReasonCodeSchema = z.enum(REASON_CODE_LIST).openapi("HealthReasonCode", {
  description: `Why the score is what it is. Signals are read only when their data exists.\n\n${codeTable}`,
  "x-enumDescriptions": REASON_CODES,
});

export const BadgeSchema = z.enum(HEALTH_BADGES).openapi("HealthBadge", {
  description:
    "From the score and the workspace preset's cut-offs (`AT_RISK` below `atRiskBelow`, `ATTENTION` below `attentionBelow`); `LOST` is always `AT_RISK`.",
});

export const HealthReasonSchema = z
  .object({
    code: ReasonCodeSchema,
    severity: z.enum(SEVERITIES).openapi({ description: "`critical` (hard fail), `warning` or `info`." }),
    message: z.string().openapi({ example: "Maintenance 'Filter change' was due on 2026-11-01" }),
    penalty: z.number().int().openapi({
      description: "Points this reason took off the score (per the workspace preset); 0 for LOST and RETIRED.",
      example: 35,
    }),
    links: z
      .array(
        z.object({
          rel: z.enum(LINK_RELS),
          id: z.string(),
          href: z.string().openapi({ example: "/api/v1/maintenance/schedules/mts_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
        }),
      )
      .optional()
      .openapi({
        description: "What the reason is about: the schedule, the session, the category, the person holding it.",
      }),
  })
  .openapi("HealthReason");

export const HealthSchema = z
  .object({
    score: z.number().int().min(0).max(100).openapi({ example: 65 }),
    badge: BadgeSchema,
    reasons: z.array(HealthReasonSchema).openapi({
      description: "Largest penalty first (LOST and RETIRED lead when present); empty when nothing applies.",
    }),
    computedAt: z.string().openapi({ description: "When this result was computed." }),
  })
  .openapi("AssetHealth");

export const ItemHealthSchema = HealthSchema.extend({
  id: z.string().openapi({ example: "ast_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
}).openapi("InventoryItemHealth");

export const MAX_BATCH_IDS = 200;

export const HealthBatchBody = z
  .strictObject({
    ids: z
      .array(z.string().min(1).max(64))
      .min(1, "at least 1 id")
      .max(MAX_BATCH_IDS, `at most ${MAX_BATCH_IDS} ids`)
      .openapi({
        description: `1..${MAX_BATCH_IDS} inventory item ids; duplicates are answered once.`,
        example: ["ast_01jd3k4m5n6p7q8r9s0t1v2w3x"],
      }),
  })
  .openapi("InventoryItemHealthBatchRequest");

export const HealthBatchResponse = z
  .object({
    items: z.array(ItemHealthSchema).openapi({ description: "In request order." }),
    notFound: z.array(z.string()).openapi({
      description:
        "Requested ids that are not live inventory items of this workspace (unknown, deleted or another workspace's).",
    }),
  })
  .openapi("InventoryItemHealthBatch");

export const SensitivitySchema = z
  .enum(SENSITIVITIES)
  .openapi("HealthSensitivity", { description: "Workspace health sensitivity preset; default `balanced`." });

const PresetSchema = z
  .object({
    maintenanceDueSoonDays: z
      .number()
      .int()
      .openapi({ description: "Maintenance counts as due soon from this many days before its due date." }),
    verificationStaleDays: z.number().int().openapi({
      description:
        "A verification older than this is stale; never verified this long after being added is flagged (when the workspace runs sessions).",
    }),
    warrantyExpiringDays: z
      .number()
      .int()
      .openapi({ description: "A warranty counts as expiring this many days before it ends." }),
    endOfLifeShare: z
      .number()
      .openapi({ description: "Nearing end of life once this share of the category's expected life has passed." }),
    attentionBelow: z.number().int().openapi({ description: "Scores below this are ATTENTION." }),
    atRiskBelow: z.number().int().openapi({ description: "Scores below this are AT_RISK." }),
    penalties: z
      .record(z.string(), z.number().int())
      .openapi({ description: "Points each reason code takes off 100." }),
  })
  .openapi("HealthPreset");

export const HealthSettingsSchema = z
  .object({
    sensitivity: SensitivitySchema,
    presets: z
      .object(
        Object.fromEntries(SENSITIVITIES.map((s) => [s, PresetSchema])) as Record<
          (typeof SENSITIVITIES)[number],
          typeof PresetSchema
        >,
      )
      .openapi({ description: "What every preset means.", example: PRESETS }),
    rescore: z.object({
      pending: z.number().int().openapi({
        description: "Assets still waiting to be re-scored (after a change of preset, time zone or a fan-out change).",
      }),
    }),
  })
  .openapi("HealthSettings");

export const UpdateHealthSettingsBody = z
  .strictObject({ sensitivity: SensitivitySchema })
  .openapi("UpdateHealthSettings");

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type AssetHealth = z.infer<typeof HealthSchema>;
export type InventoryItemHealthBatch = z.infer<typeof HealthBatchResponse>;
export type HealthSettings = z.infer<typeof HealthSettingsSchema>;
