import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { bulkLots, bulkProducts, bulkSeats } from "./bulk";
import {
  BulkLicenceLotsBody,
  BulkLicenceLotsResult,
  BulkLicenceProductsBody,
  BulkLicenceProductsResult,
  BulkLicenceSeatsBody,
  BulkLicenceSeatsResult,
  MAX_BULK_LICENCES,
  tags,
} from "./schemas";

const OUTCOMES =
  "Answers 200 with `items` in request order: `{ id, ok, status, item? }`, or `{ id, ok: false, status, error }` with the status and error envelope the single route would have answered. Every rule of the single route holds; the ids that pass are written in one batch (a fixed number of D1 statements for any count), or, when one of them changed meanwhile, none of them (409 each: retry).";

/** One action on many products, lots or seats (docs/licences.md#bulk). */
export const licenceBulkRouter = createRouter()
  .openapi(
    defineRoute({
      method: "post",
      path: "/licence-products/bulk",
      operationId: "bulkLicenceProducts",
      tags,
      summary: "Delete or restore many software products",
      description: `\`{ action: "delete" | "restore", ids }\` for 1..${MAX_BULK_LICENCES} products, as DELETE /licence-products/{productId} (to the trash; a product with assigned seats is a 409) and POST .../restore. ${OUTCOMES}`,
      request: body(BulkLicenceProductsBody),
      responses: {
        200: json(BulkLicenceProductsResult, "Per-product outcomes, in request order"),
        ...errorResponses(415),
      },
    }),
    async (c) => c.json({ items: await bulkProducts(serviceCtx(c), c.req.valid("json"), c.var.requestId) }, 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/licence-lots/bulk",
      operationId: "bulkLicenceLots",
      tags,
      summary: "Delete many entitlements (lots)",
      description: `\`{ action: "delete", ids }\` for 1..${MAX_BULK_LICENCES} lots, as DELETE /licence-lots/{lotId} (a lot with assigned seats is a 409). ${OUTCOMES}`,
      request: body(BulkLicenceLotsBody),
      responses: { 200: json(BulkLicenceLotsResult, "Per-lot outcomes, in request order"), ...errorResponses(415) },
    }),
    async (c) => c.json({ items: await bulkLots(serviceCtx(c), c.req.valid("json"), c.var.requestId) }, 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/licence-seats/bulk",
      operationId: "bulkLicenceSeats",
      tags,
      summary: "Unassign many seats",
      description: `\`{ action: "unassign", ids }\` for 1..${MAX_BULK_LICENCES} seats, as POST /licence-seats/{seatId}/unassign (\`licence_seat.unassigned\` each; a seat already unassigned is a 409). ${OUTCOMES}`,
      request: body(BulkLicenceSeatsBody),
      responses: { 200: json(BulkLicenceSeatsResult, "Per-seat outcomes, in request order"), ...errorResponses(415) },
    }),
    async (c) => c.json({ items: await bulkSeats(serviceCtx(c), c.req.valid("json"), c.var.requestId) }, 200),
  );
