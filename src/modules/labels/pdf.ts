import {
  fill,
  PDFDocument,
  type PDFFont,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  StandardFonts,
} from "pdf-lib";
import { qrRuns } from "./qr";

export interface Label {
  name: string;
  uniqueTag: string;
  url: string;
}

/** Points (1/72 in). */
const mm = (v: number) => (v * 72) / 25.4;

/** Label layouts: a page of `cols` x `rows` labels, or a roll with one label per page. */
export const LAYOUTS = {
  // Avery 5160 / L7160-style: US Letter, 3 x 10 labels of 2.625" x 1".
  avery5160: { page: [612, 792], cols: 3, rows: 10, w: 189, h: 72, left: 13.5, top: 36, gapX: 9, gapY: 0 },
  // 62 mm continuous roll (Brother DK-22205 style), cut at 29 mm: one label per page.
  roll62: { page: [mm(62), mm(29)], cols: 1, rows: 1, w: mm(62), h: mm(29), left: 0, top: 0, gapX: 0, gapY: 0 },
} as const;
export type LayoutName = keyof typeof LAYOUTS;

/** Helvetica speaks WinAnsi only: other characters print as '?'. */
const printable = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, "?");

const ELLIPSIS = "...";

/** One line: the text, or as much of it as fits followed by "...". */
function fitted(text: string, font: PDFFont, size: number, width: number) {
  const full = printable(text);
  if (font.widthOfTextAtSize(full, size) <= width) return full;
  let n = full.length;
  while (n > 1 && font.widthOfTextAtSize(`${full.slice(0, n)}${ELLIPSIS}`, size) > width) n--;
  return `${full.slice(0, n)}${ELLIPSIS}`;
}

/**
 * Up to `lines` lines: words wrap where the next one does not fit (a word longer than a line is cut
 * where the line is full), and only the last line ends in "..." when text is left over. Names that
 * differ by their end ("Laptop #001", "Laptop #002") then keep that end on the second line.
 */
export function wrapped(text: string, font: PDFFont, size: number, width: number, lines: number): string[] {
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width;
  let rest = printable(text).replace(/\s+/g, " ").trim();
  const out: string[] = [];
  while (rest && out.length < lines - 1 && !fits(rest)) {
    let end = rest.lastIndexOf(" ");
    while (end > 0 && !fits(rest.slice(0, end))) end = rest.lastIndexOf(" ", end - 1);
    if (end <= 0) {
      // One word wider than the line: cut it where the line is full.
      end = 1;
      while (end < rest.length && fits(rest.slice(0, end + 1))) end++;
    }
    out.push(rest.slice(0, end).trimEnd());
    rest = rest.slice(end).trimStart();
  }
  if (rest) out.push(fitted(rest, font, size, width));
  return out;
}

/** Draws the QR code as filled rectangles (one per run): small content streams, fast for 1,000 labels. */
function drawQr(page: PDFPage, url: string, x: number, y: number, side: number) {
  const { size, runs } = qrRuns(url);
  const m = side / size;
  page.pushOperators(
    pushGraphicsState(),
    ...runs.flatMap(([rx, ry, w]) => [rectangle(x + rx * m, y + side - (ry + 1) * m, w * m, m)]),
    fill(),
    popGraphicsState(),
  );
}

export async function renderLabels(labels: readonly Label[], layoutName: LayoutName): Promise<Uint8Array> {
  const layout = LAYOUTS[layoutName];
  const doc = await PDFDocument.create();
  doc.setTitle("Inventory labels");
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const perPage = layout.cols * layout.rows;
  let page: PDFPage | undefined;
  labels.forEach((label, i) => {
    const slot = i % perPage;
    if (slot === 0) page = doc.addPage([layout.page[0], layout.page[1]]);
    const p = page!;
    const col = slot % layout.cols;
    const row = Math.floor(slot / layout.cols);
    const x = layout.left + col * (layout.w + layout.gapX);
    const y = layout.page[1] - layout.top - (row + 1) * layout.h - row * layout.gapY;
    const pad = Math.min(6, layout.h * 0.08);
    const side = layout.h - 2 * pad;
    drawQr(p, label.url, x + pad, y + pad, side);
    const tx = x + side + 2 * pad;
    const tw = layout.w - side - 3 * pad;
    const size = Math.min(11, layout.h / 6);
    const lead = size * 1.2;
    // Two lines for the name where the label is tall enough for them and the tag; one otherwise.
    const nameLines = wrapped(label.name, bold, size, tw, layout.h - 2 * pad >= 3 * lead ? 2 : 1);
    const text = [
      ...nameLines.map((line) => ({ line, font: bold })),
      { line: fitted(label.uniqueTag, font, size, tw), font },
    ];
    // The block of lines centred on the label's height (baselines a cap height below each line's top).
    const top = y + layout.h / 2 + (text.length * lead) / 2;
    for (const [n, { line, font: f }] of text.entries())
      p.drawText(line, { x: tx, y: top - n * lead - size * 0.8, size, font: f });
  });
  if (!labels.length) doc.addPage([layout.page[0], layout.page[1]]);
  return doc.save({ useObjectStreams: true });
}
