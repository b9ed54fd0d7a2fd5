import { z } from "@hono/zod-openapi";
import type { AppContext } from "../../env";
import { SCIM_CONTENT_TYPE } from "../../http/scim-errors";
import { project } from "./filter";
import { etagOf, type Json } from "./resource";

/** What the SCIM routes declare and answer alike: SCIM's JSON, its ETag, ids, list and projection queries. */
export const tags = ["SCIM"];
export const Resource = z.record(z.string(), z.unknown()).openapi("ScimResource", {
  description: "A SCIM resource (RFC 7643): a User (with the enterprise extension) or a Group.",
});
export const ListResponse = z.record(z.string(), z.unknown()).openapi("ScimListResponse", {
  description: "urn:ietf:params:scim:api:messages:2.0:ListResponse: totalResults, startIndex, itemsPerPage, Resources.",
});
export const scimJson = (schema: z.ZodType, description: string) => ({
  description,
  content: { [SCIM_CONTENT_TYPE]: { schema } },
});
export const VERSION = {
  ETag: { description: "meta.version of the resource; send it back as If-Match.", schema: { type: "string" as const } },
};
export const versioned = (description: string) => ({ ...scimJson(Resource, description), headers: VERSION });
export const created = (description: string) => ({
  ...versioned(description),
  headers: {
    ...VERSION,
    Location: { description: "meta.location of the new resource.", schema: { type: "string" as const } },
  },
});
export const scimBody = { body: { required: true, content: { [SCIM_CONTENT_TYPE]: { schema: Resource } } } };
export const Params = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "id", in: "path" } }),
});
export const Projection = {
  attributes: z
    .string()
    .max(1000)
    .optional()
    .openapi({ description: "Comma-separated attributes to return (id and schemas always)." }),
  excludedAttributes: z
    .string()
    .max(1000)
    .optional()
    .openapi({ description: "Comma-separated attributes to leave out." }),
};
export const ListQuery = z.object({
  filter: z.string().max(2000).optional().openapi({
    description:
      'RFC 7644 filter: eq, ne, co, sw, ew, pr, gt, ge, lt, le, and, or, not, value paths; e.g. `userName eq "ada@example.com"`.',
  }),
  // RFC 7644 section 3.4.2.4: a startIndex below 1 is read as 1, a negative count as 0 and a count
  // above the maximum as the maximum; only a value that is not a whole number is a 400.
  startIndex: z.coerce
    .number()
    .int()
    .default(1)
    .transform((v) => Math.max(1, v))
    .openapi({ description: "1-based index of the first result; below 1 is read as 1." }),
  count: z.coerce
    .number()
    .int()
    .default(100)
    .transform((v) => Math.min(200, Math.max(0, v)))
    .openapi({ description: "At most this many results (0..200; more is read as 200, negative as 0)." }),
  ...Projection,
});
export const GetQuery = z.object(Projection);

/** application/scim+json, with the ETag of the resource where there is one. */
export function scim<S extends 200 | 201 = 200>(c: AppContext, body: Json, status?: S, version?: number) {
  const headers: Record<string, string> = { "content-type": SCIM_CONTENT_TYPE };
  if (version !== undefined) headers.ETag = etagOf(version);
  const meta = body.meta as { location?: string } | undefined;
  if (status === 201 && meta?.location) headers.Location = meta.location;
  return c.json(body, (status ?? 200) as S, headers);
}

export const ifMatch = (c: AppContext) => c.req.header("if-match") ?? undefined;
export const shaped = (r: Json, q: { attributes?: string; excludedAttributes?: string }) =>
  project(r, q.attributes, q.excludedAttributes);
