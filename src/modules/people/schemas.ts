import { z } from "@hono/zod-openapi";
import { PERSON_STATUSES } from "../../db/tenant/people";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { nameField, textField } from "../../platform/schemas";
import { deletedAtField, updatedSinceParam } from "../../platform/sync";

export const PersonSchema = z
  .object({
    deletedAt: deletedAtField,
    id: z.string().openapi({ example: "per_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string().openapi({ example: "Ada Lovelace" }),
    email: z.string().nullable().openapi({ example: "ada@example.com" }),
    employeeNumber: z.string().nullable(),
    department: z.string().nullable(),
    costCenter: z.string().nullable(),
    externalId: z
      .string()
      .nullable()
      .openapi({ description: "The identity provider's id for this person (SCIM `externalId`)." }),
    managerId: z.string().nullable().openapi({ description: "The person this person reports to." }),
    title: z.string().nullable(),
    phone: z.string().nullable(),
    locationId: z.string().nullable(),
    notes: z.string().nullable(),
    status: z
      .enum(PERSON_STATUSES)
      .openapi({ description: "`active` (default) or `deactivated` (hidden from the default list)." }),
    customFields: z
      .record(z.string(), z.unknown())
      .openapi({ description: "Values of the live person custom fields, by key." }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Person");

const short = z.string().trim().max(120, "at most 120 characters");
const email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email("must be an email address"))
  .openapi({ example: "ada@example.com" });

export const CreatePersonBody = z
  .strictObject({
    name: nameField,
    email: email
      .nullable()
      .optional()
      .openapi({ description: "Unique among the workspace's people (case-insensitive; 409)." }),
    employeeNumber: short.nullable().optional(),
    department: short.nullable().optional(),
    costCenter: short.nullable().optional(),
    externalId: z
      .string()
      .trim()
      .min(1)
      .max(255, "at most 255 characters")
      .nullable()
      .optional()
      .openapi({ description: "The identity provider's id; unique among the workspace's people (409)." }),
    managerId: z.string().min(1).max(64).nullable().optional().openapi({
      description: "The person this person reports to: another live person of the workspace (400 otherwise).",
    }),
    title: short.nullable().optional(),
    phone: z.string().trim().max(40, "at most 40 characters").nullable().optional(),
    locationId: z
      .string()
      .min(1)
      .max(64)
      .nullable()
      .optional()
      .openapi({ description: "A live location (400 otherwise)." }),
    notes: textField.nullable().optional(),
    status: z.enum(PERSON_STATUSES).optional().openapi({
      description: "Defaults to `active`. Setting `deactivated` on update checks the person's assets back in first.",
    }),
    customFields: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "Values by custom field key; null removes a value (on update)." }),
  })
  .openapi("CreatePerson");

export const UpdatePersonBody = CreatePersonBody.partial()
  .refine((b) => Object.keys(b).length > 0, "at least one field is required")
  .openapi("UpdatePerson");

export const ListPeopleQuery = z.object({
  updatedSince: updatedSinceParam,
  ...pageQuery,
  q: z.string().trim().min(1).max(120).optional().openapi({
    description:
      'Case-insensitive prefix of the name, email or employee number, or words of the name: each space-separated term starts a word ("love" finds "Ada Lovelace"); all terms must match.',
  }),
  status: z
    .enum(["active", "deactivated", "all"])
    .default("active")
    .openapi({ description: "`active` (default), `deactivated`, or `all` (both; never deleted people)." }),
});

export const PersonPage = pageOf(PersonSchema, "PersonPage");

export const AssignmentSchema = z
  .object({
    id: z.string().openapi({ example: "asg_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    assetId: z.string(),
    assetName: z.string().nullable().openapi({ description: "Null when the asset was permanently deleted." }),
    assetUniqueTag: z.string().nullable(),
    personId: z.string(),
    personName: z.string(),
    checkedOutAt: z.string(),
    checkedOutBy: z.string(),
    dueBackAt: z.string().nullable(),
    checkedInAt: z.string().nullable().openapi({ description: "Null while the asset is still held." }),
    checkedInBy: z.string().nullable(),
    checkinReason: z.string().nullable().openapi({ description: "`checkin`, `person_deactivated`, ..." }),
    checkinNotes: z.string().nullable().openapi({ description: "Notes given at check-in." }),
  })
  .openapi("PersonAssignment");

export const AssignmentPage = pageOf(AssignmentSchema, "PersonAssignmentPage");

export type CreatePersonInput = z.infer<typeof CreatePersonBody>;
export type UpdatePersonInput = z.infer<typeof UpdatePersonBody>;
export type ListPeopleInput = z.infer<typeof ListPeopleQuery>;

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type Person = z.infer<typeof PersonSchema>;
export type PersonAssignment = z.infer<typeof AssignmentSchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const personWebhookResources = { person: PersonSchema } satisfies WebhookResources;
