import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { feedback } from "../../src/db/tenant/feedback";
import type { Feedback } from "../../src/modules/feedback";
import { MAX_ATTACHMENT_BYTES } from "../../src/modules/feedback/form";
import type { ErrorBody } from "../../src/platform/schemas";
import { workerFetch } from "../harness/contract";
import { fileBytes, postForm, r2Keys, tenantFilesPrefix } from "../harness/files";
import { outboxRows } from "../harness/outbox";
import { userJwt } from "../harness/principals";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const fields = { title: "Scanner does not focus", message: "The camera keeps refocusing on label LBL-1." };

async function submit<T = Feedback>(
  t: TestTenant,
  f: Record<string, string>,
  files: Parameters<typeof postForm>[3] = [],
) {
  return postForm<T>(`${t.base}/feedback`, await userJwt(t), f, files);
}

/** Nothing of a refused submission may remain: no R2 object under the tenant's feedback prefix, no row. */
async function expectNothingStored(t: TestTenant) {
  expect(await r2Keys(`${tenantFilesPrefix(t)}feedback/`)).toEqual([]);
  expect(await (await dbOf(t)).select().from(feedback).all()).toEqual([]);
}

describe("POST /feedback", () => {
  it("stores title, message and attachments typed by their magic bytes under the tenant's prefix", async () => {
    const t = await createTenant();
    const res = await submit(t, fields, [
      // A PNG named and declared as a GIF is a PNG.
      { bytes: fileBytes("png", 2048), name: "screenshot.gif", type: "image/gif" },
      { bytes: fileBytes("jpeg", 1000), name: "photo.JPG", type: "application/octet-stream" },
      { bytes: fileBytes("gif", 300), name: "anim", type: "text/plain" },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.id as string;
    expect(id).toMatch(/^fbk_/);
    const prefix = `${tenantFilesPrefix(t)}feedback/${id}/`;
    expect(res.body).toMatchObject({
      ...fields,
      userId: t.owner.id,
      attachments: [
        { key: `${prefix}1.png`, contentType: "image/png", size: 2048, fileName: "screenshot.gif" },
        { key: `${prefix}2.jpg`, contentType: "image/jpeg", size: 1000, fileName: "photo.JPG" },
        { key: `${prefix}3.gif`, contentType: "image/gif", size: 300, fileName: "anim" },
      ],
    });
    expect(await r2Keys(tenantFilesPrefix(t))).toEqual([`${prefix}1.png`, `${prefix}2.jpg`, `${prefix}3.gif`]);
    const png = await env.FILES.get(`${prefix}1.png`);
    expect(png?.httpMetadata?.contentType).toBe("image/png");
    expect(new Uint8Array(await png!.arrayBuffer())).toEqual(fileBytes("png", 2048));

    const [row] = await (await dbOf(t)).select().from(feedback).where(eq(feedback.id, id)).all();
    expect(row).toMatchObject({ title: fields.title, message: fields.message, userId: t.owner.id });
    expect(row!.attachments).toHaveLength(3);
    const events = await outboxRows(t, { type: "feedback.created" });
    expect(events.map((e) => e.subjectId)).toEqual([id]);
  });

  it("takes feedback without attachments, and ignores an empty file input", async () => {
    const t = await createTenant();
    const res = await submit(t, fields, [{ bytes: new Uint8Array(0), name: "" }]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.attachments).toEqual([]);
  });

  it("refuses a file that is not PNG, JPEG or GIF by content with 415, storing nothing", async () => {
    const t = await createTenant();
    const text = await submit<ErrorBody>(t, fields, [
      { bytes: fileBytes("text", 500), name: "image.png", type: "image/png" },
    ]);
    expect(text.status).toBe(415);
    expect(text.body.code).toBe("unsupported_media_type");
    // A valid attachment before the bad one is not stored either.
    const mixed = await submit<ErrorBody>(t, fields, [
      { bytes: fileBytes("png", 500), name: "ok.png", type: "image/png" },
      { bytes: fileBytes("pdf", 500), name: "doc.gif", type: "image/gif" },
    ]);
    expect(mixed.status).toBe(415);
    expect(mixed.body.details).toEqual([expect.objectContaining({ path: "body.attachments[1]" })]);
    const tiny = await submit(t, fields, [
      { bytes: new Uint8Array([0x89, 0x50]), name: "short.png", type: "image/png" },
    ]);
    expect(tiny.status).toBe(415);
    await expectNothingStored(t);
  });

  it("takes 5 MB exactly and refuses 5 MB + 1 byte with 413, storing nothing", async () => {
    const t = await createTenant();
    const over = await submit<ErrorBody>(t, fields, [
      { bytes: fileBytes("png", 1000), name: "small.png" },
      { bytes: fileBytes("jpeg", MAX_ATTACHMENT_BYTES + 1), name: "big.jpg" },
    ]);
    expect(over.status).toBe(413);
    expect(over.body.code).toBe("payload_too_large");
    await expectNothingStored(t);
    const exact = await submit(t, fields, [{ bytes: fileBytes("jpeg", MAX_ATTACHMENT_BYTES), name: "max.jpg" }]);
    expect(exact.status, JSON.stringify(exact.body)).toBe(201);
    expect(exact.body.attachments[0]!.size).toBe(5 * 1024 * 1024);
  });

  it("accepts at most 5 attachments (400 beyond), storing nothing", async () => {
    const t = await createTenant();
    const six = Array.from({ length: 6 }, (_, i) => ({ bytes: fileBytes("gif", 100), name: `${i}.gif` }));
    const res = await submit<ErrorBody>(t, fields, six);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ path: "body.attachments", message: "at most 5 attachments" }]);
    await expectNothingStored(t);
    const five = await submit(t, fields, six.slice(0, 5));
    expect(five.status).toBe(201);
    expect(await r2Keys(`${tenantFilesPrefix(t)}feedback/${five.body.id}/`)).toHaveLength(5);
  });

  it("cuts off an oversized attachment while streaming, without reading the rest of the body", async () => {
    const t = await createTenant();
    const boundary = "----bound4ry";
    const enc = new TextEncoder();
    const head = enc.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nT\r\n--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n\r\nM\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const chunk = fileBytes("png", 64 * 1024);
    let pulled = 0;
    // An endless attachment, no Content-Length: only a streaming check can answer at all.
    const body = new ReadableStream<Uint8Array>({
      start(ctl) {
        ctl.enqueue(head);
      },
      pull(ctl) {
        pulled += chunk.byteLength;
        ctl.enqueue(pulled === chunk.byteLength ? chunk : chunk.slice().fill(7));
      },
    });
    const res = await workerFetch(
      new Request(`${t.base}/feedback`, {
        method: "POST",
        body,
        headers: {
          authorization: `Bearer ${await userJwt(t)}`,
          "content-type": `multipart/form-data; boundary=${boundary}`,
        },
      }),
    );
    expect(res.status).toBe(413);
    await res.arrayBuffer();
    expect(pulled).toBeGreaterThan(MAX_ATTACHMENT_BYTES);
    expect(pulled).toBeLessThan(MAX_ATTACHMENT_BYTES + 1024 * 1024);
    // A Content-Length over the request cap is refused before reading.
    const declared = await workerFetch(
      new Request(`${t.base}/feedback`, {
        method: "POST",
        body: "x",
        headers: {
          authorization: `Bearer ${await userJwt(t)}`,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": String(100 * 1024 * 1024),
        },
      }),
    );
    expect(declared.status).toBe(413);
    await expectNothingStored(t);
  });

  it("validates the text fields and the form (400) and the media type (415)", async () => {
    const t = await createTenant();
    const png = [{ bytes: fileBytes("png", 100), name: "a.png" }];
    const cases: [Record<string, string>, string][] = [
      [{ message: "m" }, "body.title"],
      [{ title: "t" }, "body.message"],
      [{ title: "  ", message: "m" }, "body.title"],
      [{ title: "t", message: "" }, "body.message"],
      [{ title: "t".repeat(201), message: "m" }, "body.title"],
      [{ title: "t", message: "m", rating: "5" }, "body.rating"],
    ];
    for (const [f, path] of cases) {
      const res = await submit<Failure>(t, f, png);
      expect(res.status, JSON.stringify(f)).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const json = await api(t, "/feedback", { body: fields, auth: { jwt: await userJwt(t) } });
    expect(json.status).toBe(415);
    const malformed = await workerFetch(
      new Request(`${t.base}/feedback`, {
        method: "POST",
        body: "--x\r\nbroken",
        headers: { authorization: `Bearer ${await userJwt(t)}`, "content-type": "multipart/form-data; boundary=x" },
      }),
    );
    expect(malformed.status).toBe(400);
    await expectNothingStored(t);
  });

  it("is JWT only: an API key gets 403", async () => {
    const t = await createTenant();
    const res = await postForm(`${t.base}/feedback`, null, fields, [], "attachments", {
      authorization: `ApiKey ${t.apiKey}`,
    });
    expect(res.status).toBe(403);
    expect((await postForm(`${t.base}/feedback`, null, fields)).status).toBe(401);
  });
});
