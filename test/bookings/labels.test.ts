import jsQR from "jsqr";
import { decodePDFRawStream, PDFArray, PDFDocument, type PDFRawStream } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { newAsset } from "../harness/bookings-helpers";
import { workerFetch } from "../harness/contract";
import { api, createTenant, type TestTenant } from "../harness/tenant";

/** Rasterizes filled rectangles (in their own units) to RGBA with a white quiet zone, for jsQR. */
function raster(rects: number[][], scale: number) {
  const minX = Math.min(...rects.map((r) => r[0]!));
  const minY = Math.min(...rects.map((r) => r[1]!));
  const maxX = Math.max(...rects.map((r) => r[0]! + r[2]!));
  const maxY = Math.max(...rects.map((r) => r[1]! + r[3]!));
  const pad = 40;
  const w = Math.ceil((maxX - minX) * scale) + 2 * pad;
  const h = Math.ceil((maxY - minY) * scale) + 2 * pad;
  const px = new Uint8ClampedArray(w * h * 4).fill(255);
  for (const [x, y, rw, rh] of rects) {
    const x0 = Math.round((x! - minX) * scale) + pad;
    const y0 = Math.round((y! - minY) * scale) + pad;
    const x1 = Math.round((x! + rw! - minX) * scale) + pad;
    const y1 = Math.round((y! + rh! - minY) * scale) + pad;
    for (let yy = y0; yy < y1; yy++)
      for (let xx = x0; xx < x1; xx++) px.fill(0, (yy * w + xx) * 4, (yy * w + xx) * 4 + 3);
  }
  return { px, w, h };
}

const decode = (rects: number[][], scale: number) => {
  const { px, w, h } = raster(rects, scale);
  return jsQR(px, w, h)?.data;
};

/** The QR codes of a PDF page: each `q ... Q` block of `re` rectangles (PDF y grows upwards: flip it). */
async function pageQrCodes(pdf: Uint8Array): Promise<string[][]> {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    const text = streams
      .map((s) => new TextDecoder().decode(decodePDFRawStream(s as PDFRawStream).decode()))
      .join("\n");
    // Text is drawn in its own q ... Q blocks too; the QR codes are the blocks of rectangles.
    const blocks = [...text.matchAll(/(?:^|\n)q\n([\s\S]*?)\nQ/g)].filter((b) => / re(\n|$)/.test(b[1]!));
    return blocks.map((block) => {
      const rects = [...block[1]!.matchAll(/([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) re/g)].map((m) => {
        const [x, y, w, h] = m.slice(1).map(Number) as [number, number, number, number];
        return [x, -(y + h), w, h];
      });
      return decode(rects, 8) ?? "";
    });
  });
}

async function labels(t: TestTenant, body: unknown) {
  const res = await workerFetch(
    new Request(`${t.base}/labels`, {
      method: "POST",
      headers: { authorization: `ApiKey ${t.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    disposition: res.headers.get("content-disposition"),
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

/** The text lines drawn on each page, in drawing order: pdf-lib writes standard-font text as `<hex> Tj`. */
async function pageTexts(pdf: Uint8Array): Promise<string[][]> {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    const ops = streams.map((s) => new TextDecoder().decode(decodePDFRawStream(s as PDFRawStream).decode())).join("\n");
    return [...ops.matchAll(/<([0-9A-Fa-f]*)> Tj/g)].map((m) =>
      String.fromCharCode(...(m[1]!.match(/../g) ?? []).map((h) => Number.parseInt(h, 16))),
    );
  });
}

describe("labels", () => {
  it("serves an item's QR code as SVG carrying its URL (decoded with jsQR)", async () => {
    const t = await createTenant();
    const a = await newAsset(t, "Projector");
    const res = await api(t, `/inventory-items/${a.id}/qr.svg`);
    expect(res.status).toBe(200);
    const svg = String(res.body);
    const rects = [...svg.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
      Number(m[3]),
      1,
    ]);
    expect(rects.length).toBeGreaterThan(20);
    const url = decode(rects, 8);
    expect(url).toMatch(new RegExp(`^https?://[^/]+/a/${a.uniqueTag}$`));
  });

  it("renders PDF label sheets in both layouts whose QR codes decode to the items' URLs", async () => {
    const t = await createTenant();
    const items = [await newAsset(t, "Projector"), await newAsset(t, "Camera"), await newAsset(t, "Tripod")];
    const sheet = await labels(t, { layout: "avery5160", assetIds: items.map((a) => a.id) });
    expect(sheet.status).toBe(200);
    expect(sheet.type).toBe("application/pdf");
    const pages = await pageQrCodes(sheet.bytes);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.map((u) => u.replace(/^https?:\/\/[^/]+/, ""))).toEqual(items.map((a) => `/a/${a.uniqueTag}`));
    const roll = await labels(t, { layout: "roll62", filter: { q: "tri" } });
    const rollPages = await pageQrCodes(roll.bytes);
    expect(rollPages.map((p) => p.map((u) => u.replace(/^https?:\/\/[^/]+/, "")))).toEqual([
      [`/a/${items[2]!.uniqueTag}`],
    ]);
    expect((await labels(t, { layout: "avery5160" })).status).toBe(400);
    expect((await labels(t, { layout: "avery5160", assetIds: ["ast_missing"] })).status).toBe(400);
  });

  it("wraps names to two lines (ellipsis only after two), keeps the tag, and names the PDF", async () => {
    const t = await createTenant();
    const numbered = await newAsset(t, "Dell Latitude 5440 #001");
    const long = await newAsset(t, "Professional studio condenser microphone with shock mount #002");
    const word = await newAsset(t, "Supercalifragilisticexpialidocious-microphone-stand");
    const short = await newAsset(t, "Tripod");
    const roll = await labels(t, { layout: "roll62", assetIds: [numbered.id, long.id, word.id, short.id] });
    expect(roll.status).toBe(200);
    expect(roll.disposition).toBe('inline; filename="labels-roll62.pdf"');
    const [n, l, w, s] = await pageTexts(roll.bytes);
    // The "#001" that tells items apart is printed: the name goes on in a second line.
    expect(n).toEqual(["Dell Latitude", "5440 #001", numbered.uniqueTag]);
    expect(l).toHaveLength(3);
    expect(l![0]).not.toContain("...");
    expect(l![1]).toMatch(/\.\.\.$/);
    expect(`${l![0]} ${l![1]}`.startsWith("Professional studio")).toBe(true);
    // A word longer than the line is cut where the line is full, then goes on.
    expect(w![0]!.length).toBeGreaterThan(5);
    expect(`${w![0]}${w![1]!.replace(/\.\.\.$/, "")}`).toBe(
      "Supercalifragilisticexpialidocious-microphone-stand".slice(
        0,
        w![0]!.length + w![1]!.replace(/\.\.\.$/, "").length,
      ),
    );
    expect(s).toEqual(["Tripod", short.uniqueTag]);

    const sheet = await labels(t, { layout: "avery5160", assetIds: [numbered.id, short.id] });
    expect(sheet.disposition).toBe('inline; filename="labels-avery5160.pdf"');
    const [texts] = await pageTexts(sheet.bytes);
    expect(texts).toEqual(["Dell Latitude 5440", "#001", numbered.uniqueTag, "Tripod", short.uniqueTag]);
  });

  it("renders 1,000 labels in one request", async () => {
    const t = await createTenant();
    const a = await newAsset(t, "Many");
    const started = Date.now();
    const sheet = await labels(t, { layout: "avery5160", assetIds: [a.id] });
    expect(sheet.status).toBe(200);
    // 1,000 labels straight through the renderer (ids are unique per request, so render the same item's label 1,000 times).
    const { renderLabels } = await import("../../src/modules/labels/pdf");
    const t0 = Date.now();
    const pdf = await renderLabels(
      Array.from({ length: 1000 }, (_, i) => ({
        name: `Item ${i}`,
        uniqueTag: `AST-${i}`,
        url: `https://x.test/a/AST-${i}`,
      })),
      "avery5160",
    );
    const ms = Date.now() - t0;
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(34);
    expect(ms).toBeLessThan(10_000);
    expect(pdf.byteLength).toBeLessThan(10 * 1024 * 1024);
    void started;
  });
});
