import {
  HealthBatchBody,
  HealthBatchResponse,
  HealthSchema,
  HealthSettingsSchema,
  UpdateHealthSettingsBody,
} from "../../domain/health-engine";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { ItemParams } from "../assets";
import * as svc from "./service";

const tags = ["Asset health"];

export const healthRouter = createRouter()
  .openapi(
    defineRoute({
      method: "post",
      path: "/inventory-items/health/batch",
      operationId: "getInventoryItemsHealthBatch",
      tags,
      summary: "Health of up to 200 inventory items",
      description:
        "Answers from the stored scores in one database statement whatever the count (ids travel as one JSON parameter); rows marked stale by a recent write are re-scored first, which adds a round. Ids that are not live items of this workspace are listed in `notFound`, never as errors.",
      request: body(HealthBatchBody),
      responses: { 200: json(HealthBatchResponse, "The items' health") },
    }),
    async (c) => c.json(await svc.batchHealth(c.var.db, c.req.valid("json").ids, svc.basisOfRequest(c)), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/inventory-items/{inventoryItemId}/health",
      operationId: "getInventoryItemHealth",
      tags,
      summary: "Health of an inventory item",
      description:
        "Score 0..100, badge and reasons (see HealthReasonCode). Stored and kept current by every write that changes a signal and by the cron for signals that change with time.",
      request: { params: ItemParams },
      responses: { 200: json(HealthSchema, "The item's health") },
    }),
    async (c) =>
      c.json(await svc.getItemHealth(c.var.db, c.req.valid("param").inventoryItemId, svc.basisOfRequest(c)), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/settings/health",
      operationId: "getHealthSettings",
      tags,
      summary: "Workspace health sensitivity",
      description:
        "The workspace's preset, what each preset means (thresholds, cut-offs, penalties) and how many assets still wait to be re-scored.",
      responses: { 200: json(HealthSettingsSchema, "The health settings") },
    }),
    async (c) => c.json(await svc.getHealthSettings(c), 200),
  )
  .openapi(
    defineRoute({
      method: "put",
      path: "/settings/health",
      operationId: "updateHealthSettings",
      tags,
      summary: "Change the workspace health sensitivity",
      description:
        "Re-scores every asset: up to 1,000 before answering, the rest in the background and by the cron (`rescore.pending` counts down to 0; single-item and batch health reads are exact meanwhile).",
      request: body(UpdateHealthSettingsBody),
      responses: { 200: json(HealthSettingsSchema, "The updated settings"), ...errorResponses(415) },
    }),
    async (c) => c.json(await svc.updateHealthSettings(c, c.req.valid("json").sensitivity), 200),
  );
