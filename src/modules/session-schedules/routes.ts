import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import {
  CreateScheduleBody,
  ListSchedulesQuery,
  ScheduleParams as Params,
  SchedulePage,
  ScheduleSchema,
  UpdateScheduleBody,
} from "./schemas";
import * as svc from "./service";
import { toSchedule } from "./view";

const tags = ["Session schedules"];
const RUNS =
  "The cron (every 5 minutes) creates one session per due time, named `<name> · <date>`, and starts it unless `autoStart` is false. " +
  "Runs missed while the service was down are skipped, not replayed.";

export const sessionSchedulesRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/session-schedules",
      operationId: "listSessionSchedules",
      tags,
      summary: "List recurring session schedules",
      request: { query: ListSchedulesQuery },
      responses: { 200: json(SchedulePage, "A page of schedules") },
    }),
    async (c) => c.json(await svc.listSchedules(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/session-schedules/{scheduleId}",
      operationId: "getSessionSchedule",
      tags,
      summary: "Get a schedule",
      request: { params: Params },
      responses: { 200: json(ScheduleSchema, "The schedule") },
    }),
    async (c) => c.json(toSchedule(await svc.getSchedule(serviceCtx(c), c.req.valid("param").scheduleId)), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/session-schedules",
      operationId: "createSessionSchedule",
      tags,
      summary: "Create a recurring session schedule",
      description: RUNS,
      request: body(CreateScheduleBody),
      responses: { 201: json(ScheduleSchema, "Created"), ...errorResponses(415) },
    }),
    async (c) => c.json(toSchedule(await svc.createSchedule(serviceCtx(c), c.req.valid("json"))), 201),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/session-schedules/{scheduleId}",
      operationId: "updateSessionSchedule",
      tags,
      summary: "Update a schedule",
      description: `A new nextRunAt or recurrence restarts the series from nextRunAt. 409 when a run happened in between (reload and retry). ${RUNS}`,
      request: { params: Params, ...body(UpdateScheduleBody) },
      responses: { 200: json(ScheduleSchema, "Updated"), ...errorResponses(409, 415) },
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
      path: "/session-schedules/{scheduleId}",
      operationId: "deleteSessionSchedule",
      tags,
      summary: "Delete a schedule",
      description: "The sessions it created stay.",
      request: { params: Params },
      responses: { 204: { description: "Deleted" } },
    }),
    async (c) => {
      await svc.deleteSchedule(serviceCtx(c), c.req.valid("param").scheduleId);
      return c.body(null, 204);
    },
  );
