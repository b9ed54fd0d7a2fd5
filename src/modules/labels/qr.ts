import { encode } from "uqr";

/** The dark modules of a QR code as runs per row: [x, y, width] in module units (no quiet zone). */
export function qrRuns(text: string): { size: number; runs: [number, number, number][] } {
  const { data, size } = encode(text, { ecc: "M", border: 0 });
  const runs: [number, number, number][] = [];
  data.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < row.length && row[x]) x++;
      runs.push([start, y, x - start]);
    }
  });
  return { size, runs };
}

/** An SVG of the QR code with a 4-module quiet zone: one path of horizontal runs. */
export function qrSvg(text: string, moduleSize = 8): string {
  const { size, runs } = qrRuns(text);
  const total = size + 8;
  const d = runs.map(([x, y, w]) => `M${x + 4} ${y + 4}h${w}v1h-${w}z`).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${total} ${total}" width="${total * moduleSize}" height="${total * moduleSize}" shape-rendering="crispEdges"><rect width="${total}" height="${total}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`;
}

/**
 * The URL each kind of label encodes; each is a page of the field app on the workspace host
 * (docs/field-app.md "Every label opens a page"): assets and stock items by their printed tag,
 * kits and locations (which have no tag) by their id.
 */
export const assetUrl = (origin: string, tag: string) => `${origin}/a/${encodeURIComponent(tag)}`;
export const stockUrl = (origin: string, tag: string) => `${origin}/s/${encodeURIComponent(tag)}`;
export const kitUrl = (origin: string, id: string) => `${origin}/k/${encodeURIComponent(id)}`;
export const locationUrl = (origin: string, id: string) => `${origin}/l/${encodeURIComponent(id)}`;
