import { z } from "@hono/zod-openapi";
import { FILE_TYPES, OBJECT_TYPES } from "./file-types";
import { MAX_KEY_LENGTH } from "./keys";
import { MAX_OBJECT_SIZE } from "./service";

export const OBJECT_PURPOSES = ["asset-image", "scan-photo", "attachment"] as const;

export const CreateObjectBody = z
  .strictObject({
    contentType: z.enum(OBJECT_TYPES).openapi({
      description: "The file's type. The upload is refused (415) unless its first bytes are of this type.",
    }),
    size: z.number().int().min(1).max(MAX_OBJECT_SIZE, `at most ${MAX_OBJECT_SIZE} bytes (10 MiB)`).openapi({
      example: 245_812,
      description: "Exact size in bytes; the upload must have exactly this many (more: 413, fewer: 400).",
    }),
    purpose: z
      .enum(OBJECT_PURPOSES)
      .optional()
      .openapi({ description: "`asset-image` and `scan-photo` must be images." }),
  })
  .refine((b) => !(b.purpose === "asset-image" || b.purpose === "scan-photo") || FILE_TYPES[b.contentType].image, {
    path: ["contentType"],
    message: "asset-image and scan-photo objects must be images",
  })
  .openapi("CreateObject");

export const ObjectUploadSchema = z
  .object({
    objectKey: z.string().openapi({
      example: "tenants/ten_01jd3k4m5n6p7q8r9s0t1v2w3x/uploads/obj_01jd3k4m5n6p7q8r9s0t1v2w3y",
      description:
        "Tenant-scoped key; store it (e.g. an asset's `imageKey`). In paths, percent-encode it (`encodeURIComponent`).",
    }),
    uploadUrl: z
      .string()
      .openapi({ description: "PUT the file's bytes here (no Authorization header: the URL is the credential)." }),
    method: z.literal("PUT"),
    contentType: z.enum(OBJECT_TYPES),
    size: z.number().int(),
    expiresAt: z
      .string()
      .openapi({ description: "The URL is refused (403, `details.reason: expired`) after this time." }),
  })
  .openapi("ObjectUpload");

export const ObjectKeyParams = z.object({
  objectKey: z
    .string()
    .min(1)
    .max(MAX_KEY_LENGTH)
    .openapi({
      param: { name: "objectKey", in: "path" },
      example: "tenants%2Ften_01jd3k4m5n6p7q8r9s0t1v2w3x%2Fuploads%2Fobj_01jd3k4m5n6p7q8r9s0t1v2w3y",
      description: "The `objectKey` from POST /objects, percent-encoded as one path segment (`/` as `%2F`).",
    }),
});

export const ViewUrlSchema = z
  .object({
    url: z.string().openapi({ description: "GET it (no Authorization header) to read the object." }),
    expiresAt: z.string(),
    contentType: z.string(),
    size: z.number().int(),
  })
  .openapi("ObjectViewUrl");

const q = (max: number) => z.string().max(max).optional();

/** Query of a signed upload URL, as issued. Not validated beyond length: a missing or altered value fails the signature (403). */
export const UploadQuery = z.object({
  key: q(MAX_KEY_LENGTH),
  type: q(100),
  size: q(20),
  exp: q(20),
  purpose: q(40),
  sig: q(128),
});
export const ViewQuery = z.object({ key: q(MAX_KEY_LENGTH), exp: q(20), sig: q(128) });

export const UploadedSchema = z
  .object({ objectKey: z.string(), contentType: z.string(), size: z.number().int(), etag: z.string() })
  .openapi("UploadedObject");

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type ObjectUpload = z.infer<typeof ObjectUploadSchema>;
export type ObjectViewUrl = z.infer<typeof ViewUrlSchema>;
export type UploadedObject = z.infer<typeof UploadedSchema>;
