import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { sessionCtx } from "./context";
import * as scan from "./scan";
import {
  MobileSchema,
  ScanBatchBody,
  ScanBatchResponse,
  ScanBody,
  ScanOutcomeSchema,
  UnscanBody,
  UnscanResponse,
} from "./scan-schemas";
import { SessionParams as Params } from "./schemas";

const tags = ["Inventory sessions"];
const SCAN_RULES =
  "Results are answers, not errors (200): `accepted`; `already_scanned` (or accepted again with `allowRescan`); " +
  "`not_in_session` with reason `not_expected`, `excluded` or `unknown_code` (a code that matches no asset; recorded for the report); " +
  "`wrong_location` (reason `outside_scope`): a location-scoped session met an asset recorded outside its scope, accepted as a " +
  "`found` item with `allowMarkAnyway`. Idempotent: one item is accepted once however many phones send it at once, and a repeated " +
  "`scanId` returns the first answer. Draft, completed or cancelled session: 409.";

export const sessionScanRouter = createRouter()
  .openapi(
    defineRoute({
      method: "post",
      path: "/sessions/{sessionId}/scan",
      operationId: "scanSessionItem",
      tags,
      summary: "Scan an item",
      description: SCAN_RULES,
      request: { params: Params, ...body(ScanBody) },
      responses: { 200: json(ScanOutcomeSchema, "The scan's result"), ...errorResponses(409, 415, 503) },
    }),
    async (c) => c.json(await scan.scanOne(sessionCtx(c), c.req.valid("param").sessionId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/sessions/{sessionId}/scan/batch",
      operationId: "scanSessionBatch",
      tags,
      summary: "Scan up to 500 items at once",
      description: `For RFID readers and offline replays: applied in \`scannedAt\` order (ties in request order), answered per scan in request order. More than 500: 400. ${SCAN_RULES}`,
      request: { params: Params, ...body(ScanBatchBody) },
      responses: { 200: json(ScanBatchResponse, "One result per scan"), ...errorResponses(409, 415, 503) },
    }),
    async (c) =>
      c.json(await scan.scanBatch(sessionCtx(c), c.req.valid("param").sessionId, c.req.valid("json").scans), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/sessions/{sessionId}/unscan",
      operationId: "unscanSessionItem",
      tags,
      summary: "Remove an item's scan",
      description:
        "The item counts as missing again; `removed: false` when it had no scan. An item that is not in the session: 400. Verification already written to the asset (lastVerifiedAt, VERIFIED timeline entry) stays: the timeline is append-only.",
      request: { params: Params, ...body(UnscanBody) },
      responses: { 200: json(UnscanResponse, "Done"), ...errorResponses(409, 415, 503) },
    }),
    async (c) => c.json(await scan.unscan(sessionCtx(c), c.req.valid("param").sessionId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/sessions/{sessionId}/mobile",
      operationId: "getSessionMobile",
      tags,
      summary: "Fast mobile payload",
      description:
        "Answered by the session's object alone: identity, status, location, progress and the 20 latest scans. A draft: 409.",
      request: { params: Params },
      responses: { 200: json(MobileSchema, "The payload"), ...errorResponses(409) },
    }),
    async (c) => c.json(await scan.mobile(sessionCtx(c), c.req.valid("param").sessionId), 200),
  );
