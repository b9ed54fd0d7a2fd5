import { z } from "@hono/zod-openapi";
import { createRouter, defineRoute, jsonContent } from "../../http/router";
import { pageOf, pageQuery } from "../../platform/pagination";
import { idParam, isoInstant } from "../../platform/schemas";
import { tt10Report } from "./tt10";

const Tt10Entry = z
  .object({
    userId: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: z.string(),
    status: z.string(),
    firstAssetCreatedAt: z.string().nullable().openapi({ description: "First asset the user created in the range." }),
    tenthAssignedAt: z
      .string()
      .nullable()
      .openapi({ description: "The user's tenth checkout in the range; null with fewer than ten." }),
    tt10Minutes: z
      .number()
      .nullable()
      .openapi({ description: "Minutes from firstAssetCreatedAt to tenthAssignedAt; null when either is missing." }),
    meetsTarget: z.boolean().openapi({ description: "tt10Minutes < 10; false when tt10Minutes is null." }),
  })
  .openapi("Tt10Entry");

const Tt10Report = pageOf(Tt10Entry, "Tt10ReportPage")
  .extend({
    tenantId: z.string(),
    from: z.string().nullable(),
    to: z.string().nullable(),
    targetMinutes: z.number(),
  })
  .openapi("Tt10Report");
export type Tt10Report = z.infer<typeof Tt10Report>;

const Tt10Query = z.object({
  from: isoInstant.optional().openapi({ description: "Only events at or after this instant (ISO 8601)." }),
  to: isoInstant
    .optional()
    .openapi({ description: "Only events before this instant (ISO 8601); must be after `from` (400)." }),
  ...pageQuery,
});

export const tt10Router = createRouter().openapi(
  defineRoute({
    method: "get",
    path: "/admin/tenants/{tenantId}/tt10-report",
    operationId: "adminGetTt10Report",
    tags: ["Platform admin"],
    summary: "Time-to-ten report of a workspace",
    description:
      "One entry per user of the workspace (by user id, paginated): first asset created, tenth assignment (checkout), `tt10Minutes` and `meetsTarget` (tt10Minutes < 10). Users without ten assignments are listed with nulls and `meetsTarget: false`. 404 for an unknown workspace.",
    request: {
      params: z.object({ tenantId: idParam("tenantId", "ten_01jd3k4m5n6p7q8r9s0t1v2w3x") }),
      query: Tt10Query,
    },
    responses: { 200: jsonContent(Tt10Report, "The report") },
  }),
  async (c) => c.json(await tt10Report(c.env, c.req.valid("param").tenantId, c.req.valid("query")), 200),
);
