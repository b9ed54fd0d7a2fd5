import type { EncodedSymbol } from "./symbols";
import { mm, type Spec } from "./templates";

/** Width of `text` at `size` points, in points. */
export type Measure = (text: string, size: number) => number;

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One label laid out in its own box (points, origin top-left): where the code goes and the fitted lines. */
export interface LabelLayout {
  code: Box & { module: number };
  text: Box;
  size: number;
  lines: string[];
}

const ELLIPSIS = "...";
const MIN_SIZE = 5;
const LEAD = 1.2;

/** As much of `text` as fits `width`, ending in "..." when cut; "" when not even "..." fits. */
export function cut(text: string, size: number, width: number, measure: Measure): string {
  if (measure(text, size) <= width) return text;
  let n = text.length;
  while (n > 0 && measure(`${text.slice(0, n)}${ELLIPSIS}`, size) > width) n--;
  return n > 0 ? `${text.slice(0, n).trimEnd()}${ELLIPSIS}` : measure(ELLIPSIS, size) <= width ? ELLIPSIS : "";
}

/** Up to `max` lines, words wrapped (a word wider than a line is cut where it is full); the last line cut with "...". */
export function wrap(text: string, size: number, width: number, max: number, measure: Measure): string[] {
  const fits = (s: string) => measure(s, size) <= width;
  let rest = text.replace(/\s+/g, " ").trim();
  const out: string[] = [];
  while (rest && out.length < max - 1 && !fits(rest)) {
    let end = rest.lastIndexOf(" ");
    while (end > 0 && !fits(rest.slice(0, end))) end = rest.lastIndexOf(" ", end - 1);
    if (end <= 0) {
      end = 1;
      while (end < rest.length && fits(rest.slice(0, end + 1))) end++;
    }
    out.push(rest.slice(0, end).trimEnd());
    rest = rest.slice(end).trimStart();
  }
  if (rest && max > 0) out.push(cut(rest, size, width, measure));
  return out.filter(Boolean);
}

/**
 * Fits the field texts into the box by the template's rule. Whatever the rule, the result's lines
 * fit the box's width at `size` and their count times the leading fits its height.
 */
export function fitText(texts: string[], box: { w: number; h: number }, spec: Spec, measure: Measure) {
  const items = texts.map((t) => t.replace(/\s+/g, " ").trim()).filter(Boolean);
  const linesAt = (size: number) => Math.max(0, Math.floor(box.h / (size * LEAD)));
  let size = spec.fontSizePt;
  while (linesAt(size) < Math.min(1, items.length) && size > MIN_SIZE) size = Math.max(MIN_SIZE, size - 0.5);
  if (spec.fit === "shrink") {
    while (size > MIN_SIZE && (linesAt(size) < items.length || items.some((t) => measure(t, size) > box.w)))
      size = Math.max(MIN_SIZE, size - 0.5);
  }
  const max = linesAt(size);
  if (spec.fit !== "wrap")
    return {
      size,
      lines: items
        .slice(0, max)
        .map((t) => cut(t, size, box.w, measure))
        .filter(Boolean),
    };
  // wrap: every field gets a line first; the spare lines go to the fields in order.
  const shown = items.slice(0, max);
  let spare = max - shown.length;
  const lines: string[] = [];
  for (const t of shown) {
    const own = wrap(t, size, box.w, 1 + spare, measure);
    spare -= own.length - 1;
    lines.push(...own);
  }
  return { size, lines };
}

/**
 * Where the code and the text go on a label of `w` x `h` points. A square code (QR, DataMatrix)
 * sits left, text to its right; a linear code runs along the bottom, text above. `dot` (points per
 * printer dot, 0 for PDF) snaps modules to whole dots so a printer never smears a bar.
 */
export function layoutLabel(
  w: number,
  h: number,
  sym: EncodedSymbol,
  spec: Spec,
  dot: number,
): Omit<LabelLayout, "size" | "lines"> {
  const pad = Math.min(mm(1.5), h * 0.08, w * 0.05);
  const snap = (m: number) => (dot ? Math.max(dot, Math.floor(m / dot) * dot) : m);
  if (sym.kind === "matrix") {
    const modules = sym.width + 2 * sym.quiet;
    const side = Math.min(spec.codeSizeMm ? mm(spec.codeSizeMm) : Number.POSITIVE_INFINITY, h - 2 * pad, w * 0.5);
    const module = snap(side / modules);
    const s = module * modules;
    return {
      code: { x: pad, y: (h - s) / 2, w: s, h: s, module },
      text: { x: pad + s + pad, y: pad, w: Math.max(0, w - s - 3 * pad), h: h - 2 * pad },
    };
  }
  const modules = sym.width + 2 * sym.quiet;
  const module = snap((w - 2 * pad) / modules);
  const cw = module * modules;
  const ch = Math.min(spec.codeSizeMm ? mm(spec.codeSizeMm) : (h - 2 * pad) * 0.55, h - 2 * pad);
  return {
    code: { x: (w - cw) / 2, y: h - pad - ch, w: cw, h: ch, module },
    text: { x: pad, y: pad, w: w - 2 * pad, h: Math.max(0, h - 3 * pad - ch) },
  };
}

/** The code's dark rectangles in the label's box (points, origin top-left): runs of modules per row, or bars. */
export function codeRects(sym: EncodedSymbol, code: LabelLayout["code"]): Box[] {
  const m = code.module;
  const out: Box[] = [];
  if (sym.kind === "bars") {
    for (const [x, bw] of sym.bars) out.push({ x: code.x + (x + sym.quiet) * m, y: code.y, w: bw * m, h: code.h });
    return out;
  }
  for (let y = 0; y < sym.height; y++) {
    let x = 0;
    while (x < sym.width) {
      if (!sym.dark(x, y)) {
        x++;
        continue;
      }
      const start = x;
      while (x < sym.width && sym.dark(x, y)) x++;
      out.push({ x: code.x + (start + sym.quiet) * m, y: code.y + (y + sym.quiet) * m, w: (x - start) * m, h: m });
    }
  }
  return out;
}
