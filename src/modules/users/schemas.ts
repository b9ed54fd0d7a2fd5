import { z } from "@hono/zod-openapi";
import { ROLES } from "../../db/tenant/users";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { nameField } from "../../platform/schemas";

export const USER_STATUSES = ["active", "deactivated"] as const;
export const emailField = z.email().max(254).openapi({ example: "ana@example.com" });

export const UserSchema = z
  .object({
    id: z.string().openapi({ example: "usr_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    email: z.string().openapi({ example: "ana@example.com" }),
    name: z.string().nullable(),
    role: z.enum(ROLES),
    status: z.enum(USER_STATUSES),
    lastLoginAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("User");

export const ListUsersQuery = z.object({
  ...pageQuery,
  status: z
    .enum(USER_STATUSES)
    .optional()
    .openapi({ description: "Only users in this status; all users when absent." }),
});
export const UserPage = pageOf(UserSchema, "UserPage");

export const UpdateUserBody = z
  .strictObject({
    role: z.enum(ROLES).optional(),
    status: z.enum(USER_STATUSES).optional(),
    name: nameField.nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, "at least one field is required")
  .openapi("UpdateUser");

export const InviteSchema = z
  .object({
    id: z.string().openapi({ example: "inv_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    email: z.string(),
    role: z.enum(ROLES),
    invitedBy: z.string(),
    expiresAt: z.string(),
    createdAt: z.string(),
  })
  .openapi("Invite");

export const CreatedInviteSchema = InviteSchema.extend({
  token: z.string().openapi({ description: "The invite token, shown once. No email is sent: hand it to the invitee." }),
  acceptUrl: z.string().openapi({
    description:
      "The link to hand the invitee: the field app's join page on this workspace's host, the token in the fragment (`https://<workspace>/join#token=…`). It opens in a browser: set a password (POST /auth/invites/accept), or continue with the workspace's SSO.",
    example: "https://acme.example.com/join#token=…",
  }),
}).openapi("CreatedInvite");

export const CreateInviteBody = z.strictObject({ email: emailField, role: z.enum(ROLES) }).openapi("CreateInvite");
export const ListInvitesQuery = z.object({ ...pageQuery });
export const InvitePage = pageOf(InviteSchema, "InvitePage");

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type User = z.infer<typeof UserSchema>;
export type Invite = z.infer<typeof InviteSchema>;
export type CreatedInvite = z.infer<typeof CreatedInviteSchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const userWebhookResources = { user: UserSchema, invite: InviteSchema } satisfies WebhookResources;
