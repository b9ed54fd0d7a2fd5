import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { presentSeats } from "./holders";
import { requireLot } from "./lots";
import { reclaimList, reclaimSeats } from "./reclaim";
import {
  AssetSeatsParams,
  AssignSeatBody,
  ListSeatsQuery,
  LotParams,
  PersonSeatsParams,
  ReclaimBody,
  ReclaimQuery,
  ReclaimResultSchema,
  SeatPage,
  SeatParams,
  SeatSchema,
  tags,
  UsageBody,
  UsageResultSchema,
} from "./schemas";
import { assignSeat, listSeats, requireHolder, requireSeat, unassignSeat } from "./seats";
import { recordUsage } from "./usage";

const HISTORY = "Open seats by id; with `includeHistory=true` every seat ever held, newest first (the history).";

export const licenceSeatsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "post",
      path: "/licence-lots/{lotId}/seats",
      operationId: "assignLicenceSeat",
      tags,
      summary: "Assign a seat of a lot to a person or an asset",
      description:
        "By the lot's kind: per_user and concurrent to a person, per_device to an asset, site and unlimited to either. A lot never goes over its seats: 409 naming the seats assigned and the product's other lots with free seats (`details.freeElsewhere`); of two requests for the last seat exactly one wins. A holder has at most one open seat per lot (409).",
      request: { params: LotParams, ...body(AssignSeatBody) },
      responses: { 201: json(SeatSchema, "Assigned"), ...errorResponses(409) },
    }),
    async (c) => c.json(await assignSeat(serviceCtx(c), c.req.valid("param").lotId, c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/licence-lots/{lotId}/seats",
      operationId: "listLicenceLotSeats",
      tags,
      summary: "Seats of a lot",
      description: HISTORY,
      request: { params: LotParams, query: ListSeatsQuery },
      responses: { 200: json(SeatPage, "A page of seats") },
    }),
    async (c) => {
      const { lotId } = c.req.valid("param");
      await requireLot(c.var.db, lotId);
      return c.json(await listSeats(c.var.db, { lotId }, c.req.valid("query")), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/licence-seats/{seatId}",
      operationId: "getLicenceSeat",
      tags,
      summary: "Get a seat",
      request: { params: SeatParams },
      responses: { 200: json(SeatSchema, "The seat") },
    }),
    async (c) => {
      const [seat] = await presentSeats(c.var.db, [await requireSeat(c.var.db, c.req.valid("param").seatId)]);
      return c.json(seat!, 200);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/licence-seats/{seatId}/unassign",
      operationId: "unassignLicenceSeat",
      tags,
      summary: "Unassign a seat",
      description: "The seat closes (it stays in the holder's history); 409 when it was already unassigned.",
      request: { params: SeatParams },
      responses: { 200: json(SeatSchema, "Unassigned"), ...errorResponses(409) },
    }),
    async (c) => c.json(await unassignSeat(serviceCtx(c), c.req.valid("param").seatId), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/people/{personId}/licence-seats",
      operationId: "listPersonLicenceSeats",
      tags,
      summary: "A person's licence seats",
      description: HISTORY,
      request: { params: PersonSeatsParams, query: ListSeatsQuery },
      responses: { 200: json(SeatPage, "A page of seats") },
    }),
    async (c) => {
      const { personId } = c.req.valid("param");
      await requireHolder(c.var.db, "person", personId);
      return c.json(await listSeats(c.var.db, { holderKind: "person", holderId: personId }, c.req.valid("query")), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/inventory-items/{inventoryItemId}/licence-seats",
      operationId: "listInventoryItemLicenceSeats",
      tags,
      summary: "The software on an asset (its licence seats)",
      description: HISTORY,
      request: { params: AssetSeatsParams, query: ListSeatsQuery },
      responses: { 200: json(SeatPage, "A page of seats") },
    }),
    async (c) => {
      const { inventoryItemId } = c.req.valid("param");
      await requireHolder(c.var.db, "asset", inventoryItemId);
      return c.json(
        await listSeats(c.var.db, { holderKind: "asset", holderId: inventoryItemId }, c.req.valid("query")),
        200,
      );
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/licence-usage",
      operationId: "reportLicenceUsage",
      tags,
      summary: "Report software usage (bulk, idempotent)",
      description:
        "Up to 1,000 reports of who (a person) or what (an asset) used a product when, from any source. A report already stored (same product, holder, instant and source) is counted as a duplicate, so a collector may resend; each open seat of the product held by the holder keeps its last use. 400 naming every unknown product or holder (nothing stored).",
      request: body(UsageBody),
      responses: { 200: json(UsageResultSchema, "Recorded") },
    }),
    async (c) => c.json(await recordUsage(serviceCtx(c), c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/licence-reclaim",
      operationId: "listReclaimableLicenceSeats",
      tags,
      summary: "Seats nobody used for `days` days, costliest first",
      description:
        "Open seats whose last use (or, never used, their assignment) is older than `days` (default 90), by cost per seat (minor units of each lot's currency), then id.",
      request: { query: ReclaimQuery },
      responses: { 200: json(SeatPage, "A page of seats") },
    }),
    async (c) => c.json(await reclaimList(c.var.db, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/licence-reclaim",
      operationId: "reclaimLicenceSeats",
      tags,
      summary: "Reclaim seats",
      description:
        "Frees up to 100 open seats in one write: licence_seat.reclaimed for each, and an in-app notification to the workspace's owners and admins and to each holder's user (the user with the person's email). 409 when a seat was already unassigned (nothing reclaimed).",
      request: body(ReclaimBody),
      responses: { 200: json(ReclaimResultSchema, "Reclaimed"), ...errorResponses(409) },
    }),
    async (c) => c.json(await reclaimSeats(serviceCtx(c), c.env, c.req.valid("json").seatIds), 200),
  );
