import { z } from "@hono/zod-openapi";
import { pageOf, pageQuery } from "../../platform/pagination";
import { PLANS } from "../../tenancy/plans";
import { JURISDICTIONS, LOCATION_HINTS } from "../../tenancy/shard";

export const AdminLoginBody = z
  .strictObject({ email: z.email().max(254), password: z.string().min(1).max(200) })
  .openapi("AdminLogin");

export const TenantSchema = z
  .object({
    tenantId: z.string().openapi({ example: "ten_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    slug: z.string().openapi({ example: "acme" }),
    plan: z.enum(PLANS),
    status: z.enum(["provisioning", "active", "suspended", "deleting"]),
    shard: z.string().openapi({
      example: "main",
      description:
        "The shard whose pool holds the workspace's database (`main` without a router; docs/deploying.md#shards).",
    }),
    settings: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Tenant");

export const CreateTenantBody = z
  .strictObject({
    slug: z
      .string()
      .min(1)
      .max(64)
      .openapi({ example: "acme", description: "3-32 of a-z, 0-9 and '-'; not admin, www, api or app." }),
    plan: z.enum(PLANS).default("free"),
    ownerEmail: z.email().max(254),
    ownerPassword: z
      .string()
      .min(10)
      .max(200)
      .optional()
      .openapi({ description: "Generated and returned once when absent." }),
    locationHint: z.enum(LOCATION_HINTS).optional().openapi({
      description:
        "A D1 location hint: the workspace goes to the roomiest shard declared in that region, if there is one (else the roomiest of all). docs/deploying.md#regions",
    }),
    jurisdiction: z.enum(JURISDICTIONS).optional().openapi({
      description:
        "A D1 jurisdiction the workspace's data must stay in: the workspace goes only to a shard declared with it; 400 when the deployment has none. docs/deploying.md#regions",
    }),
  })
  .openapi("CreateTenant");

export const CreatedTenantSchema = z
  .object({
    tenantId: z.string(),
    slug: z.string(),
    plan: z.enum(PLANS),
    owner: z.object({
      email: z.string(),
      password: z.string().optional().openapi({ description: "Only when it was generated." }),
    }),
    apiKey: z.string().openapi({ description: "The workspace's first API key; shown once." }),
    shard: z.string().openapi({ example: "s1", description: "The shard the workspace was placed on." }),
  })
  .openapi("CreatedTenant");

export const UpdateTenantBody = z
  .strictObject({ plan: z.enum(PLANS).optional(), status: z.enum(["active", "suspended"]).optional() })
  .refine((b) => b.plan !== undefined || b.status !== undefined, "plan or status is required")
  .openapi("UpdateTenant");

export const ListTenantsQuery = z.object({ ...pageQuery });

export const ShardSchema = z
  .object({
    shard: z.string().openapi({ example: "s1" }),
    pool: z.number().int().openapi({ description: "Pool databases the shard's Worker binds." }),
    used: z.number().int().openapi({ description: "Workspaces on the shard (any status)." }),
    region: z.string().nullable().openapi({
      example: "weur",
      description: "The D1 location hint its pool databases were created with, if declared.",
    }),
    jurisdiction: z
      .string()
      .nullable()
      .openapi({ example: "eu", description: "The D1 jurisdiction of its pool databases, if any." }),
    reportedAt: z.string().openapi({ description: "When the shard last reported its pool's size." }),
  })
  .openapi("Shard");
export const ShardPage = pageOf(ShardSchema, "ShardPage");
export const TenantPage = pageOf(TenantSchema, "TenantPage");

export const DeleteTenantBody = z
  .strictObject({
    slug: z.string().openapi({ example: "acme", description: "The workspace's slug, repeated as confirmation." }),
  })
  .openapi("DeleteTenant");
// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type Tenant = z.infer<typeof TenantSchema>;
export type CreatedTenant = z.infer<typeof CreatedTenantSchema>;

/** `GET /admin/tenants/{id}/export`: streamed by src/modules/admin/export.ts in this shape. */
export const WorkspaceExportSchema = z
  .object({
    workspace: z.object({
      id: z.string(),
      slug: z.string(),
      plan: z.enum(PLANS),
      settings: z.record(z.string(), z.unknown()).openapi({ description: "The workspace settings as stored." }),
      createdAt: z.string(),
    }),
    exportedAt: z.iso.datetime({ offset: true }),
    tables: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))).openapi({
      description:
        "Every table of the workspace by name, each a list of its rows as stored (column names as in the database). Credentials are left out: the refresh_tokens and realtime_tickets tables, and the password_hash, key_hash and token_hash columns.",
    }),
  })
  .openapi("WorkspaceExport");

export const MoveTenantBody = z
  .strictObject({
    toShard: z
      .string()
      .min(1)
      .max(64)
      .openapi({ example: "s2", description: "The shard to move the workspace to (a name from GET /admin/shards)." }),
  })
  .openapi("MoveTenant");

export const TenantMoveSchema = z
  .object({
    moveId: z.string().openapi({ example: "mov_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    tenantId: z.string(),
    fromShard: z.string().openapi({ example: "s1" }),
    toShard: z.string().openapi({ example: "s2" }),
    state: z.enum(["copying", "switching", "retiring", "done", "failed"]).openapi({
      description:
        "`copying`: rows are copied while the workspace works as usual; `switching`: writes (and scans) are refused with 503 and Retry-After while the rows written meanwhile and the open sessions' state are copied and the registry switches; `retiring`: the new shard serves the workspace and the old copy is being wiped; `done`; `failed`: rolled back, the workspace stayed where it was (see `error`).",
    }),
    copiedRows: z.number().int().openapi({ description: "Rows copied while writes went on." }),
    changedRows: z
      .number()
      .int()
      .openapi({ description: "Rows written during the copy, copied again during the switch." }),
    sessions: z.number().int().openapi({ description: "Open inventory sessions whose object state was carried over." }),
    switchMs: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "How long the workspace refused writes, in milliseconds (null until switched)." }),
    error: z.string().nullable(),
    startedAt: z.string(),
    updatedAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .openapi("TenantMove");
export type TenantMove = z.infer<typeof TenantMoveSchema>;
