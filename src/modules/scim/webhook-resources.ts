import { z } from "@hono/zod-openapi";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { ScimGroupMappingSchema, ScimTokenSchema } from "./admin-schemas";

/** What person.provisioned / .deprovisioned / .reprovisioned / .scim_updated carry: the link, not the person. */
const ScimUserEventSchema = z
  .object({
    personId: z.string(),
    scimUserId: z.string(),
    userName: z.string(),
    active: z.boolean(),
    scimRequestId: z.string().openapi({ description: "The SCIM request that made the change (its x-request-id)." }),
    deleted: z.boolean().optional().openapi({ description: "On person.deprovisioned: the provider deleted the User." }),
  })
  .openapi("ScimUserEvent");

const ScimGroupEventSchema = z
  .record(z.string(), z.unknown())
  .openapi("ScimGroupEvent", { description: "The SCIM Group (RFC 7643) after the change, with `scimRequestId`." });

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const scimWebhookResources = {
  scimUser: ScimUserEventSchema,
  scimGroup: ScimGroupEventSchema,
  scimToken: ScimTokenSchema,
  scimGroupMapping: ScimGroupMappingSchema,
} satisfies WebhookResources;
