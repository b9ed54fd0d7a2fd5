import { z } from "@hono/zod-openapi";
import { AGREEMENT_SCOPES, HANDOVER_KINDS, HANDOVER_METHODS, HANDOVER_STATES } from "../../db/tenant/handovers";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { idParam, isoInstant, nameField } from "../../platform/schemas";

export const tags = ["Hand-overs"];

/** Agreement text: Markdown, bounded so a receipt stays a few pages. */
const agreementBody = z.string().trim().min(1, "must not be empty").max(20_000, "at most 20000 characters").openapi({
  description:
    "Markdown. Fields filled in at hand-over: `{{person}}` (the person's name), `{{items}}` (a list of the items with tags and serials), `{{date}}` (the hand-over's day, UTC) and `{{dueBack}}` (the due-back time, or 'open').",
  example: "I, {{person}}, received on {{date}}:\n\n{{items}}\n\nand will return them by {{dueBack}}.",
});

export const AgreementSchema = z
  .object({
    id: z.string().openapi({ example: "agr_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string(),
    scope: z.enum(AGREEMENT_SCOPES).openapi({
      description:
        "Where it applies: every hand-over of the workspace, of a category's assets, or of a kit. The most specific applies: kit, then category, then workspace.",
    }),
    scopeId: z.string().nullable().openapi({ description: "The category's or kit's id; null for the workspace." }),
    requireReturnSignature: z.boolean().openapi({ description: "A return of what it covers needs a signature too." }),
    version: z.number().int().openapi({ description: "The current version; an edit of the text makes the next." }),
    body: z.string().openapi({ description: "The current version's Markdown." }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Agreement");

export const AgreementVersionSchema = z
  .object({
    id: z.string().openapi({ example: "agv_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    agreementId: z.string(),
    version: z.number().int(),
    body: z.string(),
    createdAt: z.string(),
  })
  .openapi("AgreementVersion");

export const CreateAgreementBody = z
  .strictObject({
    name: nameField,
    scope: z.enum(AGREEMENT_SCOPES),
    scopeId: z.string().min(1).max(64).optional().openapi({ description: "Required for `category` and `kit`." }),
    body: agreementBody,
    requireReturnSignature: z.boolean().optional(),
  })
  .openapi("CreateAgreement");

export const UpdateAgreementBody = z
  .strictObject({
    name: nameField.optional(),
    body: agreementBody.optional(),
    requireReturnSignature: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, "at least one field is required")
  .openapi("UpdateAgreement");

export const AgreementParams = z.object({ agreementId: idParam("agreementId", "agr_01jd3k4m5n6p7q8r9s0t1v2w3x") });
export const AgreementPage = pageOf(AgreementSchema, "AgreementPage");
export const AgreementVersionPage = pageOf(AgreementVersionSchema, "AgreementVersionPage");
export const ListQuery = z.object({ ...pageQuery });

const HandoverItemSchema = z
  .object({ assetId: z.string(), name: z.string(), tag: z.string().nullable(), serial: z.string().nullable() })
  .openapi("HandoverItem");

export const HandoverSchema = z
  .object({
    id: z.string().openapi({ example: "hov_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    kind: z.enum(HANDOVER_KINDS).openapi({ description: "`checkout`: given to the person; `return`: taken back." }),
    state: z.enum(HANDOVER_STATES).openapi({
      description:
        "`pending_acceptance` until the person signs (in person or by link) or declines. The items are held either way: the acceptance is the record, not a lock.",
    }),
    personId: z.string(),
    personName: z.string(),
    kitId: z.string().nullable(),
    agreementId: z.string().nullable(),
    agreementVersionId: z.string().nullable(),
    agreementVersion: z.number().int().nullable(),
    items: z.array(HandoverItemSchema),
    dueBackAt: z.string().nullable(),
    method: z.enum(HANDOVER_METHODS).nullable().openapi({
      description:
        "How it was decided: `in_person` (signed on the phone), `link` (by the emailed link) or `recorded` (a return recorded by the workspace, e.g. an offboarding's close).",
    }),
    signerName: z.string().nullable(),
    hasSignatureImage: z.boolean(),
    declineReason: z.string().nullable(),
    linkExpiresAt: z.string().nullable(),
    receiptId: z.string().nullable(),
    createdAt: z.string(),
    decidedAt: z.string().nullable(),
  })
  .openapi("Handover");

export const HandoverDetailSchema = HandoverSchema.extend({
  agreementText: z
    .string()
    .nullable()
    .openapi({ description: "The agreement with its fields filled in, as the person sees it before signing." }),
}).openapi("HandoverDetail");

export const CreateHandoverBody = z
  .strictObject({
    kind: z.enum(HANDOVER_KINDS).default("checkout"),
    personId: z.string().min(1).max(64),
    itemIds: z.array(z.string().min(1).max(64)).min(1).max(100).optional(),
    kitId: z.string().min(1).max(64).optional(),
    dueBackAt: isoInstant.optional(),
  })
  .refine((b) => !!b.itemIds !== !!b.kitId, { message: "give exactly one of itemIds or kitId", path: ["itemIds"] })
  .openapi("CreateHandover");

export const CreatedHandoverSchema = z
  .object({
    itemIds: z.array(z.string()).openapi({ description: "The items checked out (or in)." }),
    handover: z.union([HandoverSchema, z.null()]).openapi({
      description:
        "The acceptance this hand-over needs (`pending_acceptance`), or null when no agreement applies (and, for a return, none asks for a signature).",
    }),
  })
  .openapi("CreatedHandover");

/** A PNG as a data URL or bare base64; bounded (a phone's signature is a few kilobytes). */
export const SIGNATURE_MAX_BYTES = 256 * 1024;
export const AcceptBody = z
  .strictObject({
    signerName: nameField.openapi({ description: "The name the person typed (or the name under a drawn signature)." }),
    signaturePng: z
      .string()
      .max(Math.ceil((SIGNATURE_MAX_BYTES * 4) / 3) + 64, "the signature image is over 256 KiB")
      .optional()
      .openapi({
        description: "The drawn signature: a PNG, base64 or a `data:image/png;base64,` URL, at most 256 KiB.",
      }),
    signedAt: isoInstant.optional().openapi({
      description:
        "When it was signed, for a signature taken offline and sent later (not in the future; at most 7 days back). Defaults to now.",
    }),
  })
  .openapi("AcceptHandover");

export const DeclineBody = z
  .strictObject({ reason: z.string().trim().min(1, "must not be empty").max(1000, "at most 1000 characters") })
  .openapi("DeclineHandover");

export const LinkBody = z
  .strictObject({
    expiresInHours: z.number().int().min(1).max(720).default(72).openapi({ description: "1 to 720; default 72." }),
  })
  .openapi("CreateHandoverLink");

export const HandoverLinkSchema = z
  .object({
    url: z.string().openapi({ description: "The page the person opens; no account needed. Shown only now." }),
    expiresAt: z.string(),
  })
  .openapi("HandoverLink");

export const HandoverParams = z.object({ handoverId: idParam("handoverId", "hov_01jd3k4m5n6p7q8r9s0t1v2w3x") });
export const HandoverPage = pageOf(HandoverSchema, "HandoverPage");
export const ListHandoversQuery = z.object({
  ...pageQuery,
  state: z.enum(HANDOVER_STATES).optional(),
  personId: z.string().min(1).max(64).optional(),
  assetId: z.string().min(1).max(64).optional().openapi({ description: "Hand-overs that include this item." }),
});

export const LinkParams = z.object({
  token: z
    .string()
    .min(1)
    .max(400)
    .openapi({ param: { name: "token", in: "path" }, example: "hov_01jd3k4m5n6p7q8r9s0t1v2w3x.n0nce.1767225600.sig" }),
});
export const LinkAcceptBody = z.strictObject({ signerName: nameField }).openapi("AcceptHandoverByLink");

export const ReceiptSchema = z
  .object({
    id: z.string().openapi({ example: "rcp_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    seq: z.number().int().openapi({ description: "Its place in the workspace's chain, from 1." }),
    handoverId: z.string(),
    docSha256: z.string().openapi({ description: "SHA-256 (hex) of the PDF as stored." }),
    prevHash: z.string().openapi({ description: "The previous receipt's chainHash (64 zeros for the first)." }),
    chainHash: z.string().openapi({ description: "SHA-256 of seq, prevHash, docSha256, handoverId and issuedAt." }),
    issuedAt: z.string(),
  })
  .openapi("Receipt");
export const ReceiptPage = pageOf(ReceiptSchema, "ReceiptPage");
export const ReceiptParams = z.object({ receiptId: idParam("receiptId", "rcp_01jd3k4m5n6p7q8r9s0t1v2w3x") });

const CHECK = z.enum(["ok", "mismatch", "missing"]);
export const ReceiptVerificationSchema = z
  .object({
    receiptId: z.string(),
    valid: z.boolean().openapi({ description: "intact and inChain." }),
    intact: z
      .boolean()
      .openapi({ description: "The PDF in storage hashes to docSha256 and the row hashes to chainHash." }),
    inChain: z.boolean().openapi({
      description: "Its prevHash is the previous receipt's chainHash and the next receipt's prevHash is its own.",
    }),
    checks: z.object({ document: CHECK, row: CHECK, previous: CHECK, next: CHECK.or(z.literal("none")) }),
  })
  .openapi("ReceiptVerification");

export type Agreement = z.infer<typeof AgreementSchema>;
export type Handover = z.infer<typeof HandoverSchema>;
export type HandoverDetail = z.infer<typeof HandoverDetailSchema>;
export type CreatedHandover = z.infer<typeof CreatedHandoverSchema>;
export type Receipt = z.infer<typeof ReceiptSchema>;
export type ReceiptVerification = z.infer<typeof ReceiptVerificationSchema>;

/** The payloads of this module's webhook events (docs/webhooks.md). */
export const handoverWebhookResources = {
  agreement: AgreementSchema,
  handover: HandoverSchema,
  receipt: ReceiptSchema,
} satisfies WebhookResources;
