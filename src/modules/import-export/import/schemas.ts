import { z } from "@hono/zod-openapi";
import { IMPORT_ENTITIES, IMPORT_ROW_STATUSES, IMPORT_STATUSES } from "../../../db/tenant/import-export";
import { pageOf, pageQuery } from "../../../platform/pagination";

const RowError = z.object({
  path: z.string().openapi({ description: "The CSV column (or `(row)`)." }),
  message: z.string(),
});

const ACTION = z.enum(["create", "update", "refused"]).openapi({
  description: "`create` or `update` as planned; `refused` when the row is not written (its `errors` say why).",
});
const IGNORED = z.array(z.string()).openapi({
  description:
    "The file's columns that nothing imports, by their header (the read-only columns of an export, such as `id` or `createdAt`); every other column is imported.",
  example: ["id", "createdAt", "updatedAt"],
});

export const ImportQuery = z.object({
  dryRun: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true")
    .openapi({ description: "`true`: validate every row and report what would happen; nothing is written." }),
});

export const DryRunSchema = z
  .object({
    dryRun: z.literal(true),
    entity: z.enum(IMPORT_ENTITIES),
    total: z.number().int(),
    create: z.number().int(),
    update: z.number().int(),
    refused: z.number().int(),
    ignoredColumns: IGNORED,
    rows: z.array(
      z.object({
        row: z.number().int().openapi({ description: "1 = the first line after the header." }),
        action: ACTION,
        matchKey: z.string().nullable(),
        id: z.string().nullable().openapi({ description: "The record an update would change." }),
        errors: z.array(RowError),
      }),
    ),
  })
  .openapi("ImportDryRun");

export const ImportJobSchema = z
  .object({
    id: z.string().openapi({ example: "imp_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    entity: z.enum(IMPORT_ENTITIES),
    status: z.enum(IMPORT_STATUSES).openapi({
      description:
        "`running` while rows are written in the background; `completed` when every row is created, updated or refused.",
    }),
    total: z.number().int(),
    processed: z.number().int(),
    created: z.number().int(),
    updated: z.number().int(),
    refused: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    completedAt: z.string().nullable(),
    ignoredColumns: IGNORED,
  })
  .openapi("ImportJob");

export const ImportRowsQuery = z.object({
  ...pageQuery,
  status: z
    .enum(IMPORT_ROW_STATUSES.filter((s) => s !== "claimed") as ["pending", "created", "updated", "refused"])
    .optional()
    .openapi({ description: "Only rows in this state (e.g. `refused` to see what to fix)." }),
});

export const ImportRowPage = pageOf(
  z.object({
    row: z.number().int(),
    action: ACTION,
    status: z.enum(["pending", "created", "updated", "refused"]),
    id: z.string().nullable().openapi({ description: "The record created or updated." }),
    matchKey: z
      .string()
      .nullable()
      .openapi({ description: "Unique tag (assets), email (people), or tag / SKU (stock items)." }),
    errors: z.array(RowError),
  }),
  "ImportRowPage",
);

export const csvBody = {
  body: {
    required: true,
    content: {
      "text/csv": {
        schema: z.string().openapi({ description: "RFC 4180 CSV, header row first; at most 10,000 rows and 5 MB." }),
      },
    },
  },
};

// Response types, for the tests and the client.
export type ImportDryRun = z.infer<typeof DryRunSchema>;
export type ImportJob = z.infer<typeof ImportJobSchema>;
export type ImportRow = z.infer<typeof ImportRowPage>["items"][number];
