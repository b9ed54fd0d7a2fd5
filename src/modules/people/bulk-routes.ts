import { z } from "@hono/zod-openapi";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { ErrorSchema } from "../../platform/schemas";
import { bulkDeactivatePeople, MAX_BULK_PEOPLE } from "./bulk";
import { PersonSchema } from "./schemas";

const BulkPeopleBody = z
  .strictObject({
    action: z.literal("deactivate"),
    ids: z
      .array(z.string().min(1).max(64))
      .min(1)
      .max(MAX_BULK_PEOPLE)
      .refine((list) => new Set(list).size === list.length, "ids must not repeat"),
  })
  .openapi("BulkPeople");

const BulkPeopleResult = z
  .object({
    items: z.array(
      z.object({
        id: z.string(),
        ok: z.boolean(),
        status: z.number().int(),
        item: PersonSchema.optional(),
        error: ErrorSchema.optional(),
      }),
    ),
  })
  .openapi("BulkPeopleResult");
export type BulkPeopleResult = z.infer<typeof BulkPeopleResult>;

export const peopleBulkRouter = createRouter().openapi(
  defineRoute({
    method: "post",
    path: "/people/bulk",
    operationId: "bulkPeople",
    tags: ["People"],
    summary: "Deactivate many people",
    description:
      `\`{ action: "deactivate", ids }\` for 1..${MAX_BULK_PEOPLE} people: each as PATCH /people/{id} \`{status: "deactivated"}\` ` +
      "(every asset they hold is checked in first), all in one batch. Answers `items` in request order with each " +
      "person's status and, on failure, the single route's error envelope." +
      " An API key needs `inventory-items:write` too (a deactivation checks assets in and returns stock), for every request of this route.",
    request: body(BulkPeopleBody),
    responses: { 200: json(BulkPeopleResult, "Per-person outcomes, in request order"), ...errorResponses(415) },
  }),
  async (c) =>
    c.json({ items: await bulkDeactivatePeople(serviceCtx(c), c.req.valid("json").ids, c.var.requestId) }, 200),
);
