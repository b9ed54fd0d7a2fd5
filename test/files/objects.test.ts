import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ObjectUpload, ObjectViewUrl, UploadedObject } from "../../src/modules/files";
import { assertTenantObject } from "../../src/modules/files/service";
import type { ErrorBody } from "../../src/platform/schemas";
import { signFields } from "../../src/platform/signed-urls";
import { fileBytes, send } from "../harness/files";
import { userJwt } from "../harness/principals";
import { api, createTenant, type TestTenant } from "../harness/tenant";

async function issue<T = ObjectUpload>(t: TestTenant, body: Record<string, unknown>) {
  return api<T>(t, "/objects", { body, auth: { jwt: await userJwt(t) } });
}

async function issued(t: TestTenant, contentType: string, size: number, purpose?: string) {
  const res = await issue(t, { contentType, size, ...(purpose ? { purpose } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const put = <T = UploadedObject>(url: string, bytes: Uint8Array, headers: Record<string, string> = {}) =>
  send<T>(url, { method: "PUT", body: bytes, headers });

async function viewUrl<T = ObjectViewUrl>(t: TestTenant, key: string, jwt?: string) {
  return api<T>(t, `/objects/${encodeURIComponent(key)}/view-url`, { auth: { jwt: jwt ?? (await userJwt(t)) } });
}

/** A signature with its first character changed (always a different one). */
const flipFirst = (sig: string) => (sig[0] === "A" ? "B" : "A") + sig.slice(1);

/** The same URL with one query parameter replaced. */
function withParam(url: string, name: string, value: string) {
  const u = new URL(url);
  u.searchParams.set(name, value);
  return u.toString();
}

describe("objects: signed upload and view URLs", () => {
  it("issues a tenant-scoped key, takes the upload without credentials, and serves it through a view URL", async () => {
    const t = await createTenant();
    const png = fileBytes("png", 3000);
    const up = await issued(t, "image/png", png.byteLength, "asset-image");
    expect(up.objectKey).toMatch(new RegExp(`^tenants/${t.id}/uploads/obj_[0-9a-z]{26}$`));
    expect(up.uploadUrl.startsWith(`${t.base}/objects/upload?`)).toBe(true);
    expect(up.method).toBe("PUT");
    expect(Date.parse(up.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);

    // Not viewable before the upload.
    expect((await viewUrl(t, up.objectKey)).status).toBe(404);
    // The Content-Type header of the upload is ignored: the bytes decide.
    const stored = await put(up.uploadUrl, png, { "content-type": "text/plain" });
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);
    expect(stored.body).toMatchObject({ objectKey: up.objectKey, contentType: "image/png", size: 3000 });
    const head = await env.FILES.head(up.objectKey);
    expect(head?.size).toBe(3000);
    expect(head?.customMetadata).toEqual({ purpose: "asset-image" });

    const view = await viewUrl(t, up.objectKey);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      contentType: "image/png",
      size: 3000,
      url: expect.stringContaining(`${t.base}/objects/view?`),
    });
    const got = await send(view.body.url);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
    expect(got.bytes).toEqual(png);
    // Conditional GET.
    const again = await send(view.body.url, { headers: { "if-none-match": got.headers.get("etag")! } });
    expect(again.status).toBe(304);

    // Single use: the same upload URL cannot replace the object.
    const twice = await put(up.uploadUrl, fileBytes("png", 3000));
    expect(twice.status).toBe(409);
  });

  it("enforces the declared size and type, storing nothing when refused", async () => {
    const t = await createTenant();
    const up = await issued(t, "image/png", 1000);
    const tooBig = await put<ErrorBody>(up.uploadUrl, fileBytes("png", 1001));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe("payload_too_large");
    const tooSmall = await put(up.uploadUrl, fileBytes("png", 999));
    expect(tooSmall.status).toBe(400);
    const jpeg = await put<ErrorBody>(up.uploadUrl, fileBytes("jpeg", 1000));
    expect(jpeg.status).toBe(415);
    expect(jpeg.body.code).toBe("unsupported_media_type");
    const text = await put(up.uploadUrl, fileBytes("text", 1000));
    expect(text.status).toBe(415);
    expect(await env.FILES.head(up.objectKey)).toBeNull();

    // Without Content-Length (a stream), the byte count is enforced while streaming.
    const stream = (size: number) =>
      new ReadableStream<Uint8Array>({
        start(ctl) {
          const bytes = fileBytes("png", size);
          for (let i = 0; i < size; i += 100) ctl.enqueue(bytes.slice(i, i + 100));
          ctl.close();
        },
      });
    const streamedBig = await send(up.uploadUrl, { method: "PUT", body: stream(1500) });
    expect(streamedBig.status).toBe(413);
    const streamedShort = await send(up.uploadUrl, { method: "PUT", body: stream(500) });
    expect(streamedShort.status).toBe(400);
    expect(await env.FILES.head(up.objectKey)).toBeNull();
    const streamedOk = await send(up.uploadUrl, { method: "PUT", body: stream(1000) });
    expect(streamedOk.status).toBe(201);
    expect((await env.FILES.head(up.objectKey))?.size).toBe(1000);
  });

  it("refuses expired and tampered URLs with 403", async () => {
    const t = await createTenant();
    const up = await issued(t, "image/gif", 100);
    const key = up.objectKey;
    const past = Math.floor(Date.now() / 1000) - 1;
    // A genuinely signed URL whose time is up.
    const expiredSig = await signFields(env.FILES_SIGNING_SECRET, {
      method: "PUT",
      key,
      exp: past,
      contentType: "image/gif",
      size: 100,
    });
    const expired = await put(
      withParam(withParam(up.uploadUrl, "exp", String(past)), "sig", expiredSig),
      fileBytes("gif", 100),
    );
    expect(expired.status).toBe(403);
    expect(expired.body).toMatchObject({ code: "forbidden", details: { reason: "expired" } });

    const gif = fileBytes("gif", 100);
    const tampered = [
      withParam(up.uploadUrl, "size", "200"),
      withParam(up.uploadUrl, "type", "image/png"),
      withParam(up.uploadUrl, "exp", String(Math.floor(Date.now() / 1000) + 86_400)),
      withParam(up.uploadUrl, "key", `tenants/${t.id}/uploads/obj_00000000000000000000000000`),
      withParam(up.uploadUrl, "sig", flipFirst(new URL(up.uploadUrl).searchParams.get("sig")!)),
      withParam(up.uploadUrl, "sig", "not-base64!"),
      up.uploadUrl.replace(/&sig=[^&]*/, ""),
    ];
    for (const url of tampered) {
      const res = await put<ErrorBody>(url, gif);
      expect(res.status, url).toBe(403);
      expect(res.body.details).toEqual({ reason: "invalid_signature" });
    }
    expect(await env.FILES.head(key)).toBeNull();

    expect((await put(up.uploadUrl, gif)).status).toBe(201);
    const view = (await viewUrl(t, key)).body.url as string;
    const viewExpiredSig = await signFields(env.FILES_SIGNING_SECRET, { method: "GET", key, exp: past });
    const viewExpired = await send<ErrorBody>(withParam(withParam(view, "exp", String(past)), "sig", viewExpiredSig));
    expect(viewExpired.status).toBe(403);
    expect(viewExpired.body.details).toEqual({ reason: "expired" });
    expect((await send(withParam(view, "exp", String(Math.floor(Date.now() / 1000) + 86_400)))).status).toBe(403);
    // An upload URL is not a view URL (the method is signed).
    const asView = await send<ErrorBody>(up.uploadUrl.replace("/objects/upload?", "/objects/view?"));
    expect(asView.status).toBe(403);
    expect(asView.body.details).toEqual({ reason: "invalid_signature" });
  });

  it("answers 404 for another workspace's keys, on every route", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const up = await issued(a, "image/jpeg", 64);
    expect((await put(up.uploadUrl, fileBytes("jpeg", 64))).status).toBe(201);
    const aView = (await viewUrl(a, up.objectKey)).body.url as string;

    const bJwt = await userJwt(b);
    const other = await viewUrl<ErrorBody>(b, up.objectKey, bJwt);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe("not_found");
    // A's signed URLs presented on B's host name nothing there.
    expect((await send(aView.replace(a.base, b.base))).status).toBe(404);
    const bUp = await issued(b, "image/jpeg", 64);
    expect((await put(up.uploadUrl.replace(a.base, b.base), fileBytes("jpeg", 64))).status).toBe(404);
    // Unknown and malformed keys of one's own workspace are 404 too.
    for (const key of [
      bUp.objectKey,
      `tenants/${b.id}/uploads/obj_00000000000000000000000000`,
      `tenants/${b.id}/feedback/x/1.png`,
      `tenants/${b.id}/uploads/../../${a.id}/uploads/x`,
      "garbage",
    ]) {
      expect((await viewUrl(b, key, bJwt)).status, key).toBe(404);
    }
  });

  it("validates the request and is JWT only", async () => {
    const t = await createTenant();
    for (const body of [
      { contentType: "image/svg+xml", size: 10 },
      { contentType: "image/png", size: 0 },
      { contentType: "image/png", size: 10 * 1024 * 1024 + 1 },
      { contentType: "application/pdf", size: 10, purpose: "asset-image" },
      { contentType: "image/png" },
      { contentType: "image/png", size: 10, extra: 1 },
    ]) {
      const res = await issue(t, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await issue(t, { contentType: "application/pdf", size: 10 * 1024 * 1024, purpose: "attachment" })).status,
    ).toBe(201);
    const key = await api(t, "/objects", { body: { contentType: "image/png", size: 10 } });
    expect(key.status).toBe(403);
    const up = await issued(t, "image/png", 10);
    expect((await api(t, `/objects/${encodeURIComponent(up.objectKey)}/view-url`)).status).toBe(403);
  });

  it("assertTenantObject accepts the tenant's uploaded objects only", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const img = await issued(a, "image/webp", 20);
    const webp = fileBytes("png", 20);
    webp.set(new TextEncoder().encode("RIFF\0\0\0\0WEBP"));
    expect((await put(img.uploadUrl, webp)).status).toBe(201);
    const pdf = await issued(a, "application/pdf", 20);
    expect((await put(pdf.uploadUrl, fileBytes("pdf", 20))).status).toBe(201);

    await expect(assertTenantObject(env, a.id, img.objectKey, { imageOnly: true })).resolves.toEqual({
      key: img.objectKey,
      contentType: "image/webp",
      size: 20,
    });
    await expect(assertTenantObject(env, a.id, pdf.objectKey)).resolves.toMatchObject({
      contentType: "application/pdf",
    });
    const refused = [
      () => assertTenantObject(env, a.id, pdf.objectKey, { field: "imageKey", imageOnly: true }),
      () => assertTenantObject(env, b.id, img.objectKey, { field: "imageKey" }),
      () => assertTenantObject(env, a.id, `tenants/${a.id}/uploads/obj_00000000000000000000000000`),
      () => assertTenantObject(env, a.id, "../etc/passwd"),
    ];
    for (const check of refused)
      await expect(check()).rejects.toMatchObject({ code: "validation_failed", status: 400 });
    await expect(assertTenantObject(env, b.id, img.objectKey, { field: "imageKey" })).rejects.toMatchObject({
      details: [{ path: "imageKey" }],
    });
  });
});
