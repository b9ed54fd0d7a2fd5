import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { createLog } from "./completion";
import { CompletionSchema, CreateLogBody, LogPage, LogParams, LogSchema, UpdateLogBody } from "./log-schemas";
import * as svc from "./logs";
import { ItemParams, ListQuery, ScheduleParams } from "./schemas";
import { maintenanceCtx, toLog, toSchedule } from "./view";

const tags = ["Maintenance"];

export const maintenanceLogsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "post",
      path: "/maintenance/logs",
      operationId: "createMaintenanceLog",
      tags,
      summary: "Record completed maintenance",
      description:
        "An ad-hoc completion `{itemId, type, completedDate, notes}`, or with `scheduleId` the completion of that schedule of the same item: " +
        "a recurring schedule's nextDueDate moves to the first date of its rhythm after both its current due date and the completion day " +
        "(so it stays on its calendar; an early completion counts for the current occurrence; missed occurrences are not stacked); a one-off schedule becomes `completed`. " +
        "Adds a MAINTENANCE_COMPLETED timeline entry and a `maintenance.completed` event. " +
        "This is how maintenance is completed: it does not go through the asset's status (or its status meta), and it leaves the asset's status as it is.",
      request: body(CreateLogBody),
      responses: {
        201: json(CompletionSchema, "Recorded; with the schedule after completion"),
        ...errorResponses(409),
      },
    }),
    async (c) => {
      const { log, schedule } = await createLog(maintenanceCtx(c), c.req.valid("json"));
      return c.json({ ...toLog(log), schedule: schedule ? toSchedule(schedule) : null }, 201);
    },
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/maintenance/logs/item/{itemId}",
      operationId: "listItemMaintenanceLogs",
      tags,
      summary: "Maintenance logs of an item",
      description: "Latest completion first.",
      request: { params: ItemParams, query: ListQuery },
      responses: { 200: json(LogPage, "A page of logs") },
    }),
    async (c) => c.json(await svc.listItemLogs(serviceCtx(c), c.req.valid("param").itemId, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/maintenance/logs/schedule/{scheduleId}",
      operationId: "listScheduleMaintenanceLogs",
      tags,
      summary: "Maintenance logs of a schedule",
      description: "The completions of the schedule, latest first.",
      request: { params: ScheduleParams, query: ListQuery },
      responses: { 200: json(LogPage, "A page of logs") },
    }),
    async (c) =>
      c.json(await svc.listScheduleLogs(serviceCtx(c), c.req.valid("param").scheduleId, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/maintenance/logs/{logId}",
      operationId: "getMaintenanceLog",
      tags,
      summary: "Get a maintenance log",
      request: { params: LogParams },
      responses: { 200: json(LogSchema, "The log") },
    }),
    async (c) => c.json(toLog(await svc.getLog(serviceCtx(c), c.req.valid("param").logId)), 200),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/maintenance/logs/{logId}",
      operationId: "updateMaintenanceLog",
      tags,
      summary: "Correct a maintenance log",
      description:
        "Type, completion time or notes. The schedule it completed is not moved again; the timeline entry stays as recorded.",
      request: { params: LogParams, ...body(UpdateLogBody) },
      responses: { 200: json(LogSchema, "Updated"), ...errorResponses(409) },
    }),
    async (c) =>
      c.json(toLog(await svc.updateLog(serviceCtx(c), c.req.valid("param").logId, c.req.valid("json"))), 200),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/maintenance/logs/{logId}",
      operationId: "deleteMaintenanceLog",
      tags,
      summary: "Delete a maintenance log",
      description: "Permanent. A schedule it completed keeps its advanced due date; the timeline entry stays.",
      request: { params: LogParams },
      responses: { 204: { description: "Deleted" } },
    }),
    async (c) => {
      await svc.deleteLog(serviceCtx(c), c.req.valid("param").logId);
      return c.body(null, 204);
    },
  );
