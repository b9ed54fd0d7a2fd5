import { z } from "@hono/zod-openapi";
import { QUICK_ADD_EVENTS } from "../../db/tenant/quick-add";

/** `meta` is client context, not a data store: at most this many bytes of JSON. */
export const META_MAX_BYTES = 2048;

const metaSize = (m: Record<string, unknown>) => new TextEncoder().encode(JSON.stringify(m)).length;

export const QuickAddEventBody = z
  .strictObject({
    event: z.enum(QUICK_ADD_EVENTS).openapi({ description: "Which step of the quick-add flow happened." }),
    flowId: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .openapi({ example: "flow_8f2c", description: "Client-generated id of one quick-add flow; groups its events." }),
    itemId: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .openapi({ example: "ast_01jd3k4m5n6p7q8r9s0t1v2w3x", description: "The asset the event is about, if any." }),
    meta: z
      .record(z.string(), z.unknown())
      .refine((m) => metaSize(m) <= META_MAX_BYTES, `at most ${META_MAX_BYTES} bytes as JSON`)
      .optional()
      .openapi({ description: `Free-form client context, at most ${META_MAX_BYTES} bytes as JSON.` }),
  })
  .openapi("QuickAddEventInput");

export const QuickAddEventSchema = z
  .object({
    id: z.string().openapi({ example: "qae_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    event: z.enum(QUICK_ADD_EVENTS),
    flowId: z.string(),
    itemId: z.string().nullable(),
    meta: z.record(z.string(), z.unknown()).nullable(),
    userId: z.string(),
    createdAt: z.string(),
  })
  .openapi("QuickAddEvent");

export type QuickAddEventInput = z.infer<typeof QuickAddEventBody>;
