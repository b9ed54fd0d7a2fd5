// A fake camera for Chromium (`--use-file-for-fake-video-capture=<file>`): a y4m file (raw I420
// frames) made of QR codes taken from our label route's SVG (GET /inventory-items/{id}/qr.svg), or
// of printed labels (the PNG of POST /labels/print: any symbology). Chromium plays the file in a
// loop at its frame rate.
import { writeFileSync } from "node:fs";
import { inflateSync } from "node:zlib";
import jsQR from "jsqr";

/** The dark modules of a label SVG (src/modules/labels/qr.ts: one path of `M x y h w v1 h-w z` runs). */
export function modulesOfSvg(svg) {
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  if (!size) throw new Error("not a label SVG");
  const dark = Array.from({ length: size }, () => new Uint8Array(size));
  const d = /<path[^>]* d="([^"]+)"/.exec(svg)?.[1] ?? "";
  for (const [, x, y, w] of d.matchAll(/M(\d+) (\d+)h(\d+)/g))
    for (let i = 0; i < Number(w); i++) dark[Number(y)][Number(x) + i] = 1;
  return { size, dark };
}

/** An 8-bit greyscale PNG without filters (what the print route writes) to `{w, h, px}`. */
export function pngPixels(bytes) {
  const buf = Buffer.from(bytes);
  let [o, w, h] = [8, 0, 0];
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
  for (let r = 0; r < h; r++) {
    if (raw[r * (w + 1)] !== 0) throw new Error("a PNG row with a filter: not one of the print route's");
    px.set(raw.subarray(r * (w + 1) + 1, (r + 1) * (w + 1)), r * w);
  }
  return { w, h, px };
}

/** A printed label's pixels centred in the plane, each dot as `scale` x `scale` pixels (paper white at 235). */
function drawBitmap(y, bm, W) {
  const scale = Math.max(1, Math.floor(Math.min(W / bm.w, W / bm.h)));
  if (bm.w * scale > W || bm.h * scale > W) throw new Error(`a ${bm.w} x ${bm.h} label does not fit ${W} x ${W}`);
  const [ox, oy] = [Math.floor((W - bm.w * scale) / 2), Math.floor((W - bm.h * scale) / 2)];
  for (let r = 0; r < bm.h * scale; r++)
    for (let c = 0; c < bm.w * scale; c++)
      y[(oy + r) * W + ox + c] = bm.px[Math.floor(r / scale) * bm.w + Math.floor(c / scale)] < 128 ? 16 : 235;
  return y;
}

/** A luma plane (W x W) with the code (modules, or a label's `{w, h, px}`) drawn as large as it fits, or blank for `null`. */
function luma(modules, W) {
  const y = new Uint8Array(W * W).fill(235);
  if (!modules) return y;
  if (modules.px) return drawBitmap(y, modules, W);
  const scale = Math.floor(W / modules.size);
  const off = Math.floor((W - scale * modules.size) / 2);
  for (let r = 0; r < modules.size; r++)
    for (let c = 0; c < modules.size; c++)
      if (modules.dark[r][c])
        for (let dy = 0; dy < scale; dy++)
          y.fill(16, (off + r * scale + dy) * W + off + c * scale, (off + r * scale + dy) * W + off + (c + 1) * scale);
  return y;
}

/** What a frame shows, read back with jsQR (the test checks the label really says what it should). */
export function decodeModules(modules, W = 320) {
  const y = luma(modules, W);
  const rgba = new Uint8ClampedArray(W * W * 4);
  for (let i = 0; i < W * W; i++) {
    rgba.fill(y[i], i * 4, i * 4 + 3);
    rgba[i * 4 + 3] = 255;
  }
  return jsQR(rgba, W, W)?.data ?? null;
}

/**
 * Writes the y4m: for each entry of `sequence` (modules, a label's pixels, or null for an empty view) `hold` frames
 * of it, then `gap` empty frames. `fps` frames a second.
 */
export function writeY4m(file, sequence, { W = 320, fps = 10, hold = 6, gap = 4 } = {}) {
  const chroma = Buffer.alloc((W / 2) * (W / 2) * 2, 128);
  const parts = [Buffer.from(`YUV4MPEG2 W${W} H${W} F${fps}:1 Ip A1:1 C420jpeg\n`)];
  const frame = (y) => parts.push(Buffer.from("FRAME\n"), Buffer.from(y), chroma);
  const blank = luma(null, W);
  for (const modules of sequence) {
    const y = luma(modules, W);
    for (let i = 0; i < hold; i++) frame(y);
    for (let i = 0; i < gap; i++) frame(blank);
  }
  writeFileSync(file, Buffer.concat(parts));
  return { frames: sequence.length * (hold + gap), fps, seconds: (sequence.length * (hold + gap)) / fps };
}
