import { z } from "@hono/zod-openapi";
import { HEADERS } from "../../http/response-headers";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { notFound } from "../../platform/errors";
import { workspaceApiUrl } from "../../tenancy/host";
import * as agreements from "./agreements";
import { verifyReceipt } from "./chain";
import { acceptHandover, declineHandover } from "./decide";
import { createLink } from "./link";
import { openHandover } from "./open";
import { handoverDetail, listHandovers, listReceipts, requireHandover, requireReceipt } from "./read";
import {
  AcceptBody,
  AgreementPage,
  AgreementParams,
  AgreementSchema,
  AgreementVersionPage,
  CreateAgreementBody,
  CreatedHandoverSchema,
  CreateHandoverBody,
  DeclineBody,
  HandoverDetailSchema,
  HandoverLinkSchema,
  HandoverPage,
  HandoverParams,
  HandoverSchema,
  LinkBody,
  ListHandoversQuery,
  ListQuery,
  ReceiptPage,
  ReceiptParams,
  ReceiptSchema,
  ReceiptVerificationSchema,
  tags,
  UpdateAgreementBody,
} from "./schemas";
import { toReceipt } from "./view";

const AcceptedSchema = z.object({ handover: HandoverSchema, receipt: ReceiptSchema }).openapi("AcceptedHandover");

export const handoversRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/agreements",
      operationId: "listAgreements",
      tags,
      summary: "List agreement templates",
      request: { query: ListQuery },
      responses: { 200: json(AgreementPage, "A page of agreements, by name, each with its current text") },
    }),
    async (c) => c.json(await agreements.listAgreements(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/agreements",
      operationId: "createAgreement",
      tags,
      summary: "Create an agreement template",
      description:
        "Markdown with the fields `{{person}}`, `{{items}}`, `{{date}}`, `{{dueBack}}`, attached to the workspace, a category or a kit (one live agreement per scope: 409). A hand-over uses the kit's agreement, else its items' category agreement, else the workspace's (docs/handovers.md).",
      request: body(CreateAgreementBody),
      responses: { 201: json(AgreementSchema, "Created (version 1)"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await agreements.createAgreement(serviceCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/agreements/{agreementId}",
      operationId: "getAgreement",
      tags,
      summary: "Get an agreement template",
      request: { params: AgreementParams },
      responses: { 200: json(AgreementSchema, "The agreement and its current text") },
    }),
    async (c) => c.json(await agreements.getAgreement(serviceCtx(c), c.req.valid("param").agreementId), 200),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/agreements/{agreementId}",
      operationId: "updateAgreement",
      tags,
      summary: "Edit an agreement template",
      description:
        "A new `body` makes a new version; hand-overs made with an older version keep it (and their receipts quote it). `name` and `requireReturnSignature` change in place.",
      request: { params: AgreementParams, ...body(UpdateAgreementBody) },
      responses: { 200: json(AgreementSchema, "Updated"), ...errorResponses(409, 415) },
    }),
    async (c) =>
      c.json(
        await agreements.updateAgreement(serviceCtx(c), c.req.valid("param").agreementId, c.req.valid("json")),
        200,
      ),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/agreements/{agreementId}",
      operationId: "deleteAgreement",
      tags,
      summary: "End an agreement template",
      description: "New hand-overs of its scope no longer need it; past hand-overs and receipts keep their version.",
      request: { params: AgreementParams },
      responses: { 204: { description: "Ended" } },
    }),
    async (c) => {
      await agreements.deleteAgreement(serviceCtx(c), c.req.valid("param").agreementId);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/agreements/{agreementId}/versions",
      operationId: "listAgreementVersions",
      tags,
      summary: "An agreement's versions",
      request: { params: AgreementParams, query: ListQuery },
      responses: { 200: json(AgreementVersionPage, "A page of versions, newest first") },
    }),
    async (c) =>
      c.json(
        await agreements.listAgreementVersions(serviceCtx(c), c.req.valid("param").agreementId, c.req.valid("query")),
        200,
      ),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/handovers",
      operationId: "createHandover",
      tags,
      summary: "Hand items over to a person (or take them back)",
      description:
        "`checkout`: checks the items (or a kit's) out to the person, all or none; `return`: checks them in from the person. When an agreement applies (for a return: one with `requireReturnSignature`), the answer's `handover` is `pending_acceptance` until the person signs in person (POST .../accept) or by link (POST .../link); one acceptance covers every item. The items are held either way: the acceptance is the record. With no agreement, `handover` is null.",
      request: body(CreateHandoverBody),
      responses: { 201: json(CreatedHandoverSchema, "Done"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await openHandover(serviceCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/handovers",
      operationId: "listHandovers",
      tags,
      summary: "List hand-overs",
      request: { query: ListHandoversQuery },
      responses: { 200: json(HandoverPage, "A page of hand-overs, newest first") },
    }),
    async (c) => c.json(await listHandovers(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/handovers/{handoverId}",
      operationId: "getHandover",
      tags,
      summary: "Get a hand-over with its agreement filled in",
      request: { params: HandoverParams },
      responses: { 200: json(HandoverDetailSchema, "The hand-over and the text the person signs") },
    }),
    async (c) => {
      const ctx = serviceCtx(c);
      return c.json(await handoverDetail(ctx, await requireHandover(ctx, c.req.valid("param").handoverId)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/handovers/{handoverId}/accept",
      operationId: "acceptHandover",
      tags,
      summary: "Sign a hand-over in person",
      description:
        "On the same phone: the person reads the agreement and signs with a drawn signature (`signaturePng`, kept in storage and printed on the receipt) or their typed name. Makes the PDF receipt and links it into the workspace's receipt chain. 409 once accepted or declined. A signature taken offline is sent later with `signedAt` (replayed once: a second send is a 409).",
      request: { params: HandoverParams, ...body(AcceptBody) },
      responses: { 200: json(AcceptedSchema, "Accepted; the receipt was issued"), ...errorResponses(409, 415) },
    }),
    async (c) => {
      const ctx = serviceCtx(c);
      const row = await requireHandover(ctx, c.req.valid("param").handoverId);
      return c.json(await acceptHandover(ctx, row, { method: "in_person", ...c.req.valid("json") }), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/handovers/{handoverId}/link",
      operationId: "createHandoverLink",
      tags,
      summary: "A signing link for the person",
      description:
        "A signed, expiring, single-use page the person opens without an account, to accept or decline with a reason. A new link replaces the previous one; a decision uses it up. Send it to the person yourself (the URL is shown only now).",
      request: { params: HandoverParams, ...body(LinkBody) },
      responses: { 201: json(HandoverLinkSchema, "The link"), ...errorResponses(409, 415) },
    }),
    async (c) => {
      const { token, expiresAt } = await createLink(
        serviceCtx(c),
        c.env.FILES_SIGNING_SECRET,
        c.req.valid("param").handoverId,
        c.req.valid("json").expiresInHours,
      );
      return c.json({ url: workspaceApiUrl(c.env, c.var.tenant.slug, `/handover-links/${token}`), expiresAt }, 201);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/handovers/{handoverId}/decline",
      operationId: "declineHandover",
      tags,
      summary: "Record that the person declined a hand-over",
      description: "With the person's reason; the items stay where they are. 409 once accepted or declined.",
      request: { params: HandoverParams, ...body(DeclineBody) },
      responses: { 200: json(HandoverSchema, "Declined"), ...errorResponses(409, 415) },
    }),
    async (c) => {
      const ctx = serviceCtx(c);
      const row = await requireHandover(ctx, c.req.valid("param").handoverId);
      return c.json(await declineHandover(ctx, row, c.req.valid("json").reason), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/receipts",
      operationId: "listReceipts",
      tags,
      summary: "List hand-over receipts",
      request: { query: ListQuery },
      responses: { 200: json(ReceiptPage, "A page of receipts, newest (highest seq) first") },
    }),
    async (c) => c.json(await listReceipts(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/receipts/{receiptId}",
      operationId: "getReceipt",
      tags,
      summary: "Get a receipt",
      request: { params: ReceiptParams },
      responses: { 200: json(ReceiptSchema, "The receipt") },
    }),
    async (c) => c.json(toReceipt(await requireReceipt(serviceCtx(c), c.req.valid("param").receiptId)), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/receipts/{receiptId}/pdf",
      operationId: "getReceiptPdf",
      tags,
      summary: "Download a receipt's PDF",
      request: { params: ReceiptParams },
      responses: {
        200: {
          description: "The PDF as stored (its SHA-256 is the receipt's docSha256)",
          headers: {
            "Content-Disposition": HEADERS.contentDisposition('`attachment; filename="receipt-<id>.pdf"`.'),
          },
          content: { "application/pdf": { schema: z.string().openapi({ format: "binary" }) } },
        },
      },
    }),
    async (c) => {
      const ctx = serviceCtx(c);
      const row = await requireReceipt(ctx, c.req.valid("param").receiptId);
      const object = await c.env.FILES.get(row.objectKey);
      if (!object) throw notFound("Receipt document");
      return c.body(await object.arrayBuffer(), 200, {
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename="receipt-${row.id}.pdf"`,
      });
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/receipts/{receiptId}/verify",
      operationId: "verifyReceipt",
      tags,
      summary: "Verify a receipt",
      description:
        "Whether the receipt is intact (the stored PDF hashes to `docSha256`, the row to `chainHash`) and in the workspace's chain (its `prevHash` is the previous receipt's `chainHash`, and the next's `prevHash` is its own). A changed PDF or row fails.",
      request: { params: ReceiptParams },
      responses: { 200: json(ReceiptVerificationSchema, "The verdict and each check") },
    }),
    async (c) => c.json(await verifyReceipt(serviceCtx(c), c.req.valid("param").receiptId), 200),
  );
