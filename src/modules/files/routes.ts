import type { AppContext } from "../../env";
import { HEADERS } from "../../http/response-headers";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { hostOrigin } from "../../tenancy/host";
import { OBJECT_TYPES } from "./file-types";
import {
  CreateObjectBody,
  ObjectKeyParams,
  ObjectUploadSchema,
  UploadedSchema,
  UploadQuery,
  ViewQuery,
  ViewUrlSchema,
} from "./schemas";
import * as svc from "./service";

const tags = ["Objects"];

const objectsCtx = (c: AppContext): svc.ObjectsCtx => ({
  tenantId: c.var.tenant.id,
  files: c.env.FILES,
  secret: c.env.FILES_SIGNING_SECRET,
  origin: hostOrigin(c.env, c.var.tenant.slug),
});

const binary = { schema: { type: "string" as const, format: "binary" } };
const fileContent = Object.fromEntries(OBJECT_TYPES.map((t) => [t, binary]));
/** A file opened through its signed URL: cached privately until the URL expires, never run. */
const VIEW_HEADERS = {
  ETag: HEADERS.etag,
  "Cache-Control": HEADERS.cacheControl(
    "`private, max-age=<seconds until the signed URL expires>`: the URL is a credential, so shared caches keep nothing and no copy outlives the URL.",
  ),
  "X-Content-Type-Options": HEADERS.noSniff,
  "Content-Security-Policy": HEADERS.fileContentSecurityPolicy,
};

export const objectsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "post",
      path: "/objects",
      operationId: "createObjectUpload",
      tags,
      summary: "Get a signed upload URL",
      description:
        "Issues a tenant-scoped object key and a signed, single-use upload URL (15 minutes) for a file of the declared type and exact size (at most 10 MiB). PUT the bytes to `uploadUrl`; then reference `objectKey` (e.g. an asset's `imageKey`).",
      request: body(CreateObjectBody),
      responses: { 201: json(ObjectUploadSchema, "Upload URL issued") },
    }),
    async (c) => c.json(await svc.createUpload(objectsCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/objects/{objectKey}/view-url",
      operationId: "getObjectViewUrl",
      tags,
      summary: "Get a signed view URL",
      description:
        "A signed URL (15 minutes) that serves the object. 404 for a key of another workspace or one not uploaded (yet).",
      request: { params: ObjectKeyParams },
      responses: { 200: json(ViewUrlSchema, "View URL issued") },
    }),
    async (c) => c.json(await svc.createViewUrl(objectsCtx(c), c.req.valid("param").objectKey), 200),
  )
  .openapi(
    defineRoute({
      method: "put",
      path: "/objects/upload",
      operationId: "uploadObject",
      tags,
      summary: "Upload a file (signed URL)",
      description:
        "The `uploadUrl` of POST /objects; send the raw bytes, no Authorization header (the signature is the credential). " +
        "Expired or altered URL: 403 (`details.reason`: `expired` or `invalid_signature`). More bytes than declared: 413 (cut off while streaming); fewer: 400; " +
        "content not of the declared type by its magic bytes: 415 (the Content-Type header is ignored); URL already used: 409. Nothing is stored when refused.",
      request: { query: UploadQuery, body: { required: true, content: fileContent } },
      responses: { 201: json(UploadedSchema, "Stored"), ...errorResponses(403, 409, 413, 415) },
    }),
    async (c) =>
      c.json(
        await svc.receiveUpload(objectsCtx(c), c.req.valid("query"), c.req.raw.body, c.req.header("content-length")),
        201,
      ),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/objects/view",
      operationId: "viewObject",
      tags,
      summary: "Read a file (signed URL)",
      description:
        "The `url` of GET /objects/{objectKey}/view-url; no Authorization header. Expired or altered URL: 403. Supports If-None-Match (304).",
      request: { query: ViewQuery },
      responses: {
        200: { description: "The file, with its stored content type", headers: VIEW_HEADERS, content: fileContent },
        304: { description: "Not modified", headers: VIEW_HEADERS },
        ...errorResponses(403),
      },
    }),
    async (c) => {
      const { obj, exp } = await svc.openView(objectsCtx(c), c.req.valid("query"), c.req.raw.headers);
      const headers = new Headers();
      obj.writeHttpMetadata(headers);
      headers.set("etag", obj.httpEtag);
      // Private (the URL is a credential) and never cached past the URL's own expiry.
      headers.set("cache-control", `private, max-age=${Math.max(0, exp - Math.floor(Date.now() / 1000))}`);
      headers.set("x-content-type-options", "nosniff");
      headers.set("content-security-policy", "default-src 'none'; sandbox");
      if (!("body" in obj)) return c.body(null, 304, Object.fromEntries(headers));
      headers.set("content-length", String(obj.size));
      return c.body(obj.body, 200, Object.fromEntries(headers));
    },
  );
