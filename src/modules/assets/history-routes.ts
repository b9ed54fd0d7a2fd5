import { createRouter, defineRoute, jsonContent as json } from "../../http/router";
import { AssignmentPage, AuditPage, PageQuery, StatusEventPage, TimelinePage, TimelineQuery } from "./action-schemas";
import { listAssignments, listAudit, listStatusEvents, listTimeline } from "./history";
import { requireAsset } from "./lookup";
import { ItemParams, tags } from "./params";

export const historyRoutes = createRouter()
  .openapi(
    defineRoute({ method: "get", path: "/inventory-items/{inventoryItemId}/status-events", operationId: "listInventoryItemStatusEvents", tags, summary: "Status changes of an item", description: "Newest first: who, when, from, to, reason, meta.", request: { params: ItemParams, query: PageQuery }, responses: { 200: json(StatusEventPage, "A page of status events") } }),
    async (c) => {
      const asset = await requireAsset(c.var.db, c.req.valid("param").inventoryItemId);
      return c.json(await listStatusEvents(c.var.db, asset.id, c.req.valid("query")), 200);
    },
  )
  .openapi(
    defineRoute({ method: "get", path: "/inventory-items/{inventoryItemId}/assignment-history", operationId: "listInventoryItemAssignmentHistory", tags, summary: "Checkouts and check-ins of an item", description: "Newest first: person, out/in times and who, due date.", request: { params: ItemParams, query: PageQuery }, responses: { 200: json(AssignmentPage, "A page of assignments") } }),
    async (c) => {
      const asset = await requireAsset(c.var.db, c.req.valid("param").inventoryItemId);
      return c.json(await listAssignments(c.var.db, { assetId: asset.id }, c.req.valid("query")), 200);
    },
  )
  .openapi(
    defineRoute({ method: "get", path: "/inventory-items/{inventoryItemId}/audit", operationId: "listInventoryItemAudit", tags, summary: "Field-level change log of an item", description: "Newest first: one entry per changed field per write (who, when, field, old, new); delete and restore have no field.", request: { params: ItemParams, query: PageQuery }, responses: { 200: json(AuditPage, "A page of audit entries") } }),
    async (c) => {
      const asset = await requireAsset(c.var.db, c.req.valid("param").inventoryItemId);
      return c.json(await listAudit(c.var.db, asset.id, c.req.valid("query")), 200);
    },
  )
  .openapi(
    defineRoute({ method: "get", path: "/inventory-items/{inventoryItemId}/timeline", operationId: "listInventoryItemTimeline", tags, summary: "Timeline of an item", description: "Newest first. `types` filters by the SPEC 2.4 event types (unknown type: 400).", request: { params: ItemParams, query: TimelineQuery }, responses: { 200: json(TimelinePage, "A page of timeline entries") } }),
    async (c) => {
      const asset = await requireAsset(c.var.db, c.req.valid("param").inventoryItemId);
      return c.json(await listTimeline(c.var.db, asset.id, c.req.valid("query")), 200);
    },
  );
