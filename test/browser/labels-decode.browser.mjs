// Every printed code decodes back with an independent decoder (zxing-wasm, not our encoder bwip-js):
// every symbology, every default template at its preset size, as PDF (rendered by poppler's
// pdftoppm), PNG at the printer's DPI and ZPL (its ^GFA graphic field read back as a bitmap).
// Printed sheets keep their ink inside each label's box (the pixels on the box edges are white).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";
import { workspace } from "./browser.mjs";

const FORMAT = {
  qr: "QRCode",
  datamatrix: "DataMatrix",
  code128: "Code128",
  code39: "Code39",
  ean13: "EAN13",
  upca: "UPCA",
};
const tmp = mkdtempSync(join(tmpdir(), "labels-"));

globalThis.ImageData ??= class ImageData {
  constructor(data, width, height) {
    Object.assign(this, { data, width, height, colorSpace: "srgb" });
  }
};

/** Grey pixels (one byte each) to the RGBA ImageData zxing reads. */
const image = ({ w, h, px }) => {
  const rgba = new Uint8ClampedArray(w * h * 4);
  for (let i = 0; i < w * h; i++) rgba.set([px[i], px[i], px[i], 255], i * 4);
  return new ImageData(rgba, w, h);
};
const decode = async (bm) =>
  (await readBarcodes(image(bm), { tryHarder: true, maxNumberOfSymbols: 255 })).filter((r) => r.isValid);

/** An 8-bit greyscale PNG (what our route writes) to pixels. */
function readPng(bytes) {
  const buf = Buffer.from(bytes);
  let o = 8;
  let w = 0;
  let h = 0;
  const idat = [];
  while (o < buf.length) {
    const len = buf.readUInt32BE(o);
    const type = buf.toString("ascii", o + 4, o + 8);
    if (type === "IHDR") [w, h] = [buf.readUInt32BE(o + 8), buf.readUInt32BE(o + 12)];
    if (type === "IDAT") idat.push(buf.subarray(o + 8, o + 8 + len));
    o += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const px = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    expect(raw[y * (w + 1)]).toBe(0); // filter type None
    px.set(raw.subarray(y * (w + 1) + 1, (y + 1) * (w + 1)), y * w);
  }
  return { w, h, px };
}

/** ZPL labels: each `^XA ^PW ^LL ... ^GFA,total,total,rowBytes,hex ^FS ^XZ`, its graphic as pixels. */
function readZpl(text) {
  const labels = [
    ...text.matchAll(/\^XA\n\^PW(\d+)\n\^LL(\d+)\n\^LH0,0\n\^FO0,0\^GFA,(\d+),(\d+),(\d+),([0-9A-F]+)\^FS\n\^XZ\n/g),
  ];
  expect(labels.map((m) => m[0]).join("")).toBe(text); // nothing else in the file
  return labels.map(([, pw, ll, total, total2, rowBytes, hex]) => {
    const [w, h, rb] = [Number(pw), Number(ll), Number(rowBytes)];
    expect(Number(total)).toBe(Number(total2));
    expect(Number(total)).toBe(rb * h);
    expect(hex.length).toBe(2 * rb * h);
    expect(rb).toBe(Math.ceil(w / 8));
    const px = new Uint8Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        px[y * w + x] = (Number.parseInt(hex.substr((y * rb + (x >> 3)) * 2, 2), 16) >> (7 - (x & 7))) & 1 ? 0 : 255;
    return { w, h, px };
  });
}

/** A PDF rendered by poppler at `dpi`: one grey bitmap per page (PGM). */
function renderPdf(bytes, dpi) {
  const file = join(tmp, `p${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  execFileSync("pdftoppm", ["-r", String(dpi), "-gray", file, file]);
  const pages = [];
  for (let n = 1; ; n++) {
    let buf;
    try {
      buf = readFileSync(`${file}-${n}.pgm`);
    } catch {
      break;
    }
    const m = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(buf.toString("latin1", 0, 40));
    pages.push({ w: Number(m[1]), h: Number(m[2]), px: new Uint8Array(buf.subarray(m[0].length)) });
  }
  return pages;
}

const crop = (bm, x, y, w, h) => {
  const px = new Uint8Array(w * h);
  for (let r = 0; r < h; r++) px.set(bm.px.subarray((y + r) * bm.w + x, (y + r) * bm.w + x + w), r * w);
  return { w, h, px };
};

let ws;
/** A call to the workspace's API answering the raw bytes (node:http: Node does not resolve `*.localhost`). */
const call = (path, body) =>
  new Promise((resolve, reject) => {
    const u = new URL(`${ws.base}/api/v1${path}`);
    const payload = body ? JSON.stringify(body) : undefined;
    const req = http.request(
      {
        host: "127.0.0.1",
        port: u.port,
        path: u.pathname + u.search,
        method: body ? "POST" : "GET",
        agent: false,
        headers: {
          host: u.host,
          authorization: `Bearer ${ws.jwt}`,
          ...(payload
            ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) }
            : {}),
        },
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const bytes = new Uint8Array(Buffer.concat(chunks));
          if (res.statusCode >= 300) reject(new Error(`${path}: ${res.statusCode} ${new TextDecoder().decode(bytes)}`));
          else resolve(bytes);
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
const json = async (path, body) => JSON.parse(new TextDecoder().decode(await call(path, body)));

const VALUES = {
  qr: null,
  datamatrix: "DM-LABEL-0042",
  code128: "C128-Label-42",
  code39: "C39-LABEL 42",
  ean13: "4006381333931",
  upca: "036000291452",
};
let asset;
let templates;

beforeAll(async () => {
  await prepareZXingModule({
    overrides: {
      wasmBinary: readFileSync(new URL("../../node_modules/zxing-wasm/dist/reader/zxing_reader.wasm", import.meta.url)),
    },
    fireImmediately: true,
  });
  ws = await workspace("labels");
  asset = await json("/inventory-items", {
    name: "Cordless drill with a very long name that cannot fit on one small label line",
    uniqueTag: "DRL-0042",
  });
  for (const [symbology, value] of Object.entries(VALUES))
    if (value) await json("/codes", { value, symbology, holder: { kind: "asset", id: asset.id } });
  templates = {};
  for (const symbology of Object.keys(FORMAT))
    for (const [stock, extra] of [
      ["avery5160", {}],
      ["l7160", {}],
      ["l7651", { fontSizePt: 7 }],
      ["roll", { widthMm: 62, heightMm: 29 }],
    ]) {
      const t = await json("/label-templates", {
        name: `${symbology} ${stock}`,
        spec: { stock, symbology, fields: ["name", "tag", "serial"], ...extra },
      });
      templates[`${symbology}/${stock}`] = t;
    }
});

// A UPC-A is an EAN-13 with a leading 0: readers may report either (the look-up takes both).
const expected = (symbology) => (symbology === "qr" ? `${ws.base}/a/DRL-0042` : VALUES[symbology]);
const norm = (t) => (/^0\d{12}$/.test(t) ? t.slice(1) : t);

describe("printed codes decode back (zxing-wasm)", () => {
  it("PNG at the template's DPI and ZPL, every symbology on every stock", async () => {
    for (const [key, t] of Object.entries(templates)) {
      const symbology = key.split("/")[0];
      const png = readPng(await call("/labels/print", { templateId: t.id, format: "png", assetIds: [asset.id] }));
      const got = await decode(png);
      expect(
        got.map((r) => norm(r.text)),
        `${key} png`,
      ).toContain(expected(symbology));
      const format = got.find((r) => norm(r.text) === expected(symbology)).format;
      expect(symbology === "upca" ? ["UPCA", "EAN13"] : [FORMAT[symbology]]).toContain(format);
      const zpl = readZpl(
        new TextDecoder().decode(
          await call("/labels/print", { templateId: t.id, format: "zpl", assetIds: [asset.id, asset.id] }),
        ),
      );
      expect(zpl).toHaveLength(2);
      expect(
        (await decode(zpl[0])).map((r) => norm(r.text)),
        `${key} zpl`,
      ).toContain(expected(symbology));
    }
  });

  it("PDF sheets rendered by pdftoppm decode in every slot from the start position, with no ink on any label's edges", async () => {
    const SHEETS = {
      avery5160: [3, 10, 612, 792, 189, 72, 13.5, 36, 9, 0],
      l7160: [3, 7, 595.28, 841.89, 180, 108, 20.41, 42.94, 7.09, 0],
      l7651: [5, 13, 595.28, 841.89, 108, 60.09, 13.32, 30.33, 7.09, 0],
    };
    const DPI = 300;
    const s = DPI / 72;
    for (const symbology of Object.keys(FORMAT))
      for (const [stock, [cols, , , , w, h, left, top, gapX, gapY]] of Object.entries(SHEETS)) {
        const start = 2;
        const pdf = await call("/labels/print", {
          templateId: templates[`${symbology}/${stock}`].id,
          format: "pdf",
          startPosition: start,
          assetIds: [asset.id, asset.id],
        });
        const [page] = renderPdf(pdf, DPI);
        for (let slot = 0; slot < start + 1; slot++) {
          const col = slot % cols;
          const row = Math.floor(slot / cols);
          const [x0, y0] = [Math.round((left + col * (w + gapX)) * s), Math.round((top + row * (h + gapY)) * s)];
          const [x1, y1] = [
            Math.round((left + col * (w + gapX) + w) * s),
            Math.round((top + row * (h + gapY) + h) * s),
          ];
          const label = crop(page, x0, y0, x1 - x0, y1 - y0);
          const got = (await decode(label)).map((r) => norm(r.text));
          if (slot < start - 1) expect(got, `${symbology}/${stock} slot ${slot} is left free`).toEqual([]);
          else expect(got, `${symbology}/${stock} slot ${slot}`).toContain(expected(symbology));
          // The box edges: a one-pixel ring just inside the label is white (nothing drawn crosses it).
          const ring = [];
          for (let x = x0 + 1; x < x1 - 1; x++)
            ring.push(page.px[(y0 + 1) * page.w + x], page.px[(y1 - 2) * page.w + x]);
          for (let y = y0 + 1; y < y1 - 1; y++) ring.push(page.px[y * page.w + x0 + 1], page.px[y * page.w + x1 - 2]);
          expect(Math.min(...ring), `${symbology}/${stock} slot ${slot} edge`).toBeGreaterThan(200);
        }
      }
  });

  it("reserved codes print and decode before any asset has them; the defaults preview as PNG", async () => {
    const batch = await json("/tag-batches", {
      name: "Ahead",
      symbology: "code128",
      prefix: "PRE-",
      count: 2,
      digits: 4,
    });
    const codes = await json(`/codes?status=reserved&batchId=${batch.id}`);
    const pdf = await call("/labels/print", {
      templateId: "default-roll62-code128",
      format: "pdf",
      codeIds: codes.items.map((c) => c.id),
    });
    const pages = renderPdf(pdf, 300);
    expect(pages).toHaveLength(2);
    expect((await decode(pages[0])).map((r) => norm(r.text))).toEqual(["PRE-0001"]);
    expect((await decode(pages[1])).map((r) => norm(r.text))).toEqual(["PRE-0002"]);
    const list = await json("/label-templates");
    for (const t of list.items.filter((x) => x.builtIn)) {
      const png = readPng(await call(`/label-templates/${t.id}/preview.png`));
      expect((await decode(png)).length, t.id).toBe(1);
    }
  });
});
