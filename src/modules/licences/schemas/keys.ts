import { z } from "@hono/zod-openapi";
import { shortText } from "./fields";

/** Product keys: taken in plain text, answered only by reference, except to admins who read them. */
export const KeyBody = z
  .object({
    key: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(4000)
      .openapi({ description: "Stored encrypted; never returned by this route." }),
    label: shortText(120),
  })
  .strict()
  .openapi("CreateLicenceKey");

export const KeyRefSchema = z
  .object({ id: z.string(), lotId: z.string(), label: z.string().nullable(), createdAt: z.string() })
  .openapi("LicenceKeyRef");
export const RevealedKeySchema = KeyRefSchema.extend({ key: z.string() }).openapi("LicenceKey");
export const RevealedKeysSchema = z.object({ items: z.array(RevealedKeySchema) }).openapi("LicenceKeys");
