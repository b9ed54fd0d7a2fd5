import {
  fill,
  PDFDocument,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  StandardFonts,
} from "pdf-lib";
import { codeRects, fitText, layoutLabel } from "./layout";
import { type Logo, placeLogo } from "./logo";
import type { PrintLabel } from "./print-data";
import { encodeSymbol } from "./symbols";
import { type Spec, stockOf } from "./templates";

/** Helvetica speaks WinAnsi only: other characters print as '?'. */
const printable = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, "?");

/**
 * A PDF of labels on the template's stock. `start` (1-based) is the first free position on the
 * first sheet, for a half-used sheet; positions run left to right, then down.
 */
export async function renderPdf(
  labels: readonly PrintLabel[],
  spec: Spec,
  start = 1,
  logo: Logo | null = null,
): Promise<Uint8Array> {
  const stock = stockOf(spec);
  const doc = await PDFDocument.create();
  doc.setTitle("Inventory labels");
  const font = await doc.embedFont(StandardFonts.Helvetica);
  // Embedded once, drawn on every label (the PDF refers to the one image).
  const image = logo ? await doc.embedPng(logo.png) : null;
  const measure = (t: string, size: number) => font.widthOfTextAtSize(printable(t), size);
  const perPage = stock.cols * stock.rows;
  let page: PDFPage | undefined;
  labels.forEach((label, i) => {
    const slot = (i + start - 1) % perPage;
    if (!page || slot === 0) page = doc.addPage([stock.page[0], stock.page[1]]);
    const col = slot % stock.cols;
    const row = Math.floor(slot / stock.cols);
    const bx = stock.left + col * (stock.w + stock.gapX);
    const by = stock.top + row * (stock.h + stock.gapY);
    const sym = encodeSymbol(spec.symbology, label.encoded);
    const codeLay = layoutLabel(stock.w, stock.h, sym, spec, 0);
    const placed = logo ? placeLogo(codeLay.text, logo) : { logo: null, text: codeLay.text };
    const lay = { ...codeLay, text: placed.text };
    const flipY = (y: number, h: number) => stock.page[1] - (by + y + h);
    if (image && placed.logo) {
      const b = placed.logo;
      page.drawImage(image, { x: bx + b.x, y: flipY(b.y, b.h), width: b.w, height: b.h });
    }
    page.pushOperators(
      pushGraphicsState(),
      ...codeRects(sym, lay.code).map((r) => rectangle(bx + r.x, flipY(r.y, r.h), r.w, r.h)),
      fill(),
      popGraphicsState(),
    );
    const { size, lines } = fitText(label.texts, lay.text, spec, measure);
    const lead = size * 1.2;
    // The block centred in the text box; each baseline a cap height below its line's top.
    const top = lay.text.y + (lay.text.h - lines.length * lead) / 2;
    for (const [n, line] of lines.entries())
      page.drawText(printable(line), { x: bx + lay.text.x, y: flipY(top + n * lead + size * 0.9, 0), size, font });
  });
  if (!page) doc.addPage([stock.page[0], stock.page[1]]);
  return doc.save({ useObjectStreams: true });
}
