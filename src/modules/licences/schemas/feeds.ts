import { z } from "@hono/zod-openapi";

/** The renewal calendar feeds (ICS). */
export const CreateFeedBody = z
  .object({ name: z.string().trim().min(1).max(120).optional() })
  .strict()
  .openapi("CreateLicenceFeed");
export const FeedSchema = z
  .object({ id: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() })
  .openapi("LicenceFeed");
export const CreatedFeedSchema = FeedSchema.extend({
  url: z.string().openapi({ description: "The feed's URL with its secret, shown only here." }),
}).openapi("CreatedLicenceFeed");
export const FeedFileParams = z.object({
  file: z
    .string()
    .max(200)
    .openapi({ param: { name: "file", in: "path" }, example: "lical_3q2…x9.ics" }),
});
