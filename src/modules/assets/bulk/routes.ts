import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../../http/router";
import { serviceCtx } from "../../../http/service-context";
import { tags } from "../schemas";
import { BulkAssetBody, BulkResultSchema } from "./schemas";
import { bulkAssets, MAX_BULK_IDS } from "./service";

export const bulkRoutes = createRouter().openapi(
  defineRoute({
    method: "post",
    path: "/inventory-items/bulk",
    operationId: "bulkInventoryItems",
    tags,
    summary: "One action on many inventory items",
    description:
      `\`{ action, ids, ...the action's fields }\` for 1..${MAX_BULK_IDS} items: \`update\` (PATCH fields, also moving category or location), ` +
      "`status` (as POST .../status), `checkout` (to one person), `checkin`, `delete`, `restore`. Answers 200 with `items` " +
      "in request order: `{ id, ok, status, item? }`, or `{ id, ok: false, status, error }` with the status and error " +
      "envelope the single route would have answered. Every rule of the single routes holds; the items that pass are " +
      "written in one batch (a fixed number of D1 statements for any count). A `checkout` of items under an agreement " +
      "records ONE pending hand-over for all that move (items under two different category agreements: each answers " +
      "409, nothing moves; check them out separately); a `checkin` under an agreement that asks for a return signature " +
      "records one pending return hand-over per person the items come back from. `handovers` names them " +
      "(docs/handovers.md).",
    request: body(BulkAssetBody),
    responses: { 200: json(BulkResultSchema, "Per-item outcomes, in request order"), ...errorResponses(415) },
  }),
  async (c) => c.json(await bulkAssets(serviceCtx(c), c.req.valid("json"), c.var.requestId), 200),
);
