import { createRouter, defineRoute, errorResponses, jsonContent as json, jsonBody } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { conflict } from "../../platform/errors";
import { cancelCase } from "./cancel";
import { listCases, listItems, requireCase } from "./list";
import {
  CasePage,
  CaseParams,
  ItemPage,
  ListCasesQuery,
  ListItemsQuery,
  OffboardingCaseSchema,
  StartOffboardingBody,
  tags,
} from "./schemas";
import { openCase } from "./start";
import { presentCase } from "./view";

const WHAT =
  "A case lists what the person holds (assets and the assets inside them, kits, open stock issues, open requests) and ticks each off as it comes back; see docs/offboarding.md.";

export const offboardingRouter = createRouter()
  .openapi(
    defineRoute({
      method: "post",
      path: "/offboarding-cases",
      operationId: "startOffboarding",
      tags,
      summary: "Start offboarding a person (a leaver's equipment coming back)",
      description: `${WHAT} Starting ends the sign-ins, refresh tokens and API keys of the person's user (same email) at once, cancels their reserved bookings (booking.cancelled each) and refuses anything new for them (checkout, kit checkout, stock issue, booking, a request's approval: 409 naming the case). Nothing is checked in. 409 when the person already has an open case (\`details.offboardingCaseId\`) or is deactivated; 400 for an unknown person or a dueAt not in the future. Sends offboarding.started.`,
      request: jsonBody(StartOffboardingBody),
      responses: { 201: json(OffboardingCaseSchema, "The open case"), ...errorResponses(409, 415) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const out = await openCase(serviceCtx(c), body.personId, {
        source: "admin",
        requestId: c.var.requestId,
        dueAt: body.dueAt,
      });
      if (!out.created)
        throw conflict(`The person already has an open offboarding case (${out.case.id})`, {
          offboardingCaseId: out.case.id,
        });
      return c.json(out.case, 201);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/offboarding-cases",
      operationId: "listOffboardingCases",
      tags,
      summary: "List offboarding cases",
      description: "Newest first; filter by state (`open` is the work list) or person.",
      request: { query: ListCasesQuery },
      responses: { 200: json(CasePage, "A page of cases") },
    }),
    async (c) => c.json(await listCases(c.var.db, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/offboarding-cases/{caseId}",
      operationId: "getOffboardingCase",
      tags,
      summary: "Get an offboarding case",
      description: WHAT,
      request: { params: CaseParams },
      responses: { 200: json(OffboardingCaseSchema, "The case") },
    }),
    async (c) => c.json(await presentCase(c.var.db, await requireCase(c.var.db, c.req.valid("param").caseId)), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/offboarding-cases/{caseId}/items",
      operationId: "listOffboardingCaseItems",
      tags,
      summary: "What the case waits for, each with its state",
      description:
        "The return list: by kind (asset, kit, request, stock), then id. An asset inside another names it in parentAssetId; scan an asset's `reference` (its tag) and check it in to tick it off (moments later, or at the next cron run).",
      request: { params: CaseParams, query: ListItemsQuery },
      responses: { 200: json(ItemPage, "A page of items") },
    }),
    async (c) => c.json(await listItems(c.var.db, c.req.valid("param").caseId, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/offboarding-cases/{caseId}/cancel",
      operationId: "cancelOffboardingCase",
      tags,
      summary: "Cancel an open offboarding case",
      description:
        "Nothing is lost: what the person holds stays theirs, the items not yet back become `withdrawn`, and the person can be given equipment again. Ended sign-ins and cancelled bookings stay so. 409 when the case is closed or cancelled already. Sends offboarding.cancelled.",
      request: { params: CaseParams },
      responses: { 200: json(OffboardingCaseSchema, "The cancelled case"), ...errorResponses(409) },
    }),
    async (c) => {
      const ctx = serviceCtx(c);
      const row = await requireCase(ctx.db, c.req.valid("param").caseId);
      return c.json(await cancelCase(ctx, row, { source: "admin", requestId: c.var.requestId }), 200);
    },
  );
