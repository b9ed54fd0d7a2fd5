import { z } from "@hono/zod-openapi";
import { SESSION_STATUSES } from "../../db/tenant/sessions";
import { pageOf, pageQuery } from "../../platform/pagination";
import { FUTURE_EXAMPLE, idParam, isoInstant, nameField } from "../../platform/schemas";
import { deletedAtField, updatedSinceParam } from "../../platform/sync";

export const SessionParams = z.object({ sessionId: idParam("sessionId", "ses_01jd3k4m5n6p7q8r9s0t1v2w3x") });

const id = (example: string) => z.string().min(1).max(64).openapi({ example });
export const assigneeIdsField = z
  .array(id("usr_01jd3k4m5n6p7q8r9s0t1v2w3x"))
  .max(50)
  .openapi({ description: "Users who do the scanning (user ids)." });

export const SessionSchema = z
  .object({
    id: z.string().openapi({ example: "ses_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string(),
    status: z
      .enum(SESSION_STATUSES)
      .openapi({ description: "draft → active → completed; draft or active → cancelled." }),
    locationId: z.string().nullable().openapi({ description: "Location scope; null covers every location." }),
    includeSubLocations: z.boolean(),
    categoryId: z.string().nullable(),
    dueAt: z.string().nullable(),
    assigneeIds: z.array(z.string()),
    scheduleId: z.string().nullable().openapi({ description: "The recurring schedule that created it, if any." }),
    progress: z.object({ expected: z.number().int(), scanned: z.number().int() }).openapi({
      description: "As last written through by the session's object (seconds behind at most while scanning).",
    }),
    startedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    createdBy: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    deletedAt: deletedAtField,
  })
  .openapi("Session");

const scopeFields = {
  locationId: id("loc_01jd3k4m5n6p7q8r9s0t1v2w3x")
    .nullable()
    .optional()
    .openapi({ description: "Only assets at this location (see includeSubLocations)." }),
  includeSubLocations: z
    .boolean()
    .optional()
    .openapi({ description: "Include the location's sub-locations (default true)." }),
  categoryId: id("cat_01jd3k4m5n6p7q8r9s0t1v2w3x")
    .nullable()
    .optional()
    .openapi({ description: "Only assets of this category." }),
};

export const CreateSessionBody = z
  .strictObject({
    name: nameField,
    ...scopeFields,
    dueAt: isoInstant.nullable().optional().openapi({ example: FUTURE_EXAMPLE.end }),
    assigneeIds: assigneeIdsField.optional(),
    status: z
      .enum(["draft", "active"])
      .optional()
      .openapi({ description: "`active` starts the session at once (takes the expected set). Default `draft`." }),
  })
  .openapi("CreateSession");

export const UpdateSessionBody = z
  .strictObject({
    name: nameField.optional(),
    ...scopeFields,
    dueAt: isoInstant.nullable().optional().openapi({ example: FUTURE_EXAMPLE.end }),
    assigneeIds: assigneeIdsField.optional(),
    status: z.enum(SESSION_STATUSES).optional().openapi({
      description:
        "A transition: `active` starts a draft, `completed` completes an active session, `cancelled` cancels a draft or active one.",
    }),
  })
  .refine((b) => Object.keys(b).length > 0, "at least one field is required")
  .openapi("UpdateSession");

export const ListSessionsQuery = z.object({
  updatedSince: updatedSinceParam,
  ...pageQuery,
  status: z.enum(SESSION_STATUSES).optional(),
  locationId: z.string().max(64).optional(),
  assigneeId: z.string().max(64).optional(),
});

export const SessionPage = pageOf(SessionSchema, "SessionPage");

export type CreateSessionInput = z.infer<typeof CreateSessionBody>;
export type UpdateSessionInput = z.infer<typeof UpdateSessionBody>;

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type Session = z.infer<typeof SessionSchema>;
