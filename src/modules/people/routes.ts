import { z } from "@hono/zod-openapi";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { pageQuery } from "../../platform/pagination";
import { idParam } from "../../platform/schemas";
import { peopleBulkRouter } from "./bulk-routes";
import { personAssignmentHistory } from "./history";
import {
  AssignmentPage,
  CreatePersonBody,
  ListPeopleQuery,
  PersonPage,
  PersonSchema,
  UpdatePersonBody,
} from "./schemas";
import * as svc from "./service";
import { deletePerson, restorePerson } from "./trash";
import { updatePerson } from "./update";
import { presentPerson } from "./view";

const tags = ["People"];
const Params = z.object({ personId: idParam("personId", "per_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export const peopleRouter = createRouter()
  .route("/", peopleBulkRouter)
  .openapi(
    defineRoute({
      method: "get",
      path: "/people",
      operationId: "listPeople",
      tags,
      summary: "List people",
      description: "By name. Active people by default; `status=all` adds deactivated ones (never deleted ones).",
      request: { query: ListPeopleQuery },
      responses: { 200: json(PersonPage, "A page of people") },
    }),
    async (c) => c.json(await svc.listPeople(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/people",
      operationId: "createPerson",
      tags,
      summary: "Create a person",
      description:
        "The email is unique among the workspace's people (409); `locationId` must be a live location and `customFields` must match the person custom fields (400 naming the field).",
      request: body(CreatePersonBody),
      responses: { 201: json(PersonSchema, "Created"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await svc.createPerson(serviceCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/people/{personId}",
      operationId: "getPerson",
      tags,
      summary: "Get a person",
      description: "Active or deactivated; deleted people are 404.",
      request: { params: Params },
      responses: { 200: json(PersonSchema, "The person") },
    }),
    async (c) => {
      const ctx = serviceCtx(c);
      return c.json(await presentPerson(ctx.db, await svc.getPerson(ctx, c.req.valid("param").personId)), 200);
    },
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/people/{personId}",
      operationId: "updatePerson",
      tags,
      summary: "Update, deactivate or activate a person",
      description:
        "`status: deactivated` checks every asset the person holds back in (history and timeline record it, reason `person_deactivated`) and deactivates them in the same write; `status: active` brings them back. A concurrent change to the person or their assets is a 409 (retry). An API key needs `inventory-items:write` too (a deactivation checks assets in and returns stock), for every request of this route.",
      request: { params: Params, ...body(UpdatePersonBody) },
      responses: { 200: json(PersonSchema, "Updated"), ...errorResponses(409, 415) },
    }),
    async (c) => c.json(await updatePerson(serviceCtx(c), c.req.valid("param").personId, c.req.valid("json")), 200),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/people/{personId}",
      operationId: "deletePerson",
      tags,
      summary: "Move a person to the trash",
      description:
        "Refused (409, with `details.assetIds`) while the person holds assets: check them in or deactivate the person first. Refused (409, with `details.offboardingCaseId`) while an offboarding case of the person is open: cancel it or let it close first (docs/offboarding.md).",
      request: { params: Params },
      responses: { 204: { description: "Deleted" }, ...errorResponses(409) },
    }),
    async (c) => {
      await deletePerson(serviceCtx(c), c.req.valid("param").personId);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/people/{personId}/restore",
      operationId: "restorePerson",
      tags,
      summary: "Restore a deleted person",
      description: "409 when another person has taken the email meanwhile.",
      request: { params: Params },
      responses: { 200: json(PersonSchema, "Restored"), ...errorResponses(409) },
    }),
    async (c) => c.json(await restorePerson(serviceCtx(c), c.req.valid("param").personId), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/people/{personId}/assignment-history",
      operationId: "getPersonAssignmentHistory",
      tags,
      summary: "The person's assignment history",
      description: "Every checkout of the person, newest first.",
      request: { params: Params, query: z.object(pageQuery) },
      responses: { 200: json(AssignmentPage, "A page of assignments") },
    }),
    async (c) =>
      c.json(await personAssignmentHistory(serviceCtx(c), c.req.valid("param").personId, c.req.valid("query")), 200),
  );
