import UPNG from "@pdf-lib/upng";
import { describe, expect, it } from "vitest";
import { newAsset } from "../harness/bookings-helpers";
import { workerFetch } from "../harness/contract";
import { fileBytes } from "../harness/files";
import { userJwt } from "../harness/principals";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";

// The workspace's logo on labels (docs/labels.md "Templates"): a PNG uploaded to R2, named by the
// template's logoKey, printed at the top of the text area of PDF, PNG and ZPL labels.

async function print(t: TestTenant, body: unknown) {
  const res = await workerFetch(
    new Request(`${t.base}/labels/print`, {
      method: "POST",
      headers: { authorization: `ApiKey ${t.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect(res.status, new TextDecoder().decode(bytes.slice(0, 300))).toBe(200);
  return bytes;
}

async function upload(t: TestTenant, bytes: Uint8Array, contentType: string) {
  // Uploads are a user's (JWT) route.
  const res = await api<{ objectKey: string; uploadUrl: string }>(t, "/objects", {
    body: { contentType, size: bytes.length },
    auth: { jwt: await userJwt(t) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const put = await workerFetch(new Request(res.body.uploadUrl, { method: "PUT", body: bytes }));
  expect(put.status).toBe(201);
  return res.body.objectKey;
}

/** A 60 x 30 logo: an opaque black 40 x 20 block centred on transparency (which prints as paper). */
function logoPng(): Uint8Array {
  const [w, h] = [60, 30];
  const rgba = new Uint8Array(w * h * 4);
  for (let y = 5; y < 25; y++) for (let x = 10; x < 50; x++) rgba.set([0, 0, 0, 255], (y * w + x) * 4);
  return new Uint8Array(UPNG.encode([rgba.buffer], w, h, 0));
}

/** Grey pixels of a PNG, read by UPNG (not by the route's own encoder). */
function pixels(png: Uint8Array) {
  const img = UPNG.decode(png.slice().buffer);
  const rgba = new Uint8Array(UPNG.toRGBA8(img)[0]!);
  const px = new Uint8Array(img.width * img.height);
  for (let i = 0; i < px.length; i++) px[i] = rgba[i * 4]!;
  return { w: img.width, h: img.height, px };
}

/** The bounding box of the pixels dark in `a` and white in `b`, in the rows above `maxY`. */
function addedInk(a: ReturnType<typeof pixels>, b: ReturnType<typeof pixels>, maxY = a.h) {
  let [x0, y0, x1, y1, n] = [a.w, a.h, -1, -1, 0];
  for (let y = 0; y < maxY; y++)
    for (let x = 0; x < a.w; x++) {
      const i = y * a.w + x;
      if (a.px[i]! >= 128 || b.px[i]! < 128) continue;
      n++;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  return { x0, y0, x1, y1, n };
}

const spec = { stock: "roll", symbology: "qr", fields: ["name", "tag"], dpi: 300 } as const;

describe("the workspace's logo on labels", () => {
  it("prints the logo above the text in PNG, ZPL and PDF; the code and the text stay whole", async () => {
    const t = await createTenant();
    const a = await newAsset(t, "Laptop with a logo");
    const logoKey = await upload(t, logoPng(), "image/png");
    const plain = await api<{ id: string }>(t, "/label-templates", { body: { name: "Plain", spec } });
    const withLogo = await api<{ id: string; spec: { logoKey: string } }>(t, "/label-templates", {
      body: { name: "Logo", spec: { ...spec, logoKey } },
    });
    expect(withLogo.status, JSON.stringify(withLogo.body)).toBe(201);
    expect(withLogo.body.spec.logoKey).toBe(logoKey);

    const png = (id: string) => print(t, { templateId: id, format: "png", assetIds: [a.id] });
    const bare = pixels(await png(plain.body.id));
    const logo = pixels(await png(withLogo.body.id));
    expect([logo.w, logo.h]).toEqual([bare.w, bare.h]); // a 62 x 29 mm label at 300 dpi
    // The logo's black block is new ink in the top of the text area (its band is at most 40% of it),
    // right of the QR code, solid and in its 2:1 shape; the text moved below it.
    const ink = addedInk(logo, bare, Math.floor(bare.h * 0.4));
    expect(ink.x0).toBeGreaterThan(bare.h * 0.9); // the QR code is a square of about the label's height at the left
    const [iw, ih] = [ink.x1 - ink.x0 + 1, ink.y1 - ink.y0 + 1];
    expect(ih).toBeGreaterThan(bare.h * 0.2);
    expect(iw / ih).toBeGreaterThan(1.8);
    expect(iw / ih).toBeLessThan(2.2);
    expect(ink.n).toBe(iw * ih);
    // The QR code is untouched: its square prints the same dots with or without the logo.
    for (let y = 0; y < bare.h; y++)
      for (let x = 0; x < Math.floor(bare.h * 0.9); x++)
        if (bare.px[y * bare.w + x]! < 128 !== logo.px[y * logo.w + x]! < 128)
          throw new Error(`the code changed at ${x},${y}`);
    // The text moved below the logo but is still printed (ink below the logo's band, right of the code).
    const textInk = addedInk(logo, { ...logo, px: new Uint8Array(logo.px.length).fill(255) });
    expect(textInk.y1).toBeGreaterThan(ink.y1 + 10);

    // ZPL draws the same bitmap as the PNG.
    const zpl = new TextDecoder().decode(
      await print(t, { templateId: withLogo.body.id, format: "zpl", assetIds: [a.id] }),
    );
    const hex = /\^GFA,\d+,\d+,(\d+),([0-9A-F]+)\^FS/.exec(zpl)!;
    const rowBytes = Number(hex[1]);
    for (let y = 0; y < logo.h; y += 7)
      for (let x = 0; x < logo.w; x += 5) {
        const bit = (Number.parseInt(hex[2]!.substr((y * rowBytes + (x >> 3)) * 2, 2), 16) >> (7 - (x & 7))) & 1;
        expect(bit === 1, `ZPL dot ${x},${y}`).toBe(logo.px[y * logo.w + x]! < 128);
      }

    // The PDF embeds the PNG once (its image and, for its transparency, a soft mask), whatever the number of labels.
    const images = async (n: number) =>
      new TextDecoder("latin1")
        .decode(await print(t, { templateId: withLogo.body.id, format: "pdf", assetIds: Array(n).fill(a.id) }))
        .match(/\/Subtype \/Image/g)?.length;
    expect(await images(1)).toBe(2);
    expect(await images(3)).toBe(2);
    const pdfPlain = new TextDecoder("latin1").decode(
      await print(t, { templateId: plain.body.id, format: "pdf", assetIds: [a.id] }),
    );
    expect(pdfPlain).not.toContain("/Subtype /Image");
    // The preview shows it too.
    const preview = await workerFetch(
      new Request(`${t.base}/label-templates/${withLogo.body.id}/preview.png`, {
        headers: { authorization: `ApiKey ${t.apiKey}` },
      }),
    );
    expect(preview.status).toBe(200);
    expect(addedInk(pixels(new Uint8Array(await preview.arrayBuffer())), bare).n).toBeGreaterThan(500);
  });

  it("refuses a logo that is not an uploaded PNG it can read, naming body.spec.logoKey", async () => {
    const t = await createTenant();
    const make = (logoKey: string) =>
      api<Failure>(t, "/label-templates", { body: { name: `L ${logoKey.slice(-6)}`, spec: { ...spec, logoKey } } });
    const jpeg = await make(await upload(t, fileBytes("jpeg", 64), "image/jpeg"));
    expect(jpeg.status).toBe(400);
    expect(jpeg.body.message).toBe(
      "body.spec.logoKey: the logo is image/jpeg; labels take a PNG logo (convert it and upload again)",
    );
    const broken = await make(await upload(t, fileBytes("png", 64), "image/png"));
    expect(broken.status).toBe(400);
    expect(broken.body.message).toBe("body.spec.logoKey: the logo is not a PNG this service can read");
    const other = await createTenant();
    const foreign = await make(await upload(other, logoPng(), "image/png"));
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toMatch(/^body\.spec\.logoKey: no uploaded object with this key in this workspace/);
  });
});
