import { PDFDocument, type PDFFont, rgb, StandardFonts } from "pdf-lib";
import type { HandoverItem } from "../../db/tenant/handovers";
import { itemLine } from "./render";

export interface ReceiptContent {
  receiptId: string;
  handoverId: string;
  kind: "checkout" | "return";
  workspace: string;
  personName: string;
  items: readonly HandoverItem[];
  agreement: { name: string; version: number; text: string; sha256: string } | null;
  handedOverAt: string;
  signedAt: string;
  method: string;
  signerName: string;
  signaturePng: Uint8Array | null;
  issuedAt: string;
}

/**
 * The standard fonts encode WinAnsi only: anything outside Latin-1 is shown as '?', so a name in
 * another script cannot make the receipt fail (the row and the API keep the exact text).
 */
const printable = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, "?");

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const out: string[] = [];
  for (const para of text.split("\n")) {
    let line = "";
    for (const word of printable(para).split(" ")) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) <= width || !line) line = next;
      else {
        out.push(line);
        line = word;
      }
    }
    out.push(line);
  }
  return out;
}

/** A receipt as a PDF: the agreement version and its SHA-256, the items with tags and serials, times, method, signer. */
export async function receiptPdf(c: ReceiptContent): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Hand-over receipt ${c.receiptId}`);
  doc.setCreator("Inventory tracking");
  doc.setProducer("Inventory tracking");
  // Fixed dates: the document is what was signed, not when the PDF library ran.
  doc.setCreationDate(new Date(c.issuedAt));
  doc.setModificationDate(new Date(c.issuedAt));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const [W, H, M] = [595, 842, 50];
  let page = doc.addPage([W, H]);
  let y = H - M;
  const write = (text: string, size = 10, f = font) => {
    for (const line of wrap(text, f, size, W - 2 * M)) {
      if (y < M + size) {
        page = doc.addPage([W, H]);
        y = H - M;
      }
      page.drawText(line, { x: M, y, size, font: f, color: rgb(0, 0, 0) });
      y -= size * 1.4;
    }
  };
  write(c.kind === "return" ? "Return receipt" : "Hand-over receipt", 18, bold);
  y -= 6;
  write(`Receipt ${c.receiptId} - hand-over ${c.handoverId} - workspace ${c.workspace}`, 9);
  y -= 8;
  write("Person", 12, bold);
  write(c.personName);
  y -= 6;
  write(`Items (${c.items.length})`, 12, bold);
  for (const i of c.items) write(`- ${itemLine(i)}   [${i.assetId}]`);
  y -= 6;
  write("Times and method", 12, bold);
  write(`${c.kind === "return" ? "Returned" : "Handed over"}: ${c.handedOverAt}`);
  write(`Signed: ${c.signedAt}`);
  write(`Method: ${c.method}`);
  write(`Signer: ${c.signerName}`);
  if (c.agreement) {
    y -= 6;
    write(`Agreement: ${c.agreement.name}, version ${c.agreement.version}`, 12, bold);
    write(`SHA-256 of the agreement as signed: ${c.agreement.sha256}`, 8);
    y -= 4;
    write(c.agreement.text, 9);
  }
  if (c.signaturePng) {
    const img = await doc.embedPng(c.signaturePng);
    const scale = Math.min(1, 240 / img.width, 90 / img.height);
    const [w, h] = [img.width * scale, img.height * scale];
    if (y - h < M) {
      page = doc.addPage([W, H]);
      y = H - M;
    }
    y -= 6;
    write("Signature", 12, bold);
    page.drawImage(img, { x: M, y: y - h, width: w, height: h });
    y -= h + 8;
  }
  write(
    `Issued ${c.issuedAt}. The SHA-256 of this file is recorded with the receipt and in the workspace's receipt chain (GET /receipts/${c.receiptId}/verify).`,
    8,
  );
  return doc.save({ useObjectStreams: false });
}
