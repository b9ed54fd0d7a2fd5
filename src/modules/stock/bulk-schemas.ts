import { z } from "@hono/zod-openapi";
import { ErrorSchema } from "../../platform/schemas";
import {
  IssueStockBody,
  ReceiveStockBody,
  ReturnStockBody,
  StockItemSchema,
  StockMovementSchema,
  TransferStockBody,
} from "./schemas";

/** Movements per bulk request: the reads grow with them (about two statements each), the write is one batch. */
export const MAX_BULK_MOVEMENTS = 100;

const item = { stockItemId: z.string().min(1).max(64) };
const Movement = z
  .discriminatedUnion("kind", [
    ReceiveStockBody.safeExtend({ kind: z.literal("receive"), ...item }).openapi("BulkReceiveStock"),
    IssueStockBody.safeExtend({ kind: z.literal("issue"), ...item }).openapi("BulkIssueStock"),
    ReturnStockBody.safeExtend({ kind: z.literal("return"), ...item }).openapi("BulkReturnStock"),
    TransferStockBody.safeExtend({ kind: z.literal("transfer"), ...item }).openapi("BulkTransferStock"),
  ])
  .openapi("BulkStockMovement", {
    description:
      "A movement as its single route takes it, with `kind` and `stockItemId`. Adjust is not offered: a counted correction is taken against the quantity read, one at a time (POST .../adjust, or a session's apply).",
  });

export const BulkStockMovementsBody = z
  .strictObject({
    movements: z
      .array(Movement)
      .min(1)
      .max(MAX_BULK_MOVEMENTS)
      .openapi({
        description: `1..${MAX_BULK_MOVEMENTS} movements, applied in this order: a later one sees the units an earlier one received or took.`,
      }),
  })
  .openapi("BulkStockMovements");

export const BulkStockMovementResultSchema = z
  .object({
    index: z.number().int().openapi({ description: "Position in `movements`." }),
    ok: z.boolean(),
    status: z
      .number()
      .int()
      .openapi({ description: "The status the single route would have answered (201, 400, 404, 409)." }),
    movement: StockMovementSchema.optional().openapi({ description: "The movement written (absent for errors)." }),
    stockItem: StockItemSchema.optional().openapi({
      description: "The item after the whole request (absent for errors).",
    }),
    error: ErrorSchema.optional().openapi({ description: "The error envelope the single route would have answered." }),
  })
  .openapi("BulkStockMovementResult");

export const BulkStockMovementsResultSchema = z
  .object({ items: z.array(BulkStockMovementResultSchema) })
  .openapi("BulkStockMovementsResult");

export type BulkStockMovementsInput = z.infer<typeof BulkStockMovementsBody>;
export type BulkStockMovementsResult = z.infer<typeof BulkStockMovementsResultSchema>;
