import { z } from "@hono/zod-openapi";
import { basisOf } from "../../../domain/health-engine";
import { HEADERS } from "../../../http/response-headers";
import { createRouter, defineRoute } from "../../../http/router";
import { idParam } from "../../../platform/schemas";
import { settingsOf } from "../../../tenancy/registry";
import { ListAssetsQuery } from "../../assets";
import { ListPeopleQuery } from "../../people";
import { sessionCtx } from "../../sessions";
import { ListAllMovementsQuery, ListStockItemsQuery } from "../../stock";
import { attachment, csvStream } from "../csv";
import { assetExport } from "./assets";
import {
  LICENCE_LOT_COLUMNS,
  LICENCE_PRODUCT_COLUMNS,
  LICENCE_SEAT_COLUMNS,
  licenceLotExport,
  licenceProductExport,
  licenceSeatExport,
} from "./licences";
import { peopleExport } from "./people";
import { sessionReportExport } from "./session";
import { stockItemExport, stockMovementExport } from "./stock";

const tags = ["Exports"];
const csv = (description: string) => ({
  description,
  headers: {
    "Content-Disposition": HEADERS.contentDisposition(
      'An attachment with the export\'s file name, e.g. `attachment; filename="inventory-items-2026-11-26.csv"`.',
    ),
    "Cache-Control": HEADERS.cacheControl("`no-store`: an export is workspace data; no cache keeps a copy."),
  },
  content: {
    "text/csv": {
      schema: z.string().openapi({
        description:
          "RFC 4180 CSV (UTF-8 with a byte order mark, CRLF records); text cells starting with = + - @ are prefixed with `'`.",
      }),
    },
  },
});
const RULES =
  "Streamed a page at a time (memory stays flat whatever the size); RFC 4180 quoting; text cells that start with `=`, `+`, `-` or `@` are prefixed with `'` so spreadsheets do not run them as formulas.";
const csvHeaders = (name: string) => ({
  "content-type": "text/csv; charset=utf-8",
  "content-disposition": attachment(name),
  "cache-control": "no-store",
});

export const exportRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/exports/inventory-items",
      operationId: "exportInventoryItems",
      tags,
      summary: "Export inventory items as CSV",
      description: `Every item matching the list's filters (same parameters and order as GET /inventory-items, without paging), custom fields as columns headed by their keys, then health. ${RULES}`,
      request: { query: ListAssetsQuery.omit({ limit: true, cursor: true }) },
      responses: { 200: csv("The items as CSV") },
    }),
    async (c) => {
      const { header, pages } = await assetExport(c.var.db, c.req.valid("query"), basisOf(settingsOf(c.var.tenant)));
      return c.body(csvStream(header, pages), 200, csvHeaders("inventory-items"));
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/exports/people",
      operationId: "exportPeople",
      tags,
      summary: "Export people as CSV",
      description: `People matching the list's filters (\`q\`, \`status\`; by name), custom fields as columns. ${RULES}`,
      request: { query: ListPeopleQuery.omit({ limit: true, cursor: true }) },
      responses: { 200: csv("The people as CSV") },
    }),
    async (c) => {
      const { header, pages } = await peopleExport(c.var.db, c.req.valid("query"));
      return c.body(csvStream(header, pages), 200, csvHeaders("people"));
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/exports/sessions/{sessionId}/report",
      operationId: "exportSessionReport",
      tags,
      summary: "Export a session's report as CSV",
      description: `One record per item of the session: state \`scanned\`, \`missing\`, \`found\` (outside the scope, marked anyway) or \`excluded\`, with scan time, scanner, wrong location and condition. Then one record per code that matched no asset: state \`unknown_code\`, the \`code\`, \`scannedAt\` and \`scannedBy\` of its first scan; the item columns stay empty. Every unknown code is listed (the JSON report lists at most 100). ${RULES}`,
      request: { params: z.object({ sessionId: idParam("sessionId", "ses_01jd3k4m5n6p7q8r9s0t1v2w3x") }) },
      responses: { 200: csv("The session's items as CSV") },
    }),
    async (c) => {
      const { header, pages } = await sessionReportExport(sessionCtx(c), c.req.valid("param").sessionId);
      return c.body(csvStream(header, pages), 200, csvHeaders("session-report"));
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/exports/stock-items",
      operationId: "exportStockItems",
      tags,
      summary: "Export stock items as CSV",
      description: `Every live stock item matching the list's filters (same parameters and order as GET /stock-items, without paging or \`updatedSince\`), custom fields as columns headed by their keys. \`quantities\` lists the units on hand per location (\`Main store: 40; Van 2: 5\`; a location by id when its name has a \`;\` or is shared), which POST /imports/stock-items reads back; \`codes\` holds the item's codes besides its tag (\`symbology:value; …\`). ${RULES}`,
      request: { query: ListStockItemsQuery.omit({ limit: true, cursor: true, updatedSince: true }) },
      responses: { 200: csv("The stock items as CSV") },
    }),
    async (c) => {
      const { header, pages } = await stockItemExport(c.var.db, c.req.valid("query"));
      return c.body(csvStream(header, pages), 200, csvHeaders("stock-items"));
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/exports/stock-movements",
      operationId: "exportStockMovements",
      tags,
      summary: "Export stock movements as CSV",
      description: `Every movement matching the list's filters (same parameters and order as GET /stock-movements: oldest first, without paging), with the item's tag and name and the locations' and person's names beside their ids. ${RULES}`,
      request: { query: ListAllMovementsQuery.omit({ limit: true, cursor: true }) },
      responses: { 200: csv("The stock movements as CSV") },
    }),
    async (c) => {
      const { header, pages } = await stockMovementExport(c.var.db, c.req.valid("query"));
      return c.body(csvStream(header, pages), 200, csvHeaders("stock-movements"));
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/exports/licence-products",
      operationId: "exportLicenceProducts",
      tags,
      summary: "Export software products as CSV",
      description: `Every live software product by name, with its seats owned and assigned. ${RULES}`,
      responses: { 200: csv("The products as CSV") },
    }),
    async (c) =>
      c.body(csvStream(LICENCE_PRODUCT_COLUMNS, licenceProductExport(c.var.db)), 200, csvHeaders("licence-products")),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/exports/licence-lots",
      operationId: "exportLicenceLots",
      tags,
      summary: "Export licence entitlements (lots) as CSV",
      description: `Every live lot by id, with its term and cost. Product keys are never exported (\`keyCount\` says how many there are). ${RULES}`,
      responses: { 200: csv("The lots as CSV") },
    }),
    async (c) => c.body(csvStream(LICENCE_LOT_COLUMNS, licenceLotExport(c.var.db)), 200, csvHeaders("licence-lots")),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/exports/licence-seats",
      operationId: "exportLicenceSeats",
      tags,
      summary: "Export licence seat assignments as CSV",
      description: `Every open seat by id: lot, product, holder (person or asset), when assigned and last used. ${RULES}`,
      responses: { 200: csv("The seats as CSV") },
    }),
    async (c) => c.body(csvStream(LICENCE_SEAT_COLUMNS, licenceSeatExport(c.var.db)), 200, csvHeaders("licence-seats")),
  );
