import { z } from "@hono/zod-openapi";
import { ROLES } from "../../db/tenant/users";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../platform/passwords";
import { nameField } from "../../platform/schemas";
import { emailField, UserSchema } from "../users";

const opaqueToken = z.string().min(1).max(256);
const newPassword = z
  .string()
  .min(PASSWORD_MIN, `at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `at most ${PASSWORD_MAX} characters`);
const refreshCookieField = z.boolean().optional().openapi({
  description:
    "For browsers: `true` sets the refresh token as the HttpOnly, SameSite=Strict cookie `inventory_refresh` (path /api/v1/auth/) and leaves it out of the body (`AuthCookieSession`). Default false: the token is in the body.",
});

export const LoginBody = z
  .strictObject({
    email: emailField,
    password: z.string().min(1).max(PASSWORD_MAX).openapi({ example: "correct-horse-battery" }),
    refreshCookie: refreshCookieField,
  })
  .openapi("Login");

export const RefreshBody = z
  .strictObject({
    refreshToken: opaqueToken.optional().openapi({
      description:
        "The refresh token. Omit it to use the `inventory_refresh` cookie instead (browsers, same origin only: another origin gets 403); the new token then goes into the cookie, not the body.",
    }),
  })
  .openapi("RefreshTokenRequest");

export const AcceptInviteBody = z
  .strictObject({
    token: opaqueToken.openapi({ description: "The invite token from POST /users/invites." }),
    password: newPassword,
    name: nameField.optional(),
    refreshCookie: refreshCookieField,
  })
  .openapi("AcceptInvite");

export const PasswordResetRequestBody = z.strictObject({ email: emailField }).openapi("PasswordResetRequest");

export const PasswordResetConfirmBody = z
  .strictObject({
    token: opaqueToken.openapi({ description: "The token of the reset link (after `#token=`)." }),
    password: newPassword,
    refreshCookie: refreshCookieField,
  })
  .openapi("PasswordResetConfirm");

export const SessionSchema = z
  .object({
    accessToken: z
      .string()
      .openapi({ description: "JWT for `Authorization: Bearer`; valid only on this workspace's host." }),
    refreshToken: z.string().openapi({ description: "Opaque, single use, 30 days; exchange at POST /auth/refresh." }),
    expiresIn: z.number().int().openapi({ description: "Access token lifetime in seconds.", example: 900 }),
    user: UserSchema,
  })
  .openapi("AuthSession");

/** The session of a browser that keeps its refresh token in the `inventory_refresh` cookie. */
export const CookieSessionSchema = SessionSchema.omit({ refreshToken: true }).openapi("AuthCookieSession");

/** What login and refresh answer: the refresh token in the body, or (cookie mode) in the cookie. */
export const SessionResponseSchema = z.union([SessionSchema, CookieSessionSchema]);

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type AuthSession = z.infer<typeof SessionSchema>;

export const PermissionsSchema = z
  .object({
    role: z.enum(ROLES),
    operations: z.array(z.string()).openapi({
      description:
        "The operationIds of this document that the signed-in user may call (role and plan), sorted. A client shows only these actions; the API still checks every call.",
      example: ["checkinInventoryItem", "checkoutInventoryItem", "getInventoryItemByTag"],
    }),
    personId: z.string().nullable().openapi({
      description:
        "The live person with the user's email, or null: what they hold and ask for is this person's (GET /people/{personId}/stock, `holderId` of the asset list).",
      example: "per_01jd3k4m5n6p7q8r9s0t1v2w3x",
    }),
  })
  .openapi("Permissions");
