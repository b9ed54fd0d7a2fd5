import type { Bindings } from "../../env";
import { invalidField, notFound } from "../../platform/errors";
import { assertSignedUrl, expiryIn, signFields } from "../../platform/signed-urls";
import { FILE_TYPES, type FileType, isFileType } from "./file-types";
import { isTenantUploadKey, newUploadKey } from "./keys";
import { streamUpload } from "./upload";

/** Upload URLs live 15 minutes (enough for a phone on a slow link), view URLs 15 minutes too. */
export const UPLOAD_TTL_SECONDS = 15 * 60;
export const VIEW_TTL_SECONDS = 15 * 60;
/** 10 MiB per object. */
export const MAX_OBJECT_SIZE = 10 * 1024 * 1024;

/** What the object verbs need: the tenant, the bucket, the signing secret and the URL origin (the tenant host). */
export interface ObjectsCtx {
  tenantId: string;
  files: R2Bucket;
  secret: string;
  origin: string;
}

const UPLOAD_PATH = "/api/v1/objects/upload";
const VIEW_PATH = "/api/v1/objects/view";
const iso = (exp: number) => new Date(exp * 1000).toISOString();
const missing = () => notFound("Object");

export async function createUpload(ctx: ObjectsCtx, input: { contentType: FileType; size: number; purpose?: string }) {
  const key = newUploadKey(ctx.tenantId);
  const exp = expiryIn(UPLOAD_TTL_SECONDS);
  const fields = {
    method: "PUT" as const,
    key,
    exp,
    contentType: input.contentType,
    size: input.size,
    purpose: input.purpose,
  };
  const sig = await signFields(ctx.secret, fields);
  const q = new URLSearchParams({ key, type: input.contentType, size: String(input.size), exp: String(exp) });
  if (input.purpose) q.set("purpose", input.purpose);
  q.set("sig", sig);
  return {
    objectKey: key,
    uploadUrl: `${ctx.origin}${UPLOAD_PATH}?${q}`,
    method: "PUT" as const,
    contentType: input.contentType,
    size: input.size,
    expiresAt: iso(exp),
  };
}

/** Query of a presented upload URL (all strings: anything missing or malformed is a bad signature, 403). */
export interface UploadQuery {
  key?: string;
  type?: string;
  size?: string;
  exp?: string;
  purpose?: string;
  sig?: string;
}

export async function receiveUpload(
  ctx: ObjectsCtx,
  q: UploadQuery,
  body: ReadableStream<Uint8Array> | null,
  contentLength: string | undefined,
) {
  const fields = {
    method: "PUT" as const,
    key: q.key ?? "",
    exp: Number(q.exp),
    contentType: q.type ?? "",
    size: Number(q.size),
    purpose: q.purpose,
  };
  await assertSignedUrl(ctx.secret, fields, q.sig);
  // A genuine URL of another workspace, presented on this host: it names nothing here.
  if (!isTenantUploadKey(ctx.tenantId, fields.key) || !isFileType(fields.contentType)) throw missing();
  return streamUpload(
    ctx.files,
    { key: fields.key, contentType: fields.contentType, size: fields.size, purpose: q.purpose },
    body,
    contentLength,
  );
}

/** 404 unless `key` is one of this tenant's uploads and exists. */
async function headOwn(ctx: { tenantId: string; files: R2Bucket }, key: string): Promise<R2Object> {
  if (!isTenantUploadKey(ctx.tenantId, key)) throw missing();
  const head = await ctx.files.head(key);
  if (!head) throw missing();
  return head;
}

export async function createViewUrl(ctx: ObjectsCtx, key: string) {
  const head = await headOwn(ctx, key);
  const exp = expiryIn(VIEW_TTL_SECONDS);
  const sig = await signFields(ctx.secret, { method: "GET", key, exp });
  const q = new URLSearchParams({ key, exp: String(exp), sig });
  return {
    url: `${ctx.origin}${VIEW_PATH}?${q}`,
    expiresAt: iso(exp),
    contentType: head.httpMetadata?.contentType ?? "application/octet-stream",
    size: head.size,
  };
}

/** The object of a presented view URL, or null for a conditional GET that matched (304). */
export async function openView(ctx: ObjectsCtx, q: { key?: string; exp?: string; sig?: string }, conditional: Headers) {
  const key = q.key ?? "";
  const exp = Number(q.exp);
  await assertSignedUrl(ctx.secret, { method: "GET", key, exp }, q.sig);
  if (!isTenantUploadKey(ctx.tenantId, key)) throw missing();
  const obj = await ctx.files.get(key, { onlyIf: conditional });
  if (!obj) throw missing();
  return { obj, exp };
}

/**
 * For other modules that store an object key (assets' `imageKey`, scan photos): checks that `key`
 * is an upload of this tenant that exists in R2 (and, with `imageOnly`, that it is an image).
 * Fails with a 400 naming `field` (a body field referencing nothing usable), never revealing
 * whether another tenant has such an object. Returns the stored type and size.
 *
 * @example await assertTenantObject(c.env, tenantId, body.imageKey, { field: "imageKey", imageOnly: true });
 */
export async function assertTenantObject(
  env: Pick<Bindings, "FILES">,
  tenantId: string,
  key: string,
  opts: { field?: string; imageOnly?: boolean } = {},
) {
  const field = opts.field ?? "objectKey";
  const head = isTenantUploadKey(tenantId, key) ? await env.FILES.head(key) : null;
  if (!head)
    throw invalidField(
      field,
      "no uploaded object with this key in this workspace (upload it through POST /objects first)",
    );
  const contentType = head.httpMetadata?.contentType ?? "";
  if (opts.imageOnly && !(isFileType(contentType) && FILE_TYPES[contentType].image)) {
    throw invalidField(field, `the object is ${contentType || "not an image"}; an image is required`);
  }
  return { key, contentType, size: head.size };
}
