import bwip from "bwip-js/generic";
import { type Box, codeRects, fitText, layoutLabel } from "./layout";
import { type Logo, placeLogo } from "./logo";
import type { PrintLabel } from "./print-data";
import { encodeSymbol } from "./symbols";
import { type Spec, stockOf } from "./templates";

/** A grey bitmap, one byte per dot (0 black, 255 white). */
export interface Bitmap {
  w: number;
  h: number;
  px: Uint8Array;
}

// bwip-js's own OCR-B glyphs (the font it prints human-readable text in): text without a font file.
const fonts = (
  bwip as unknown as {
    FontLib: { lookup(n: string): number; getglyph(f: number, c: number, w: number, h: number): Glyph };
  }
).FontLib;
type Glyph = {
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
  bytes: Uint8Array;
  offset: number;
};
const OCRB = () => fonts.lookup("OCR-B");
const glyph = (c: string, px: number) => fonts.getglyph(OCRB(), /[\x20-\x7e]/.test(c) ? c.charCodeAt(0) : 63, px, px);

/** One label of the template rendered at its DPI: what PNG (Brother QL) and ZPL (Zebra) print. */
export function rasterLabel(label: PrintLabel, spec: Spec, logo: Logo | null = null): Bitmap {
  const stock = stockOf(spec);
  const dot = 72 / spec.dpi;
  const w = Math.round(stock.w / dot);
  const h = Math.round(stock.h / dot);
  const px = new Uint8Array(w * h).fill(255);
  const sym = encodeSymbol(spec.symbology, label.encoded);
  const codeLay = layoutLabel(stock.w, stock.h, sym, spec, dot);
  const placed = logo ? placeLogo(codeLay.text, logo) : { logo: null, text: codeLay.text };
  const lay = { ...codeLay, text: placed.text };
  const toDot = (v: number) => Math.round(v / dot);
  if (logo && placed.logo) drawLogo(px, w, h, logo, placed.logo, toDot);
  for (const r of codeRects(sym, lay.code)) {
    const [x0, y0, x1, y1] = [toDot(r.x), toDot(r.y), toDot(r.x + r.w), toDot(r.y + r.h)];
    for (let y = Math.max(0, y0); y < Math.min(h, y1); y++)
      px.fill(0, y * w + Math.max(0, x0), y * w + Math.min(w, x1));
  }
  const measure = (t: string, size: number) => {
    const p = Math.max(4, Math.round(size / dot));
    return [...t].reduce((sum, c) => sum + glyph(c, p).advance, 0) * dot;
  };
  const { size, lines } = fitText(label.texts, lay.text, spec, measure);
  const p = Math.max(4, Math.round(size / dot));
  const lead = size * 1.2;
  const top = lay.text.y + (lay.text.h - lines.length * lead) / 2;
  // Glyphs are clipped to the text box: nothing is drawn outside it, whatever a glyph's overhang.
  const [bx0, by0, bx1, by1] = [
    toDot(lay.text.x),
    toDot(lay.text.y),
    toDot(lay.text.x + lay.text.w),
    toDot(lay.text.y + lay.text.h),
  ];
  for (const [n, line] of lines.entries()) {
    let x = toDot(lay.text.x);
    const base = toDot(top + n * lead + size * 0.9);
    for (const c of line) {
      const g = glyph(c, p);
      for (let gy = 0; gy < g.height; gy++)
        for (let gx = 0; gx < g.width; gx++) {
          const X = x + g.left + gx;
          const Y = base - g.top + gy;
          if (X < bx0 || X >= bx1 || Y < by0 || Y >= by1) continue;
          const v = g.bytes[g.offset + gy * g.width + gx]!;
          if (v > 127) px[Y * w + X] = 0;
        }
      x += g.advance;
    }
  }
  return { w, h, px };
}

/** The logo sampled into its box (nearest pixel), thresholded to the printer's black and white. */
function drawLogo(px: Uint8Array, w: number, h: number, logo: Logo, box: Box, toDot: (v: number) => number) {
  const [x0, y0, x1, y1] = [toDot(box.x), toDot(box.y), toDot(box.x + box.w), toDot(box.y + box.h)];
  for (let y = Math.max(0, y0); y < Math.min(h, y1); y++)
    for (let x = Math.max(0, x0); x < Math.min(w, x1); x++) {
      const sx = Math.min(logo.w - 1, Math.floor(((x - x0 + 0.5) * logo.w) / (x1 - x0)));
      const sy = Math.min(logo.h - 1, Math.floor(((y - y0 + 0.5) * logo.h) / (y1 - y0)));
      if (logo.grey[sy * logo.w + sx]! < 128) px[y * w + x] = 0;
    }
}

const CRC = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

async function deflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** An 8-bit greyscale PNG (the runtime's zlib does the compression) with its DPI in a pHYs chunk. */
export async function toPng(bm: Bitmap, dpi: number): Promise<Uint8Array> {
  const raw = new Uint8Array((bm.w + 1) * bm.h);
  for (let y = 0; y < bm.h; y++) raw.set(bm.px.subarray(y * bm.w, (y + 1) * bm.w), y * (bm.w + 1) + 1);
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const dv = new DataView(out.buffer);
    dv.setUint32(0, data.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(data, 8);
    dv.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, bm.w);
  new DataView(ihdr.buffer).setUint32(4, bm.h);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const phys = new Uint8Array(9);
  const ppm = Math.round(dpi / 0.0254);
  new DataView(phys.buffer).setUint32(0, ppm);
  new DataView(phys.buffer).setUint32(4, ppm);
  phys[8] = 1;
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("pHYs", phys),
    chunk("IDAT", await deflate(raw)),
    chunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * ZPL II for a Zebra: per label `^XA`, the print width and label length in dots, the whole label as
 * one `^GFA` graphic field (hex, one bit per dot, 1 = black), `^XZ`. The label prints exactly as
 * the PNG shows, whatever fonts the printer has.
 */
export function toZpl(bitmaps: readonly Bitmap[]): string {
  return bitmaps
    .map((bm) => {
      const rowBytes = Math.ceil(bm.w / 8);
      let hex = "";
      for (let y = 0; y < bm.h; y++)
        for (let b = 0; b < rowBytes; b++) {
          let byte = 0;
          for (let k = 0; k < 8; k++) {
            const x = b * 8 + k;
            if (x < bm.w && bm.px[y * bm.w + x]! < 128) byte |= 0x80 >> k;
          }
          hex += byte.toString(16).padStart(2, "0").toUpperCase();
        }
      const total = rowBytes * bm.h;
      return `^XA\n^PW${bm.w}\n^LL${bm.h}\n^LH0,0\n^FO0,0^GFA,${total},${total},${rowBytes},${hex}^FS\n^XZ\n`;
    })
    .join("");
}
