import { z } from "@hono/zod-openapi";
import { ROLES } from "../../db/tenant/users";
import { pageOf, pageQuery } from "../../platform/pagination";
import { nameField } from "../../platform/schemas";

export const ScimTokenSchema = z
  .object({
    id: z.string().openapi({ example: "sct_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string().openapi({ example: "Microsoft Entra" }),
    prefix: z
      .string()
      .openapi({ description: "First characters of the token, to tell tokens apart.", example: "scim_Ab3dE5g" }),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().openapi({ description: "Minute precision." }),
    revokedAt: z.string().nullable(),
  })
  .openapi("ScimToken");

export const CreatedScimTokenSchema = ScimTokenSchema.extend({
  token: z.string().openapi({
    description:
      "The token, shown once; only its SHA-256 hash is stored. Give it to the identity provider as the secret token of the /scim/v2 base URL.",
  }),
}).openapi("CreatedScimToken");

export const CreateScimTokenBody = z.strictObject({ name: nameField }).openapi("CreateScimToken");
export const ListScimTokensQuery = z.object({ ...pageQuery });
export const ScimTokenPage = pageOf(ScimTokenSchema, "ScimTokenPage");

export const ScimGroupMappingSchema = z
  .object({
    id: z.string().openapi({ example: "sgm_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    groupName: z
      .string()
      .openapi({ description: "The SCIM group's displayName (case-insensitive).", example: "IT Admins" }),
    role: z.enum(ROLES).nullable().openapi({ description: "The role members get as workspace users; null: none." }),
    locationId: z.string().nullable().openapi({ description: "The location members' person records get." }),
    department: z
      .string()
      .nullable()
      .openapi({ description: "The department members get when the identity provider sends none." }),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("ScimGroupMapping");

export const CreateScimGroupMappingBody = z
  .strictObject({
    groupName: z.string().trim().min(1).max(256),
    role: z.enum(ROLES).exclude(["owner"]).nullable().optional().openapi({
      description: "admin, member or requester; owners are never made by provisioning.",
    }),
    locationId: z.string().nullable().optional(),
    department: z.string().trim().min(1).max(200).nullable().optional(),
  })
  .openapi("CreateScimGroupMapping");
export const UpdateScimGroupMappingBody = z
  .strictObject({
    role: z.enum(ROLES).exclude(["owner"]).nullable().optional().openapi({
      description: "admin, member or requester; null: the group gives no role.",
    }),
    locationId: z.string().nullable().optional(),
    department: z.string().trim().min(1).max(200).nullable().optional(),
  })
  .openapi("UpdateScimGroupMapping");
export const ListScimGroupMappingsQuery = z.object({ ...pageQuery });
export const ScimGroupMappingPage = pageOf(ScimGroupMappingSchema, "ScimGroupMappingPage");

export type ScimToken = z.infer<typeof ScimTokenSchema>;
export type CreatedScimToken = z.infer<typeof CreatedScimTokenSchema>;
export type ScimGroupMapping = z.infer<typeof ScimGroupMappingSchema>;
export type CreateScimGroupMappingInput = z.infer<typeof CreateScimGroupMappingBody>;
export type UpdateScimGroupMappingInput = z.infer<typeof UpdateScimGroupMappingBody>;
