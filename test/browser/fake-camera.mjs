// A fake camera for Chromium (`--use-file-for-fake-video-capture=<file>`): a y4m file (raw I420
// frames) made of QR codes taken from our label route's SVG (GET /inventory-items/{id}/qr.svg).
// Chromium plays the file in a loop at its frame rate.
import { writeFileSync } from "node:fs";
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

/** A luma plane (W x W) with the code drawn as large as it fits, or blank for `null`. */
function luma(modules, W) {
  const y = new Uint8Array(W * W).fill(235);
  if (!modules) return y;
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
 * Writes the y4m: for each entry of `sequence` (modules, or null for an empty view) `hold` frames
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
