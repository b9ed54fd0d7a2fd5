import { z } from "@hono/zod-openapi";
import type { ImportEntity } from "../../../db/tenant/import-export";
import type { AppContext } from "../../../env";
import { HEADERS } from "../../../http/response-headers";
import { createRouter, defineRoute, errorResponses, jsonContent as json } from "../../../http/router";
import { serviceCtx } from "../../../http/service-context";
import { idParam } from "../../../platform/schemas";
import { planAssets } from "./assets";
import { startChains } from "./background";
import { parseCsv, readCsvBody } from "./csv";
import { getImport, listImportRows, startImport } from "./jobs";
import { planLicenceLots } from "./licence-lots";
import { planLicenceProducts } from "./licence-products";
import { planLicenceSeats } from "./licence-seats";
import { planPeople } from "./people";
import { csvBody, DryRunSchema, ImportJobSchema, ImportQuery, ImportRowPage, ImportRowsQuery } from "./schemas";
import { planStockItems } from "./stock";

const tags = ["Imports"];
const PLANNERS = {
  asset: planAssets,
  person: planPeople,
  stock_item: planStockItems,
  licence_product: planLicenceProducts,
  licence_lot: planLicenceLots,
  licence_seat: planLicenceSeats,
} as const;
const Params = z.object({ importId: idParam("importId", "imp_01jd3k4m5n6p7q8r9s0t1v2w3x") });
const RULES =
  "Columns are matched by header (case, spaces and underscores ignored); custom fields by key or label; the read-only columns of an export are not imported and are listed by name in `ignoredColumns` (dry run and job), unknown columns are a 400. Blank cells leave a field unset (unchanged on update). `dryRun=true` checks every row and writes nothing. A real run answers 202 with the job: rows are written in chunks of up to 250, each one set-based write with the same rules as the single routes (events, timeline, audit, health), the first chunk before answering and the rest in the background; follow it at GET /imports/{importId} and its rows. At most 10,000 rows and 5 MB (413).";

const LICENCE_ROWS =
  "Rows are written one by one through the licence routes' own verbs (events, audit), at most 20 per chunk (docs/import-export.md#licences). ";

async function runImport(c: AppContext, entity: ImportEntity, dryRun: boolean) {
  const ctx = serviceCtx(c);
  const csv = parseCsv(await readCsvBody(c.req.raw));
  // A lot import seals its product keys while planning: the stored job never holds one in plain text.
  const plan = await PLANNERS[entity](ctx.db, csv, { env: c.env, tenantId: ctx.tenantId });
  if (dryRun) {
    const count = (a: string) => plan.rows.filter((r) => r.action === a).length;
    return {
      dry: {
        dryRun: true as const,
        entity,
        total: plan.rows.length,
        create: count("create"),
        update: count("update"),
        refused: count("refused"),
        ignoredColumns: plan.ignoredColumns,
        rows: plan.rows.map((r) => ({
          row: r.rowNumber,
          action: r.action,
          matchKey: r.matchKey,
          id: r.targetId,
          errors: r.errors,
        })),
      },
    };
  }
  return { job: await startImport(ctx, entity, plan) };
}

const importRoute = (
  path: string,
  operationId:
    | "importInventoryItems"
    | "importPeople"
    | "importStockItems"
    | "importLicenceProducts"
    | "importLicenceLots"
    | "importLicenceSeats",
  what: string,
  match: string,
  more = "",
) =>
  defineRoute({
    method: "post",
    path,
    operationId,
    tags,
    summary: `Import ${what} from CSV`,
    description: `Creates ${what}, or updates the live one with the same ${match}. ${more}${RULES}`,
    request: { query: ImportQuery, ...csvBody },
    responses: {
      200: json(DryRunSchema, "Dry run: what each row would do"),
      202: {
        ...json(ImportJobSchema, "Started (or already completed); `Location` is the job"),
        headers: { Location: HEADERS.location("The import job: `/api/v1/imports/{importId}`, to poll.") },
      },
      ...errorResponses(413, 415),
    },
  });

async function handle(c: AppContext, entity: ImportEntity, dryRun: boolean) {
  const res = await runImport(c, entity, dryRun);
  if (res.dry) return c.json(res.dry, 200);
  // The rest is written by the chains on the imports Queue; if they cannot be started now, the
  // cron resumes the job (stored with its rows) within a few minutes.
  if (res.job.status === "running")
    c.executionCtx.waitUntil(
      startChains(c.env, c.var.tenant.id, res.job.id).catch((err: unknown) =>
        console.warn("import chains deferred to the cron", String(err)),
      ),
    );
  c.header("location", `/api/v1/imports/${res.job.id}`);
  return c.json(res.job, 202);
}

export const importRouter = createRouter()
  .openapi(
    importRoute(
      "/imports/inventory-items",
      "importInventoryItems",
      "inventory items",
      "unique tag",
      "`status` moves the item through the lifecycle (the moves POST .../status allows, reason from `statusReason`); a holder (`assignee` as email or name, or `holderKind` + `holderId`/`holder` as the export writes them) checks it out (POST .../checkout, `dueBackAt` optional). The state the item already has is no change; a state it cannot reach refuses the row with `row N: ...` and the reason. ",
    ),
    (c) => handle(c, "asset", c.req.valid("query").dryRun),
  )
  .openapi(
    importRoute(
      "/imports/people",
      "importPeople",
      "people",
      "email",
      "A row with `status: deactivated` deactivates the person as PATCH /people/{id} does; so an API key needs `inventory-items:write` too, for every import of people. ",
    ),
    (c) => handle(c, "person", c.req.valid("query").dryRun),
  )
  .openapi(
    importRoute(
      "/imports/stock-items",
      "importStockItems",
      "stock items",
      "tag (or, without a tag, SKU)",
      "`quantities` (`Location: 12; Other location: 3`, location names or ids, as the stock export writes it) sets the quantity at each location through real movements: a created item receives its opening quantities (`receive`, reference `CSV import`); an updated item is adjusted to the stated count (`adjust`, reason `CSV import`) where it differs. ",
    ),
    (c) => handle(c, "stock_item", c.req.valid("query").dryRun),
  )
  .openapi(
    importRoute(
      "/imports/licence-products",
      "importLicenceProducts",
      "software products",
      "name (case-insensitive)",
      `Columns: \`name\`, \`vendor\`, \`category\`, \`notes\`, \`onHolderLeaves\` (what GET /exports/licence-products writes). ${LICENCE_ROWS}`,
    ),
    (c) => handle(c, "licence_product", c.req.valid("query").dryRun),
  )
  .openapi(
    importRoute(
      "/imports/licence-lots",
      "importLicenceLots",
      "licence lots (entitlements)",
      "`id` (any other row creates a lot under `productId`, else `product` by name)",
      `Columns: the lot's fields (\`kind\`, \`seats\`, \`cost\`, \`currency\`, \`orderNumber\`, \`supplier\`, \`locationId\` or \`location\`, \`startDate\`, \`endDate\`, \`renewal\`, \`renewalYears\`, \`autoRenew\`, \`noticeDays\`), and \`keys\`: product keys separated by \`;\`, sealed before the job is stored, never in an answer, and not added twice to a lot that has them. ${LICENCE_ROWS}`,
    ),
    (c) => handle(c, "licence_lot", c.req.valid("query").dryRun),
  )
  .openapi(
    importRoute(
      "/imports/licence-seats",
      "importLicenceSeats",
      "licence seats",
      "lot and holder (a holder with an open seat of the lot is no change)",
      `Columns: \`lotId\`, and the holder: \`holderKind\` + \`holderId\` / \`holder\` (as GET /exports/licence-seats writes), or \`personId\` / \`person\` (email or name), or \`assetId\` / \`asset\` (unique tag). The lot's kind must take the holder and have a free seat after the file's earlier rows. ${LICENCE_ROWS}`,
    ),
    (c) => handle(c, "licence_seat", c.req.valid("query").dryRun),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/imports/{importId}",
      operationId: "getImport",
      tags,
      summary: "Import status",
      description: "Progress and counts of an import started with dryRun=false.",
      request: { params: Params },
      responses: { 200: json(ImportJobSchema, "The import") },
    }),
    async (c) => c.json(await getImport(serviceCtx(c), c.req.valid("param").importId), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/imports/{importId}/rows",
      operationId: "listImportRows",
      tags,
      summary: "Per-row results of an import",
      description:
        "Each data row (1 = first after the header): created, updated (with the record's id) or refused (with the errors by column); pending while the import runs.",
      request: { params: Params, query: ImportRowsQuery },
      responses: { 200: json(ImportRowPage, "A page of rows") },
    }),
    async (c) => c.json(await listImportRows(serviceCtx(c), c.req.valid("param").importId, c.req.valid("query")), 200),
  );
