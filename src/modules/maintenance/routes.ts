import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { listDueSchedules } from "./due";
import { listSchedules } from "./list";
import * as svc from "./schedules";
import {
  CreateScheduleBody,
  DuePage,
  DueQuery,
  ItemParams,
  ListAllQuery,
  ListQuery,
  SchedulePage,
  ScheduleParams,
  ScheduleSchema,
  UpdateScheduleBody,
} from "./schemas";
import { maintenanceCtx, toSchedule } from "./view";

const tags = ["Maintenance"];

// Static paths first: /schedules/due/all and /schedules/item/{itemId} never reach /schedules/{scheduleId}.
export const maintenanceSchedulesRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/maintenance/schedules",
      operationId: "listMaintenanceSchedules",
      tags,
      summary: "List maintenance schedules",
      description:
        "Every schedule of the workspace's live items, newest first; `itemId` and `status` narrow it. " +
        "With `updatedSince` (sync): every schedule changed at or after that time, oldest change first by (updatedAt, id), " +
        "including schedules of items in the trash and deleted schedules as tombstones (`deletedAt` set, kept 90 days).",
      request: { query: ListAllQuery },
      responses: { 200: json(SchedulePage, "A page of schedules") },
    }),
    async (c) => c.json(await listSchedules(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/maintenance/schedules/due/all",
      operationId: "listDueMaintenanceSchedules",
      tags,
      summary: "Due maintenance: overdue, due today, upcoming",
      description:
        'Active schedules of live items, classified with "today" in the workspace\'s time zone (settings.timezone, default UTC): ' +
        "`overdue` (nextDueDate before today), `due_today`, `upcoming` (after today, within `lookaheadDays` and within the schedule's own reminderDays). " +
        "Ordered by nextDueDate (most overdue first), then id. `lookaheadDays` 1..60 (default 7); `reminderDays` is an alias.",
      request: { query: DueQuery },
      responses: { 200: json(DuePage, "A page of due schedules") },
    }),
    async (c) => c.json(await listDueSchedules(maintenanceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/maintenance/schedules/item/{itemId}",
      operationId: "listItemMaintenanceSchedules",
      tags,
      summary: "Maintenance schedules of an item",
      description: "Soonest due first; includes paused and completed schedules.",
      request: { params: ItemParams, query: ListQuery },
      responses: { 200: json(SchedulePage, "A page of schedules") },
    }),
    async (c) =>
      c.json(await svc.listItemSchedules(serviceCtx(c), c.req.valid("param").itemId, c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/maintenance/schedules",
      operationId: "createMaintenanceSchedule",
      tags,
      summary: "Create a maintenance schedule",
      description:
        "`itemId` must be a live item and `assigneeUserId` an active workspace user (400 naming the field otherwise).",
      request: body(CreateScheduleBody),
      responses: { 201: json(ScheduleSchema, "Created") },
    }),
    async (c) => c.json(toSchedule(await svc.createSchedule(serviceCtx(c), c.req.valid("json"))), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/maintenance/schedules/{scheduleId}",
      operationId: "getMaintenanceSchedule",
      tags,
      summary: "Get a maintenance schedule",
      request: { params: ScheduleParams },
      responses: { 200: json(ScheduleSchema, "The schedule") },
    }),
    async (c) => c.json(toSchedule(await svc.getSchedule(serviceCtx(c), c.req.valid("param").scheduleId)), 200),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/maintenance/schedules/{scheduleId}",
      operationId: "updateMaintenanceSchedule",
      tags,
      summary: "Update a maintenance schedule",
      description:
        "The item cannot change. Setting nextDueDate (or a new recurrence) restarts the rhythm from that day. Completing is done with POST /maintenance/logs.",
      request: { params: ScheduleParams, ...body(UpdateScheduleBody) },
      responses: { 200: json(ScheduleSchema, "Updated"), ...errorResponses(409) },
    }),
    async (c) =>
      c.json(
        toSchedule(await svc.updateSchedule(serviceCtx(c), c.req.valid("param").scheduleId, c.req.valid("json"))),
        200,
      ),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/maintenance/schedules/{scheduleId}",
      operationId: "deleteMaintenanceSchedule",
      tags,
      summary: "Delete a maintenance schedule",
      description:
        "Permanent. Its logs stay in the item's history. A sync (`GET /maintenance/schedules?updatedSince=`) sees the deletion as a tombstone for 90 days.",
      request: { params: ScheduleParams },
      responses: { 204: { description: "Deleted" } },
    }),
    async (c) => {
      await svc.deleteSchedule(serviceCtx(c), c.req.valid("param").scheduleId);
      return c.body(null, 204);
    },
  );
